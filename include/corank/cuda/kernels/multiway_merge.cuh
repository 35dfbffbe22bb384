// The GPU k-way merge's passes: a pairwise pass (every pair of runs merged at once by tiles of the
// whole output) and the sort's four-way pass over groups of four runs given by offsets.
#pragma once

#include <cstddef>

#include "corank/cuda/block/co_rank.cuh"
#include "corank/cuda/kernels/merge.cuh"
#include "corank/cuda/kernels/merge_sort.cuh"

namespace corank::cuda::kernels {

/// Pass of width w: runs of w input runs each (run r's boundaries at offsets[min(r * w, k)])
/// merged pairwise, 2q with 2q + 1, from keys/vals into keys_out/vals_out. Block t makes outputs
/// [t * tile, (t + 1) * tile): for each pair's share of that range (one, or more where pairs are
/// shorter than a tile), warps 0 and 1 find its co-ranks in global memory and the block merges it
/// with the production merge's tile step (kernels::merge_staged_tile). Adjacent runs, ties to the
/// left: the tree is stable by run order.
template <int Threads, int Items, bool HasValues, class K, class V, class Offset, class Compare>
__global__ void __launch_bounds__(Threads)
    merge_run_pairs(const K* keys, const V* vals, const Offset* offsets, std::size_t runs,
                    std::size_t width, std::size_t total, K* keys_out, V* vals_out, Compare comp) {
  extern __shared__ __align__(16) unsigned char stage[];
  __shared__ std::size_t bounds[5];  // pair start, middle, end; the share's co-ranks
  constexpr std::size_t tile = std::size_t(Threads) * Items;
  const auto boundary = [&](std::size_t r) { return std::size_t(offsets[r < runs ? r : runs]); };
  const std::size_t pairs = (runs + 2 * width - 1) / (2 * width);
  const std::size_t end = min((std::size_t(blockIdx.x) + 1) * tile, total);
  for (std::size_t pos = std::size_t(blockIdx.x) * tile; pos < end;) {
    if (threadIdx.x == 0) {  // the last pair starting at or before pos (never an empty one)
      std::size_t lo = 0, hi = pairs;
      while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (boundary(mid * 2 * width) <= pos)
          lo = mid;
        else
          hi = mid;
      }
      bounds[0] = boundary(lo * 2 * width);
      bounds[1] = boundary((lo * 2 + 1) * width);
      bounds[2] = boundary((lo + 1) * 2 * width);
    }
    __syncthreads();
    const std::size_t first = bounds[0], middle = bounds[1], last = bounds[2];
    const std::size_t m = middle - first, n = last - middle;
    const std::size_t d0 = pos - first, d1 = min(end, last) - first;
    const unsigned warp = threadIdx.x / 32;
    if (warp < 2) {
      const std::size_t k = warp == 0 ? d0 : d1;
      const std::size_t i = block::warp_co_rank(k, keys + first, m, keys + middle, n, comp);
      if (threadIdx.x % 32 == 0) bounds[3 + warp] = i;
    }
    __syncthreads();
    const std::size_t a0 = bounds[3], a1 = consistent_co_rank(bounds[4], d1, a0, d0, m, n);
    merge_staged_tile<Items, HasValues>(keys + first, HasValues ? vals + first : nullptr,
                                        keys + middle, HasValues ? vals + middle : nullptr,
                                        keys_out + first, HasValues ? vals_out + first : nullptr,
                                        d0, d1, a0, a1, stage, comp);
    __syncthreads();  // bounds and the stage are rewritten next
    pos = d1 + first;
  }
}

/// A four-way pass of the k-way merge for the sort's kernels (four_way_partition,
/// four_way_merge_tiles): the runs of `width` input runs each (run r's boundaries at offsets[min(r
/// x width, k)]) merged four at a time. Groups differ in size, so their cut slots and tiles are
/// not a fixed number each: group g's slots start at floor(start_g / stride) + 3g and its tiles
/// at floor(first slot / parts) + g, room for its ceil(|AB| / stride) + ceil(|CD| / stride)
/// samples (at most |group| / stride + 2) and their tiles, found from a slot or tile by a binary
/// search of the groups. About n / stride slots in all, whatever the runs' lengths. No grid
/// samples: the runs start anywhere, off the samples' grid.
template <class K, class V, class Offset>
struct multiway_four_way_runs : four_way_runs<K, V> {
  using base = four_way_runs<K, V>;
  const Offset* offsets;
  std::size_t runs;  // k: the input's runs

  __host__ __device__ std::size_t groups() const {
    const std::size_t group_runs = 4 * this->width;
    return (runs + group_runs - 1) / group_runs;
  }
  __host__ __device__ std::size_t slots() const { return this->n / this->stride + 3 * groups(); }
  __host__ __device__ std::size_t tiles() const { return slots() / this->parts + groups(); }

  /// Input position where the group's quarter q (0..4; 4: the group's end) starts.
  __device__ std::size_t start(std::size_t g, std::size_t q) const {
    const std::size_t r = (4 * g + q) * this->width;
    return std::size_t(offsets[r < runs ? r : runs]);
  }
  __device__ std::size_t first_slot(std::size_t g) const {
    return start(g, 0) / this->stride + 3 * g;
  }
  __device__ std::size_t first_tile(std::size_t g) const { return first_slot(g) / this->parts + g; }
  /// The last group g whose first slot (tile, by `first`) is at most x.
  template <class First>
  __device__ std::size_t group_at(std::size_t x, First first) const {
    std::size_t lo = 0, hi = groups();
    while (hi - lo > 1) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (first(mid) <= x)
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  }

  __device__ group_slot slot(std::size_t s) const {
    const std::size_t g = group_at(s, [&](std::size_t h) { return first_slot(h); });
    const std::size_t first = first_slot(g), in_group = s - first;
    const std::size_t ab = start(g, 2) - start(g, 0);
    const std::size_t ab_samples = (ab + this->stride - 1) / this->stride;
    const bool cd = in_group >= ab_samples;
    return {g, cd ? in_group - ab_samples : in_group, first, cd};
  }
  __device__ group_tile tile(std::size_t t) const {
    const std::size_t g = group_at(t, [&](std::size_t h) { return first_tile(h); });
    return {g, t - first_tile(g), first_slot(g)};
  }

  __device__ typename base::group_runs group(std::size_t g) const {
    std::size_t at[5];
    for (int q = 0; q < 5; ++q) at[q] = start(g, std::size_t(q));
    typename base::group_runs r{
        at[0],
        {this->keys + at[0], this->keys + at[1], this->keys + at[2], this->keys + at[3],
         at[1] - at[0], at[2] - at[1], at[3] - at[2], at[4] - at[3]},
        {}};
    for (int q = 0; q < 4; ++q) r.vals[q] = base::has_values ? this->vals + at[q] : nullptr;
    return r;
  }
  template <unsigned Every>
  __device__ four_runs<const K*, std::size_t> search_runs(std::size_t g) const {
    return group(g).keys;
  }
};

}  // namespace corank::cuda::kernels

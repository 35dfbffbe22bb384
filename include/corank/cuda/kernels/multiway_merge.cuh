// The GPU k-way merge's kernel: one pass of a pairwise merge tree, every pair of runs merged at
// once by tiles of the whole output.
#pragma once

#include <cstddef>

#include "corank/cuda/block/co_rank.cuh"
#include "corank/cuda/kernels/merge.cuh"

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

}  // namespace corank::cuda::kernels

// The study's GPU merge kernels (basic, tiled, circular; Siebert & Traeff's co-rank, as in the
// report the project grew from: docs/study.md), kept to be measured beside the production kernel
// (corank/cuda/kernels/merge.cuh). They cut the output into equal parts by co-rank
// (merge_path.hpp) and merge each part with the one sequential merge, from the same block pieces
// as the production kernels. A key-only merge passes corank::discard_iterator for its values.
#pragma once

#include <cstddef>

#include "corank/cuda/block/circular_buffer.cuh"
#include "corank/cuda/block/co_rank.cuh"
#include "corank/cuda/block/load_store.cuh"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"

namespace corank::study::cuda::kernels {

namespace block = corank::cuda::block;
/// Shared memory of the studied kernels: per-thread co-rank ends, then the two input tiles.
template <class K>
struct studied_smem {
  static std::size_t bytes(unsigned threads, unsigned tile_items) {
    return head_bytes(threads) + 2 * std::size_t(tile_items) * sizeof(K);
  }
  __host__ __device__ static std::size_t head_bytes(unsigned threads) {
    return (threads * sizeof(unsigned) + 15) / 16 * 16;
  }
};

/// The output range [out_begin, out_end) of part `part` of `parts`, and its co-ranks in A.
struct part_range {
  std::size_t out_begin, out_end, a_begin, a_end;
};

// ---- basic: every thread merges its part straight from global memory -------------------------

/// The naive kernel of the study. `reuse_neighbor` (optimisation 1) takes a thread's start from
/// its left neighbour's end through shared memory, halving the co-rank searches.
template <bool BranchFree, class K, class VA, class VB, class VO, class Compare>
__global__ void merge_basic(const K* a, VA va, std::size_t m, const K* b, VB vb, std::size_t n,
                            K* out, VO vo, Compare comp, bool reuse_neighbor) {
  extern __shared__ __align__(16) unsigned char smem[];
  std::size_t* ends = reinterpret_cast<std::size_t*>(smem);
  const std::size_t total = m + n;
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t r = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t k0 = even_split(total, threads, r), k1 = even_split(total, threads, r + 1);
  const std::size_t i1 = co_rank<BranchFree>(k1, a, m, b, n, comp);
  std::size_t i0;
  if (reuse_neighbor) {
    ends[threadIdx.x] = i1;
    __syncthreads();
    i0 = threadIdx.x > 0 ? ends[threadIdx.x - 1] : co_rank<BranchFree>(k0, a, m, b, n, comp);
  } else {
    i0 = co_rank<BranchFree>(k0, a, m, b, n, comp);
  }
  // Clamped against the start: a piece within both inputs even where co-ranks disagree (a
  // violated precondition), so the merge ends.
  const std::size_t i1_valid = consistent_co_rank(i1, k1, i0, k0, m, n);
  serial_merge_by_key<BranchFree>(a + i0, a + i1_valid, va + i0, b + (k0 - i0), b + (k1 - i1_valid),
                                  vb + (k0 - i0), out + k0, vo + k0, comp);
}

// ---- tiled and circular: blocks stage tiles of their part in shared memory --------------------

/// The block's part of the output and its co-ranks, found by two threads in global memory.
template <bool BranchFree, class K, class Compare>
__device__ part_range block_part(const K* a, std::size_t m, const K* b, std::size_t n,
                                 Compare comp) {
  __shared__ std::size_t corank_at[2];
  const std::size_t total = m + n;
  const std::size_t k0 = even_split<std::size_t>(total, gridDim.x, blockIdx.x);
  const std::size_t k1 = even_split<std::size_t>(total, gridDim.x, blockIdx.x + 1);
  if (threadIdx.x < 2)
    corank_at[threadIdx.x] = co_rank<BranchFree>(threadIdx.x ? k1 : k0, a, m, b, n, comp);
  __syncthreads();
  return {k0, k1, corank_at[0], consistent_co_rank(corank_at[1], k1, corank_at[0], k0, m, n)};
}

/// What the tiled and circular kernels start from: the block's part and its shared memory
/// (per-thread co-rank ends, then the two input tiles of `tile` items).
template <class K>
struct staged_block {
  part_range part;
  std::size_t b_begin, b_end;  // the part's range in B
  unsigned* ends;
  K *sa, *sb;

  template <bool BranchFree, class Compare>
  __device__ static staged_block make(const K* a, std::size_t m, const K* b, std::size_t n,
                                      Compare comp, unsigned tile) {
    extern __shared__ __align__(16) unsigned char smem[];
    K* sa = reinterpret_cast<K*>(smem + studied_smem<K>::head_bytes(blockDim.x));
    const part_range p = block_part<BranchFree>(a, m, b, n, comp);
    return {p,
            p.out_begin - p.a_begin,
            p.out_end - p.a_end,
            reinterpret_cast<unsigned*>(smem),
            sa,
            sa + tile};
  }
};

/// One tile step shared by the tiled and circular kernels: the block's threads merge the first
/// `tile_out` outputs of the staged inputs sa[0, a_count) and sb[0, b_count) (iterators into
/// shared memory) to out. Returns how many of them came from A. Optimisation 1 as in merge_basic.
template <bool BranchFree, class ItA, class ItB, class VA, class VB, class KO, class VO,
          class Compare>
__device__ unsigned merge_staged_tile(ItA sa, unsigned a_count, VA va, ItB sb, unsigned b_count,
                                      VB vb, unsigned tile_out, KO out, VO vo, Compare comp,
                                      bool reuse_neighbor, unsigned* ends) {
  // Parts by even_split, so a tile smaller than the block still covers every output (the
  // published kernels use tile / threads items per thread, which is 0 for small tiles).
  const unsigned t = threadIdx.x, nt = blockDim.x;
  const unsigned c0 = even_split(tile_out, nt, t), c1 = even_split(tile_out, nt, t + 1);
  const unsigned i1 = co_rank<BranchFree>(c1, sa, a_count, sb, b_count, comp);
  unsigned i0, used_a;
  if (reuse_neighbor) {
    ends[t] = i1;
    __syncthreads();
    i0 = t > 0 ? ends[t - 1] : 0u;
    used_a = ends[nt - 1];
  } else {
    i0 = co_rank<BranchFree>(c0, sa, a_count, sb, b_count, comp);
    used_a = co_rank<BranchFree>(tile_out, sa, a_count, sb, b_count, comp);
  }
  const unsigned i1_valid = consistent_co_rank(i1, c1, i0, c0, a_count, b_count);
  serial_merge_by_key<BranchFree>(sa + i0, sa + i1_valid, va + i0, sb + (c0 - i0),
                                  sb + (c1 - i1_valid), vb + (c0 - i0), out + c0, vo + c0, comp);
  return used_a;
}

/// The single-buffer (Circular = false) and circular-buffer (Circular = true) kernels.
///
/// Single buffer: each iteration loads a fresh tile of A and of B and keeps the part the merge
/// used (at least half of what was loaded is loaded again next time). Circular buffer: A and B
/// each live in a ring of `tile` slots, and each iteration refills only the slots the previous
/// merge consumed, so nothing is loaded twice.
template <bool Circular, bool BranchFree, class K, class VA, class VB, class VO, class Compare>
__global__ void merge_tiles(const K* a, VA va, std::size_t m, const K* b, VB vb, std::size_t n,
                            K* out, VO vo, Compare comp, unsigned tile, bool reuse_neighbor) {
  const staged_block<K> s = staged_block<K>::make<BranchFree>(a, m, b, n, comp, tile);
  const part_range part = s.part;
  std::size_t a_pos = part.a_begin, b_pos = s.b_begin;        // first unmerged
  unsigned a_head = 0, b_head = 0, a_count = 0, b_count = 0;  // ring start (Circular) and fill
  for (std::size_t out_pos = part.out_begin; out_pos < part.out_end;) {
    // Load after the a_count items still held (none for the single buffer). The published
    // circular kernel refills at the ring's start from the first unconsumed item, overwriting
    // what it holds and never fetching what follows: right only while a block's whole part fits
    // one tile, hence its failures for small tiles.
    const unsigned a_new = unsigned(min(std::size_t(tile - a_count), part.a_end - a_pos - a_count));
    const unsigned b_new = unsigned(min(std::size_t(tile - b_count), s.b_end - b_pos - b_count));
    for (unsigned i = threadIdx.x; i < a_new; i += blockDim.x)
      s.sa[block::ring_index(a_head, a_count + i, tile)] = a[a_pos + a_count + i];
    for (unsigned i = threadIdx.x; i < b_new; i += blockDim.x)
      s.sb[block::ring_index(b_head, b_count + i, tile)] = b[b_pos + b_count + i];
    a_count += a_new;
    b_count += b_new;
    __syncthreads();
    // The first `tile` outputs need at most `tile` items of either input: all of them are staged.
    const unsigned tile_out = unsigned(min(std::size_t(tile), part.out_end - out_pos));
    const auto merge_tile = [&](auto sa, auto sb) {
      return merge_staged_tile<BranchFree>(sa, a_count, va + a_pos, sb, b_count, vb + b_pos,
                                           tile_out, out + out_pos, vo + out_pos, comp,
                                           reuse_neighbor, s.ends);
    };
    unsigned used_a;
    if constexpr (Circular)
      used_a = merge_tile(block::ring_iterator<K>{s.sa, tile, a_head},
                          block::ring_iterator<K>{s.sb, tile, b_head});
    else
      used_a = merge_tile(s.sa, s.sb);
    const unsigned used_b = tile_out - used_a;
    if constexpr (Circular) {
      a_head = block::ring_index(a_head, used_a, tile);
      b_head = block::ring_index(b_head, used_b, tile);
      a_count -= used_a, b_count -= used_b;
    } else {
      a_count = b_count = 0;  // reload everything unconsumed
    }
    a_pos += used_a, b_pos += used_b;
    out_pos += tile_out;
    __syncthreads();  // the staged tiles are overwritten next
  }
}

}  // namespace corank::study::cuda::kernels

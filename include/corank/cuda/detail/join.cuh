// Dispatch of the GPU joins: sorted searches give each key its range of matches, running offsets
// of their lengths (look-back), the load-balancing search expands them into pairs; full outer:
// the same searches the other way round find B's unmatched keys, placed after A's pairs.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>

#include "corank/cuda/detail/load_balance.cuh"
#include "corank/cuda/detail/merge_path_walk.cuh"
#include "corank/cuda/detail/sorted_search.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/kernels/join.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/cuda/tuning/toolbox.cuh"
#include "corank/merge_path_walk.hpp"

namespace corank::cuda::detail {

/// Items per thread of the running offsets: enough to amortise the look-back per tile.
inline constexpr int join_offset_items = 8;
inline constexpr std::size_t join_offset_tile =
    std::size_t(tuning::toolbox_threads) * join_offset_items;

/// One side's ranges of matches in the other and their running offsets.
struct join_side_parts {
  temporary_part first, last, offsets, look_back, search;
};
struct join_parts {
  join_side_parts a, b;   // b: full outer only
  temporary_part expand;  // the load-balancing search's storage
};

/// The storage of a join of m and n keys that expands `pairs` pairs (join_size: none).
template <class K>
temporary_layout join_layout(join_kind kind, std::size_t m, std::size_t n, std::size_t pairs,
                             join_parts* parts) {
  temporary_layout layout;
  const auto side = [&](std::size_t size, std::size_t other) {
    join_side_parts p;
    p.first = layout.add<std::size_t>(size);
    p.last = layout.add<std::size_t>(size);
    p.offsets = layout.add<std::size_t>(size + 1);
    p.look_back = layout.add<unsigned long long>(tiles_of(size, join_offset_tile) + 1);
    p.search =
        layout.add_bytes(sorted_search_layout<K, std::size_t>(other, size, nullptr).bytes(), 1);
    return p;
  };
  join_parts p;
  p.a = side(m, n);
  if (kind == join_kind::full_outer) p.b = side(n, m);
  p.expand = layout.add_bytes(load_balance_layout<std::size_t>(m, pairs, nullptr).bytes(), 1);
  if (parts) *parts = p;
  return layout;
}

/// For each key of `keys` (size), the range [first, last) of its matches in `other`, and the
/// running offsets of count_of over them.
template <class K, class CountOf, class Compare>
cudaError_t join_side(const join_side_parts& part, void* temp, const K* keys, std::size_t size,
                      const K* other, std::size_t other_size, CountOf count_of, Compare comp,
                      cudaStream_t stream) {
  std::size_t* first = part.first.in<std::size_t>(temp);
  std::size_t* last = part.last.in<std::size_t>(temp);
  std::size_t* offsets = part.offsets.in<std::size_t>(temp);
  if (size == 0) return cudaMemsetAsync(offsets, 0, sizeof(std::size_t), stream);
  const temporary_storage search{part.search.in<unsigned char>(temp), part.search.bytes};
  CORANK_CUDA_TRY(sorted_search<false>(search, other, other_size, keys, size, first, comp, stream));
  CORANK_CUDA_TRY(sorted_search<true>(search, other, other_size, keys, size, last, comp, stream));
  count_of.first = first, count_of.last = last;
  const std::size_t tiles = tiles_of(size, join_offset_tile);
  if (tiles > std::size_t(std::numeric_limits<int>::max())) return cudaErrorInvalidValue;
  auto* words = part.look_back.in<unsigned long long>(temp);
  CORANK_CUDA_TRY(cudaMemsetAsync(words, 0, part.look_back.bytes, stream));
  kernels::running_offsets<tuning::toolbox_threads, join_offset_items>
      <<<unsigned(tiles), tuning::toolbox_threads, 0, stream>>>(
          count_of, size, offsets, unsigned(tiles), reinterpret_cast<unsigned*>(words + tiles),
          kernels::output_counts{words});
  return cudaGetLastError();
}

/// The pairs' count (when `count` is set: copied to the host, which waits) or the pairs themselves
/// (out_a, out_b of `pairs` entries, the count a join_size call gave).
template <class K, class Compare>
cudaError_t join(const temporary_storage& storage, join_kind kind, const K* a, std::size_t m,
                 const K* b, std::size_t n, std::size_t* count, std::size_t* out_a,
                 std::size_t* out_b, std::size_t pairs, Compare comp, cudaStream_t stream) {
  check_toolbox_key<K>();
  CORANK_CUDA_TRY(check_two_inputs(a, m, b, n, sizeof(K), nullptr, 0, 1));
  if (!count) {
    CORANK_CUDA_TRY(check_two_inputs(a, m, b, n, sizeof(K), out_a, pairs, sizeof(std::size_t)));
    CORANK_CUDA_TRY(check_two_inputs(a, m, b, n, sizeof(K), out_b, pairs, sizeof(std::size_t)));
    if (overlaps(out_a, pairs * sizeof(std::size_t), out_b, pairs * sizeof(std::size_t)))
      return cudaErrorInvalidValue;
  }
  if (kind != join_kind::inner && kind != join_kind::left_outer && kind != join_kind::full_outer)
    return cudaErrorInvalidValue;
  join_parts parts;
  const std::size_t bytes = join_layout<K>(kind, m, n, count ? 0 : pairs, &parts).bytes();
  std::size_t sizes[2] = {0, 0};
  CORANK_CUDA_TRY(with_temporary_storage(storage, bytes, stream, [&](void* temp) {
    const bool outer = kind != join_kind::inner, full = kind == join_kind::full_outer;
    CORANK_CUDA_TRY(join_side(parts.a, temp, a, m, b, n,
                              kernels::matches_of_a{nullptr, nullptr, outer}, comp, stream));
    if (full)
      CORANK_CUDA_TRY(join_side(parts.b, temp, b, n, a, m,
                                kernels::unmatched_of_b{nullptr, nullptr}, comp, stream));
    const std::size_t* a_offsets = parts.a.offsets.in<std::size_t>(temp);
    if (count) {
      CORANK_CUDA_TRY(cudaMemcpyAsync(&sizes[0], a_offsets + m, sizeof(std::size_t),
                                      cudaMemcpyDeviceToHost, stream));
      if (full)
        CORANK_CUDA_TRY(cudaMemcpyAsync(&sizes[1], parts.b.offsets.in<std::size_t>(temp) + n,
                                        sizeof(std::size_t), cudaMemcpyDeviceToHost, stream));
      return cudaSuccess;
    }
    // The load-balancing search needs its item count on the host, and A's share of `pairs` is
    // on the device: it walks all `pairs` items, and those past A's (B's unmatched, written next)
    // find no key of A and are skipped.
    const kernels::emit_join_pairs emit{parts.a.first.in<std::size_t>(temp),
                                        parts.a.last.in<std::size_t>(temp),
                                        a_offsets,
                                        m,
                                        out_a,
                                        out_b};
    const temporary_storage expand{parts.expand.in<unsigned char>(temp), parts.expand.bytes};
    if (m) CORANK_CUDA_TRY(load_balance(expand, a_offsets, m, pairs, emit, stream));
    if (full && n) {
      constexpr unsigned threads = tuning::binary_search_threads;
      kernels::join_unmatched_b<std::size_t><<<blocks_of(n, threads), threads, 0, stream>>>(
          parts.b.first.in<std::size_t>(temp), parts.b.last.in<std::size_t>(temp),
          parts.b.offsets.in<std::size_t>(temp), n, a_offsets + m, out_a, out_b);
      CORANK_CUDA_TRY(cudaGetLastError());
    }
    return cudaSuccess;
  }));
  if (!count) return cudaSuccess;
  CORANK_CUDA_TRY(cudaStreamSynchronize(stream));
  *count = sizes[0] + sizes[1];
  return cudaSuccess;
}

}  // namespace corank::cuda::detail

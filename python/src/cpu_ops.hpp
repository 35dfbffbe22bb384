// The operations of ops.hpp on the CPU: the corank::cpu algorithms (OpenMP, all cores).
#pragma once

#include <algorithm>
#include <corank/corank.hpp>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "choices.hpp"
#include "half_float.hpp"
#include "ops.hpp"

namespace corank_py {
namespace cpu_detail {

/// std::memcpy over all cores for large copies (one core copies about 10 GB/s, a socket more).
inline void parallel_copy(void* dst, const void* src, std::size_t bytes) {
  if (dst == src || bytes == 0) return;
  constexpr std::size_t chunk = std::size_t(1) << 22;
  const auto chunks = static_cast<std::ptrdiff_t>((bytes + chunk - 1) / chunk);
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (std::ptrdiff_t c = 0; c < chunks; ++c) {
    const std::size_t begin = std::size_t(c) * chunk;
    std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin,
                std::min(chunk, bytes - begin));
  }
}

inline void fill_iota(std::int64_t* v, std::size_t n) {
#pragma omp parallel for schedule(static) if (n > (std::size_t(1) << 16))
  for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(n); ++i) v[i] = i;
}

/// Segments of at least this many items are sorted one after another on all cores; shorter ones
/// one per core at a time (a team per short segment would cost more than its sort).
constexpr std::size_t team_segment_items = std::size_t(1) << 16;

template <class K, class Vals, class Compare>
void sort_segments(K* keys, Vals vals, const std::int64_t* offsets, std::size_t num_segments,
                   Compare comp) {
  corank::cpu::options one_thread;
  one_thread.threads = 1;
#pragma omp parallel for schedule(dynamic, 16)
  for (std::ptrdiff_t s = 0; s < std::ptrdiff_t(num_segments); ++s) {
    const std::size_t begin = std::size_t(offsets[s]), end = std::size_t(offsets[s + 1]);
    if (end - begin < team_segment_items)
      corank::cpu::stable_sort_by_key(keys + begin, keys + end, vals + begin, comp, one_thread);
  }
  for (std::size_t s = 0; s < num_segments; ++s) {
    const std::size_t begin = std::size_t(offsets[s]), end = std::size_t(offsets[s + 1]);
    if (end - begin >= team_segment_items)
      corank::cpu::stable_sort_by_key(keys + begin, keys + end, vals + begin, comp);
  }
}

}  // namespace cpu_detail

template <class K>
void merge_ops<K>::merge(const K* a, std::size_t m, const K* b, std::size_t n, K* out,
                         const void* va, const void* vb, void* vout, std::size_t value_bytes,
                         bool descending, stream_handle) {
  with_order(descending, [&](auto comp) {
    if (value_bytes == 0) {
      corank::cpu::merge(a, a + m, b, b + n, out, comp);
      return;
    }
    with_value_type(value_bytes, [&](auto value) {
      using V = decltype(value);
      corank::cpu::merge_by_key(a, a + m, static_cast<const V*>(va), b, b + n,
                                static_cast<const V*>(vb), out, static_cast<V*>(vout), comp);
    });
  });
}

template <class K>
void sort_ops<K>::sort(const K* src_keys, K* keys, const void* src_vals, void* vals,
                       std::size_t value_bytes, std::size_t n, bool descending, stream_handle) {
  cpu_detail::parallel_copy(keys, src_keys, n * sizeof(K));
  if (value_bytes && src_vals)
    cpu_detail::parallel_copy(vals, src_vals, n * value_bytes);
  else if (value_bytes)
    cpu_detail::fill_iota(static_cast<std::int64_t*>(vals), n);
  with_order(descending, [&](auto comp) {
    if (value_bytes == 0) {
      corank::cpu::stable_sort(keys, keys + n, comp);
      return;
    }
    with_value_type(value_bytes, [&](auto value) {
      using V = decltype(value);
      corank::cpu::stable_sort_by_key(keys, keys + n, static_cast<V*>(vals), comp);
    });
  });
}

template <class K>
void segment_ops<K>::sort_segments(const K* src_keys, K* keys, const void* src_vals, void* vals,
                                   std::size_t value_bytes, std::size_t n,
                                   const std::int64_t* offsets, std::size_t num_segments,
                                   bool /*stable: always*/, bool descending, stream_handle) {
  cpu_detail::parallel_copy(keys, src_keys, n * sizeof(K));
  if (value_bytes) cpu_detail::parallel_copy(vals, src_vals, n * value_bytes);
  with_order(descending, [&](auto comp) {
    if (value_bytes == 0) {
      cpu_detail::sort_segments(keys, corank::discard_iterator{}, offsets, num_segments, comp);
      return;
    }
    with_value_type(value_bytes, [&](auto value) {
      using V = decltype(value);
      cpu_detail::sort_segments(keys, static_cast<V*>(vals), offsets, num_segments, comp);
    });
  });
}

template <class K>
void scan_ops<K>::segmented_scan(const K* in, std::size_t n, const std::int64_t* offsets,
                                 std::size_t num_segments, K* out, scan_op op, bool exclusive,
                                 K init, stream_handle) {
  const auto run = [&](auto items, auto results, auto first) {
    with_scan_op(op, [&](auto scan) {
      if (exclusive)
        corank::cpu::segmented_exclusive_scan(items, n, offsets, num_segments, results, first,
                                              scan);
      else
        corank::cpu::segmented_inclusive_scan(items, n, offsets, num_segments, results, scan);
    });
  };
  if constexpr (is_half_float<K>)  // in float, each output rounded (half_float.hpp says why)
    run(widened<K>{in}, narrowed<K>{out}, static_cast<float>(init));
  else
    run(in, out, init);
}

template <class K>
void scan_ops<K>::spmv_scan(K* a, const K* scale, std::size_t n, const std::int64_t* offsets,
                            std::size_t num_segments, long long iterations, stream_handle) {
  if constexpr (is_half_float<K>)
    throw std::invalid_argument("spmv_scan: no 2-byte float iteration");  // module.cpp refuses it
  else
    corank::cpu::scaled_segmented_scan_iterations(a, scale, n, offsets, num_segments, iterations,
                                                  corank::plus{});
}

}  // namespace corank_py

// The operations the Python modules bind, per key type and backend: plain C++ functions on raw
// pointers, so the nanobind layer (module.cpp) never sees CUDA and the CUDA code never sees
// Python. One class template per family (merge, sort, segmented sort, scans); each backend
// defines them (cpu_ops.hpp; cuda_merge.cuh, cuda_sort.cuh, cuda_sort_segments.cuh,
// cuda_scan.cuh) and instantiates them per key type in translation units generated from
// instance.in (on the GPU one per key type and family, so that they build in parallel).
//
// Every function checks nothing the binding layer already checked (dtypes, sizes, devices,
// contiguity, offsets on the CPU) and reports failures by throwing: std::invalid_argument
// (ValueError), std::runtime_error (RuntimeError: a CUDA error).
#pragma once

#include <cstddef>
#include <cstdint>

namespace corank_py {

enum class scan_op { add, max, min };

/// A CUDA stream as the array libraries hand it over (an integer handle); ignored on the CPU.
using stream_handle = std::uintptr_t;

template <class K>
struct merge_ops {
  /// out = stable merge of sorted a[0, m) and b[0, n); values of `value_bytes` bytes (0: none)
  /// alongside.
  static void merge(const K* a, std::size_t m, const K* b, std::size_t n, K* out, const void* va,
                    const void* vb, void* vout, std::size_t value_bytes, bool descending,
                    stream_handle stream);
};

template <class K>
struct sort_ops {
  /// keys[0, n) (first copied from src_keys unless they are the same) sorted stably in place,
  /// values alongside (copied from src_vals likewise; null src_vals with values: they are filled
  /// with 0, 1, ..., n - 1 first, which makes an argsort).
  static void sort(const K* src_keys, K* keys, const void* src_vals, void* vals,
                   std::size_t value_bytes, std::size_t n, bool descending, stream_handle stream);
};

template <class K>
struct segment_ops {
  /// As sort_ops::sort, on each segment [offsets[s], offsets[s + 1]) of keys.
  static void sort_segments(const K* src_keys, K* keys, const void* src_vals, void* vals,
                            std::size_t value_bytes, std::size_t n, const std::int64_t* offsets,
                            std::size_t num_segments, bool stable, bool descending,
                            stream_handle stream);
};

template <class K>
struct scan_ops {
  /// out = segmented scan of in by op (exclusive: starting from init at each head); out == in
  /// allowed. Arguments in the library's order (in, n, offsets, num_segments, out).
  static void segmented_scan(const K* in, std::size_t n, const std::int64_t* offsets,
                             std::size_t num_segments, K* out, scan_op op, bool exclusive, K init,
                             stream_handle stream);
  /// `iterations` steps of a = segmented inclusive sum-scan of a[i] * scale[i], in place.
  static void spmv_scan(K* a, const K* scale, std::size_t n, const std::int64_t* offsets,
                        std::size_t num_segments, long long iterations, stream_handle stream);
};

}  // namespace corank_py

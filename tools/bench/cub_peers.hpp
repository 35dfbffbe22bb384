// CUB's and thrust's entry points as the GPU benchmarks call them, compiled once against each CUB
// the benchmarks compare with: the toolkit's, and the newest (CCCL's headers from the cuda-cccl
// wheel, scripts/fetch_cccl.sh; CMake option CORANK_BENCH_CUB_INCLUDE_DIR).
//
// Two CCCL versions cannot meet in one translation unit, so this header names no CUB type: the
// sources cub_peers_*.cu are compiled once per CUB (tools/bench/CMakeLists.txt,
// corank_add_cub_peers), each instantiating only its own `cub_peers<build>`. Their CUB and thrust
// symbols are distinct by CCCL's versioned namespaces; the newest build also gets its own libcu++
// ABI namespace (_LIBCUDACXX_ABI_NAMESPACE), because libcu++'s (cuda::std::__4) is the same in
// both versions.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <string>

namespace corank::bench {

enum class cub_build { toolkit, newest };

/// A CUB call made ready to run: temporary storage sized and allocated (once, outside any
/// timing), inputs and outputs bound. Empty when the entry point does not exist in that CUB.
using device_run = std::function<cudaError_t()>;

template <cub_build Build>
struct cub_peers {
  /// CUB_VERSION of this build (300001 for CCCL 3.0.1).
  static int version();

  // Merges (cub::DeviceMerge; thrust::merge and merge_by_key, which allocate as users see it).
  template <class Key, class Compare>
  static device_run merge_keys(const Key* a, std::size_t n, const Key* b, std::size_t m, Key* out,
                               Compare comp);
  template <class Key, class Value, class Compare>
  static device_run merge_pairs(const Key* a, const Value* va, std::size_t n, const Key* b,
                                const Value* vb, std::size_t m, Key* out, Value* vout,
                                Compare comp);
  template <class Key, class Compare>
  static device_run thrust_merge_keys(const Key* a, std::size_t n, const Key* b, std::size_t m,
                                      Key* out, Compare comp);
  template <class Key, class Value, class Compare>
  static device_run thrust_merge_pairs(const Key* a, const Value* va, std::size_t n, const Key* b,
                                       const Value* vb, std::size_t m, Key* out, Value* vout,
                                       Compare comp);

  // Sorts: cub::DeviceMergeSort (copying variants: input kept) and DeviceRadixSort (no
  // comparator; primitive keys only).
  template <class Key, class Compare>
  static device_run merge_sort_keys(const Key* in, Key* out, std::size_t n, Compare comp);
  template <class Key, class Value, class Compare>
  static device_run merge_sort_pairs(const Key* in, const Value* vin, Key* out, Value* vout,
                                     std::size_t n, Compare comp);
  template <class Key>
  static device_run radix_sort_keys(const Key* in, Key* out, std::size_t n);
  template <class Key, class Value>
  static device_run radix_sort_pairs(const Key* in, const Value* vin, Key* out, Value* vout,
                                     std::size_t n);

  // Segmented sorts on CSR offsets (begin offsets[s], end offsets[s + 1]): DeviceSegmentedSort
  // (keys, pairs) and DeviceSegmentedRadixSort (keys).
  template <class Key, class Offset>
  static device_run segmented_sort_keys(const Key* in, Key* out, std::size_t n,
                                        const Offset* offsets, std::size_t segments);
  template <class Key, class Value, class Offset>
  static device_run segmented_sort_pairs(const Key* in, const Value* vin, Key* out, Value* vout,
                                         std::size_t n, const Offset* offsets,
                                         std::size_t segments);
  template <class Key, class Offset>
  static device_run segmented_radix_sort_keys(const Key* in, Key* out, std::size_t n,
                                              const Offset* offsets, std::size_t segments);

  // Segmented inclusive sums of f32: DeviceScan::InclusiveScanByKey on a key per element (the
  // segment's index), and DeviceSegmentedScan::InclusiveSegmentedSum on CSR offsets (CCCL 3.4
  // and later; empty before).
  template <class Offset>
  static device_run scan_by_key(const Offset* keys, const float* in, float* out, std::size_t n);
  template <class Offset>
  static device_run segmented_sum(const float* in, float* out, const Offset* offsets,
                                  std::size_t segments);
};

/// "CUB 3.6.0" for a CUB_VERSION.
inline std::string cub_name(int version) {
  return "CUB " + std::to_string(version / 100000) + "." + std::to_string(version / 100 % 1000) +
         "." + std::to_string(version % 100);
}

}  // namespace corank::bench

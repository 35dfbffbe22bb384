// corank::cuda::sort_segments, stable_sort_segments and their _by_key forms: sort many independent
// segments in place.
//
//   cudaError_t stable_sort_segments(keys, n, offsets, num_segments, comp = corank::less{},
//                                    stream = 0);
//   cudaError_t stable_sort_segments_by_key(keys, vals, n, offsets, num_segments, comp, stream);
//   cudaError_t sort_segments(keys, n, offsets, num_segments, comp, stream);
//   cudaError_t sort_segments_by_key(keys, vals, n, offsets, num_segments, comp, stream);
//   ... (resource, keys, ...)                                        (a resource's temp)
//   std::size_t stable_sort_segments_temp_bytes<Key, Value = none>(n, num_segments);
//   std::size_t sort_segments_temp_bytes<Key, Value = none>(n, num_segments);
//   ... (keys, [vals,] n, offsets, num_segments, temp, temp_bytes, comp, stream)  (caller's temp)
//
// Segment s is keys[offsets[s], offsets[s + 1]) (CSR: num_segments + 1 offsets, non-decreasing,
// offsets[num_segments] <= n; empty segments allowed; any integer Offset, 64-bit included).
// Device pointers; comp a strict weak order callable on the device (with one that is not, NaN
// keys for instance, the sorts still end; each segment's keys then come back in an unspecified
// order, not necessarily a permutation). Bad arguments (null pointers with keys to sort, keys,
// values and a caller's buffer that overlap, a caller's buffer below the *_temp_bytes query) give
// cudaErrorInvalidValue. Asynchronous on `stream`; nothing is read back to the host, so a CUDA
// graph can capture every form. Temporary storage comes from the library's cache, a memory
// resource or the caller's buffer (memory.cuh).
//
// stable_sort_segments: stable (keys that compare equal keep their order, values too), any n and
// number of segments (64-bit). Short segments first: a warp takes each group of 32 consecutive
// segments, a lane each; a group of nothing longer than a few keys is sorted in the lanes'
// registers (tuning::stable_segmented_policy::tiny_sort_max), one of nothing longer than a few
// dozen (small_sort_max) likewise after a coalesced copy through shared memory. Of 4-byte keys, and
// of 8-byte items whose equal keys can differ (pairs, f64), longer ones to a window (and past it to
// 4096 keys where the long path below would pad them most) are listed on the device and merged
// stably by groups of 8 lanes to the whole block, the narrowest that holds each. Then the segments
// that start in each window of half a tile (keys) and are at most that long are sorted by one
// block, in the windows that hold a segment the groups left: when none of them is longer than a few
// dozen keys (rank_sort_max), each key goes to its stable rank in its segment (a comparison per key
// of its segment: every thread works, nothing is padded); other windows are sorted as one tile of
// (segment, key) pairs, with merge rounds only as far as their segments need. Longer segments are
// cut into tiles, sorted, then merged by passes of co-rank merges over all of them at once (the
// longest segment sets the passes; the host launches as many as the longest possible one needs, and
// the passes a call does not need return at once). Temporary storage: per window 13 bytes, per 32
// segments 4, per possible long segment 16 and per tile 4, and when some segment can be longer than
// a window an array of n keys (and values) for the merge passes.
//
// sort_segments: the same contract without the promise of stability; today it takes the stable
// sort (tuning::stable_segmented_policy::serves_unstable), which was faster than the library's
// unstable bitonic networks at nearly every length and by 100x to 4000x on segments of millions
// of keys (the networks give such a segment to one block). The networks stay in the library
// (detail::sort_segments_by_networks: segments binned by size on the device, a warp's lanes by
// shuffles to 32 keys, a warp to 1024, a block to 8192, beyond that one block's whole network;
// num_segments < 2^32; 8 bytes of temporary storage per segment) for the tests and benchmarks.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>
#include <type_traits>

#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/detail/segmented_sort.cuh"
#include "corank/cuda/detail/sort_entry_points.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/functional.hpp"

namespace corank::cuda {
namespace detail {

/// The checks every segmented sort makes before its storage is taken: cudaSuccess to go on,
/// `done` set when there is nothing to sort.
template <class Key, class Value, class Offset>
cudaError_t check_segments(const temporary_storage& storage, const Key* keys, const Value* vals,
                           std::size_t n, const Offset* offsets, std::size_t num_segments,
                           bool* done) {
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  *done = num_segments == 0 || n == 0;
  if (*done) return cudaSuccess;
  if (!offsets || !keys || (has_values && !vals)) return cudaErrorInvalidValue;
  // Keys and values of up to 16 bytes: n / 16 keeps their byte counts from overflowing.
  if (n > std::numeric_limits<std::size_t>::max() / 32) return cudaErrorInvalidValue;
  const std::size_t key_bytes = n * sizeof(Key), value_bytes = has_values ? n * sizeof(Value) : 0;
  if (has_values && overlaps(keys, key_bytes, vals, value_bytes)) return cudaErrorInvalidValue;
  if (storage.callers_buffer && (overlaps(storage.buffer, storage.buffer_bytes, keys, key_bytes) ||
                                 overlaps(storage.buffer, storage.buffer_bytes, vals, value_bytes)))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

/// The stable sort with a given policy (tuning::stable_segmented_policy's members); the entry
/// points pass the tuned one.
template <class Key, class Value, class Offset, class Compare,
          class Policy = stable_segmented_policy_for<Key, Value>>
cudaError_t stable_sort_segments_impl(const temporary_storage& storage, Key* keys, Value* vals,
                                      std::size_t n, const Offset* offsets,
                                      std::size_t num_segments, Compare comp, cudaStream_t stream) {
  bool done = false;
  CORANK_CUDA_TRY(check_segments(storage, keys, vals, n, offsets, num_segments, &done));
  if (done) return cudaSuccess;
  const stable_segments_layout<Key, Value, Policy> layout(n, num_segments);
  return with_temporary_storage(storage, layout.all.bytes(), stream, [&](void* temp) {
    return stable_sort_segments_run<Key, Value, Offset, Compare, Policy>(
        keys, vals, n, offsets, num_segments, temp, comp, stream);
  });
}

/// The unstable sort by its bitonic networks.
template <class Key, class Value, class Offset, class Compare>
cudaError_t sort_segments_by_networks(const temporary_storage& storage, Key* keys, Value* vals,
                                      std::size_t n, const Offset* offsets,
                                      std::size_t num_segments, Compare comp, cudaStream_t stream) {
  bool done = false;
  CORANK_CUDA_TRY(check_segments(storage, keys, vals, n, offsets, num_segments, &done));
  if (done) return cudaSuccess;
  if (num_segments >= 0xffffffffu) return cudaErrorInvalidValue;
  const unstable_segments_layout<> layout(n, num_segments);
  return with_temporary_storage(storage, layout.all.bytes(), stream, [&](void* temp) {
    return sort_segments_run(keys, vals, n, offsets, num_segments, temp, comp, stream);
  });
}

/// The unstable sort: the stable one where its policy says it is faster at nearly every length.
template <class Key, class Value, class Offset, class Compare>
cudaError_t sort_segments_impl(const temporary_storage& storage, Key* keys, Value* vals,
                               std::size_t n, const Offset* offsets, std::size_t num_segments,
                               Compare comp, cudaStream_t stream) {
  if constexpr (stable_segmented_policy_for<Key, Value>::serves_unstable)
    return stable_sort_segments_impl(storage, keys, vals, n, offsets, num_segments, comp, stream);
  else
    return sort_segments_by_networks(storage, keys, vals, n, offsets, num_segments, comp, stream);
}

}  // namespace detail

/// Bytes of temporary storage the stable sorts' caller's-buffer overloads need (the largest
/// size_t if that overflows).
template <class Key, class Value = block::no_value>
std::size_t stable_sort_segments_temp_bytes(std::size_t n, std::size_t num_segments) {
  if (n == 0 || num_segments == 0) return 0;
  return detail::stable_segments_layout<Key, Value>(n, num_segments).all.bytes();
}

/// Bytes of temporary storage the unstable sorts' caller's-buffer overloads need.
template <class Key, class Value = block::no_value>
std::size_t sort_segments_temp_bytes(std::size_t n, std::size_t num_segments) {
  if (n == 0 || num_segments == 0) return 0;
  if constexpr (detail::stable_segmented_policy_for<Key, Value>::serves_unstable)
    return stable_sort_segments_temp_bytes<Key, Value>(n, num_segments);
  return detail::unstable_segments_layout<>(n, num_segments).all.bytes();
}

/// stable_sort_segments(keys, n, offsets, num_segments, ...) sorts each segment keys[offsets[s],
/// offsets[s + 1]) in place by comp, stably; stable_sort_segments_by_key(keys, vals, n, ...) moves
/// vals alongside. Each with temporary storage from the library's cache, a memory resource, or
/// the caller's buffer (temp, temp_bytes >= stable_sort_segments_temp_bytes<Key, Value>).
CORANK_CUDA_SEGMENTED_SORT_ENTRY_POINTS(stable_sort_segments, detail::stable_sort_segments_impl)

/// sort_segments and sort_segments_by_key: the same, not stable (the caller's buffer >=
/// sort_segments_temp_bytes<Key, Value>).
CORANK_CUDA_SEGMENTED_SORT_ENTRY_POINTS(sort_segments, detail::sort_segments_impl)

}  // namespace corank::cuda

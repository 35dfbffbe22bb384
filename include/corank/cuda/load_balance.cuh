// corank::cuda::load_balancing_search and interval_expand: CSR-style work (segment s owns items
// offsets[s] to offsets[s + 1]) spread over the GPU by items, whatever the segment lengths.
//
//   cudaError_t load_balancing_search(offsets, num_segments, n, segment_of, stream = 0);
//     segment_of[j] = the segment of item j, for j < n
//   cudaError_t interval_expand(offsets, num_segments, values, n, out, stream = 0);
//     out[j] = values[segment of j]: each value repeated over its segment
//   ... (resource, offsets, ...) and (..., temp, temp_bytes, stream): memory.cuh's forms
//   std::size_t load_balance_temp_bytes<Offset>(num_segments, n);
//
// offsets: device CSR offsets, num_segments + 1 entries, offsets[0] = 0, non-decreasing,
// offsets[num_segments] = n (empty segments allowed). One merge-path pass over the segment ends
// and the items 0..n-1 (an end not after an item first): a partition pass cuts it at every tile,
// each block stages its ends (items need no memory), each thread walks Items steps from its own
// co-rank in shared memory, and the block stores its items' answers in order. O(n +
// num_segments) work; one std::size_t of temporary storage per tile. 64-bit sizes; Segment an
// integer type that holds num_segments (else cudaErrorInvalidValue).
// Violated offsets give every item a segment in [0, num_segments] (interval_expand reads
// values[min(s, num_segments - 1)]), never a read out of range. n > 0 with no segment is
// cudaErrorInvalidValue. Asynchronous on `stream`.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "corank/cuda/detail/load_balance.cuh"
#include "corank/cuda/memory.cuh"

namespace corank::cuda {

/// Bytes of temporary storage of the caller's-buffer forms for num_segments segments, n items.
template <class Offset>
std::size_t load_balance_temp_bytes(std::size_t num_segments, std::size_t n) {
  return detail::load_balance_layout<Offset>(num_segments, n, nullptr).bytes();
}

template <class Offset, class Segment>
cudaError_t load_balancing_search(const Offset* offsets, std::size_t num_segments, std::size_t n,
                                  Segment* segment_of, cudaStream_t stream = 0) {
  return detail::load_balancing_search({}, offsets, num_segments, n, segment_of, stream);
}
template <class Offset, class Segment>
cudaError_t load_balancing_search(memory_resource_ref resource, const Offset* offsets,
                                  std::size_t num_segments, std::size_t n, Segment* segment_of,
                                  cudaStream_t stream = 0) {
  return detail::load_balancing_search(resource, offsets, num_segments, n, segment_of, stream);
}
template <class Offset, class Segment>
cudaError_t load_balancing_search(const Offset* offsets, std::size_t num_segments, std::size_t n,
                                  Segment* segment_of, void* temp, std::size_t temp_bytes,
                                  cudaStream_t stream = 0) {
  return detail::load_balancing_search({temp, temp_bytes}, offsets, num_segments, n, segment_of,
                                       stream);
}

template <class Offset, class ValueIn, class ValueOut>
cudaError_t interval_expand(const Offset* offsets, std::size_t num_segments, const ValueIn* values,
                            std::size_t n, ValueOut* out, cudaStream_t stream = 0) {
  return detail::interval_expand({}, offsets, num_segments, values, n, out, stream);
}
template <class Offset, class ValueIn, class ValueOut>
cudaError_t interval_expand(memory_resource_ref resource, const Offset* offsets,
                            std::size_t num_segments, const ValueIn* values, std::size_t n,
                            ValueOut* out, cudaStream_t stream = 0) {
  return detail::interval_expand(resource, offsets, num_segments, values, n, out, stream);
}
template <class Offset, class ValueIn, class ValueOut>
cudaError_t interval_expand(const Offset* offsets, std::size_t num_segments, const ValueIn* values,
                            std::size_t n, ValueOut* out, void* temp, std::size_t temp_bytes,
                            cudaStream_t stream = 0) {
  return detail::interval_expand({temp, temp_bytes}, offsets, num_segments, values, n, out, stream);
}

}  // namespace corank::cuda

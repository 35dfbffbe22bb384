// Dispatch of the GPU set operations: balanced cuts, the count pass, the scan of the tiles'
// counts, the write pass; the output count left on the device or copied to the host.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>
#include <type_traits>

#include "corank/cuda/detail/merge_path_walk.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/kernels/set_operations.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/cuda/tuning/toolbox.cuh"
#include "corank/functional.hpp"
#include "corank/merge_path_walk.hpp"

namespace corank::cuda {

/// Where a set operation leaves the number of its outputs (a std::size_t): in device memory,
/// written in stream order without a host synchronisation, or on the host, which the call then
/// waits for (it synchronises `stream`).
struct output_count {
  std::size_t* where = nullptr;
  bool on_host = false;
  static output_count on_device(std::size_t* device) { return {device, false}; }
  static output_count to_host(std::size_t* host) { return {host, true}; }
};

namespace detail {

template <class K, class V>
struct set_operation_shape {
  static constexpr bool has_values = !std::is_same_v<V, no_value>;
  static constexpr int threads = tuning::set_operation_threads;
  // The stage holds both pieces (stage_items keys), then the outputs' keys; values beside.
  static constexpr int items =
      tuning::set_operation_items(sizeof(K) + (has_values ? sizeof(V) : 0));
  static constexpr std::size_t stage_items = std::size_t(threads) * items;
  // Balanced cuts this far apart give pieces of at most stage_items keys (a cut lies at its
  // output or one before), which each thread's items steps finish (serial_set_operation_registers).
  static constexpr std::size_t tile = stage_items - 1;
  static constexpr std::size_t stage_bytes =
      kernels::partitioned_smem<false, K, no_value>::key_bytes(stage_items);
};

/// The storage of a set operation: the cuts in A and in B (tiles + 1 each); the look-back's
/// words (one per tile) followed by the tile counter, zeroed together; the total for the host.
struct set_operation_parts {
  temporary_part cut_a, cut_b, look_back, total;
};

template <class K, class V>
temporary_layout set_operation_layout(std::size_t m, std::size_t n, set_operation_parts* parts) {
  temporary_layout layout;
  if (m > std::numeric_limits<std::size_t>::max() - n) {
    layout.add_bytes(std::numeric_limits<std::size_t>::max(), 2);  // refused as overflowing
    return layout;
  }
  const std::size_t tiles = tiles_of(m + n, set_operation_shape<K, V>::tile);
  set_operation_parts p;
  p.cut_a = layout.add<std::size_t>(tiles + 1);
  p.cut_b = layout.add<std::size_t>(tiles + 1);
  p.look_back = layout.add<unsigned long long>(tiles + 1);
  p.total = layout.add<std::size_t>(1);
  if (parts) *parts = p;
  return layout;
}

template <set_op Op, class K, class V, class Compare>
cudaError_t launch_set_operation(const K* a, const V* va, std::size_t m, const K* b, const V* vb,
                                 std::size_t n, K* keys_out, V* vals_out, std::size_t* total,
                                 const set_operation_parts& parts, void* temp, Compare comp,
                                 cudaStream_t stream) {
  using shape = set_operation_shape<K, V>;
  const std::size_t tiles = tiles_of(m + n, shape::tile);
  if (tiles > std::size_t(std::numeric_limits<int>::max())) return cudaErrorInvalidValue;
  if (tiles == 0) return cudaMemsetAsync(total, 0, sizeof(std::size_t), stream);
  std::size_t* cut_a = parts.cut_a.in<std::size_t>(temp);
  std::size_t* cut_b = parts.cut_b.in<std::size_t>(temp);
  auto* words = parts.look_back.in<unsigned long long>(temp);
  CORANK_CUDA_TRY(cudaMemsetAsync(words, 0, parts.look_back.bytes, stream));
  constexpr unsigned pt = tuning::toolbox_partition_threads;
  kernels::balanced_cuts<<<blocks_of(tiles + 1, pt), pt, 0, stream>>>(a, m, b, n, shape::tile,
                                                                      tiles, cut_a, cut_b, comp);
  CORANK_CUDA_TRY(cudaGetLastError());
  kernels::set_operation_tiles<shape::threads, shape::items, Op>
      <<<unsigned(tiles), shape::threads, shape::stage_bytes, stream>>>(
          a, va, b, vb, cut_a, cut_b, unsigned(tiles), reinterpret_cast<unsigned*>(words + tiles),
          kernels::output_counts{words}, keys_out, vals_out, set_operation_max_outputs(Op, m, n),
          total, comp);
  return cudaGetLastError();
}

template <class K, class V, class Compare>
cudaError_t launch_set_operation_op(set_op op, const K* a, const V* va, std::size_t m, const K* b,
                                    const V* vb, std::size_t n, K* keys_out, V* vals_out,
                                    std::size_t* total, const set_operation_parts& parts,
                                    void* temp, Compare comp, cudaStream_t stream);

template <class K, class V, class Compare>
cudaError_t set_operation(const temporary_storage& storage, set_op op, const K* a, const V* va,
                          std::size_t m, const K* b, const V* vb, std::size_t n, K* keys_out,
                          V* vals_out, output_count count, Compare comp, cudaStream_t stream) {
  constexpr bool has_values = !std::is_same_v<V, no_value>;
  check_toolbox_key<K>();
  static_assert(std::is_trivially_copyable_v<V>, "corank::cuda: values must be trivially copyable");
  if (!count.where) return cudaErrorInvalidValue;
  const std::size_t capacity = m > std::numeric_limits<std::size_t>::max() - n
                                   ? std::numeric_limits<std::size_t>::max()
                                   : set_operation_max_outputs(op, m, n);
  CORANK_CUDA_TRY(check_two_inputs(a, m, b, n, sizeof(K), keys_out, capacity, sizeof(K)));
  if (has_values) {
    CORANK_CUDA_TRY(check_two_inputs(va, m, vb, n, sizeof(V), vals_out, capacity, sizeof(V)));
    if (overlaps(vals_out, capacity * sizeof(V), keys_out, capacity * sizeof(K)) ||
        overlaps(vals_out, capacity * sizeof(V), a, m * sizeof(K)) ||
        overlaps(vals_out, capacity * sizeof(V), b, n * sizeof(K)))
      return cudaErrorInvalidValue;
  }
  set_operation_parts parts;
  const std::size_t bytes = set_operation_layout<K, V>(m, n, &parts).bytes();
  CORANK_CUDA_TRY(with_temporary_storage(storage, bytes, stream, [&](void* temp) {
    std::size_t* total = count.on_host ? parts.total.in<std::size_t>(temp) : count.where;
    CORANK_CUDA_TRY(launch_set_operation_op(op, a, va, m, b, vb, n, keys_out, vals_out, total,
                                            parts, temp, comp, stream));
    // Copied while the storage is still the call's (it is given back in stream order after).
    return count.on_host ? cudaMemcpyAsync(count.where, total, sizeof(std::size_t),
                                           cudaMemcpyDeviceToHost, stream)
                         : cudaSuccess;
  }));
  return count.on_host ? cudaStreamSynchronize(stream) : cudaSuccess;
}

template <class K, class V, class Compare>
cudaError_t launch_set_operation_op(set_op op, const K* a, const V* va, std::size_t m, const K* b,
                                    const V* vb, std::size_t n, K* keys_out, V* vals_out,
                                    std::size_t* total, const set_operation_parts& parts,
                                    void* temp, Compare comp, cudaStream_t stream) {
  return with_set_op(
      op,
      [&](auto kind) {
        return launch_set_operation<decltype(kind)::value>(a, va, m, b, vb, n, keys_out, vals_out,
                                                           total, parts, temp, comp, stream);
      },
      cudaErrorInvalidValue);
}

}  // namespace detail
}  // namespace corank::cuda

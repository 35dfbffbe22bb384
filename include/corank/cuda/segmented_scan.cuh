// corank::cuda segmented scans over CSR offsets.
//
//   cudaError_t segmented_inclusive_scan(in, out, n, offsets, num_segments, op = plus{}, stream =
//   0); cudaError_t segmented_exclusive_scan(in, out, n, offsets, num_segments, init, op, stream);
//   cudaError_t scaled_segmented_inclusive_scan(in, scale, out, n, offsets, num_segments, op,
//   stream);
//   ... and each with a leading segmented_scan_options (algorithm, reusable workspace).
//
// Segments: offsets[0] = 0, offsets[num_segments] = n, non-decreasing (num_segments + 1 entries,
// Offset = 32- or 64-bit integer); equal neighbours are empty segments. T is arithmetic; `op` is
// associative (not necessarily commutative), callable on the device, applied as op(prefix, x).
// In place is allowed (out == in). Sizes are 64-bit. Device pointers; asynchronous on `stream`;
// no device-wide synchronisation. scaled_: the element at i is in[i] * scale[i] (one step of the
// sparse-matrix iteration, b = scan(a * xbar): reads 8 and writes 4 bytes per f32 element).
//
// `automatic` is one pass over the data: each element is read and written once and the offsets
// are read once (no per-element key array, the difference from cub::DeviceScan::InclusiveScanByKey);
// a short pass before it finds each tile's first segment head (one warp search per tile). It needs
// a small state (20 bytes per tile of 7424 f32 elements): from the workspace in the options when
// given (reused without clearing), else allocated stream-ordered for the call. Returns
// cudaErrorInvalidValue for null pointers with a non-zero size, else the launch's error.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/kernels/segmented_scan.cuh"
#include "corank/cuda/tuning/segmented_scan.cuh"
#include "corank/functional.hpp"

namespace corank::cuda {

enum class segmented_scan_algorithm {
  automatic,           ///< single pass, decoupled look-back stopping at segment heads
  thread_per_segment,  ///< study: each thread scans whole segments (naive)
  warp_per_segment,    ///< study: each warp scans whole segments (intra-warp scan)
};

/// Look-back state kept between calls (for iterations): allocated on first use, grown as needed,
/// never cleared again (status words carry the call's epoch). Not for concurrent calls.
class segmented_scan_workspace {
 public:
  segmented_scan_workspace() = default;
  segmented_scan_workspace(const segmented_scan_workspace&) = delete;
  segmented_scan_workspace& operator=(const segmented_scan_workspace&) = delete;
  ~segmented_scan_workspace() { cudaFree(memory_); }

  /// Room for `tiles` tiles of `value_bytes` values; returns the next epoch (never 0).
  cudaError_t prepare(std::size_t tiles, std::size_t value_bytes, cudaStream_t stream,
                      void*& memory, unsigned& epoch) {
    const std::size_t bytes = state_bytes(tiles, value_bytes);
    if (bytes > bytes_) {
      cudaFree(memory_);
      memory_ = nullptr;
      bytes_ = 0;
      CORANK_CUDA_TRY(cudaMalloc(&memory_, bytes));
      CORANK_CUDA_TRY(cudaMemsetAsync(memory_, 0, bytes, stream));
      bytes_ = bytes;
      epoch_ = 0;
    }
    if (++epoch_ >= (1u << 30)) {  // epochs live in 30 bits: clear and start over
      CORANK_CUDA_TRY(cudaMemsetAsync(memory_, 0, bytes_, stream));
      epoch_ = 1;
    }
    memory = memory_;
    epoch = epoch_;
    return cudaSuccess;
  }
  /// Per tile: a status word, then (8-byte aligned) its first head's index, its aggregate and its
  /// carry.
  static std::size_t status_bytes(std::size_t tiles) { return (tiles * 4 + 15) / 16 * 16; }
  static std::size_t state_bytes(std::size_t tiles, std::size_t value_bytes) {
    return status_bytes(tiles) + tiles * (sizeof(std::int64_t) + 2 * value_bytes);
  }

 private:
  void* memory_ = nullptr;
  std::size_t bytes_ = 0;
  unsigned epoch_ = 0;
};

struct segmented_scan_options {
  segmented_scan_algorithm algorithm = segmented_scan_algorithm::automatic;
  segmented_scan_workspace* workspace = nullptr;
};

namespace detail {

inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <class T, class Offset>
constexpr void check_scan_types() {
  static_assert(std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                "corank::cuda segmented scans take 4- or 8-byte arithmetic values");
  static_assert(std::is_integral_v<Offset>, "offsets are integers");
}

inline int studied_grid(std::size_t work_items) {
  int sms = 0;
  if (multiprocessor_count(&sms) != cudaSuccess) sms = 132;
  const std::size_t want = (work_items + tuning::segmented_scan_studied::threads - 1) /
                           tuning::segmented_scan_studied::threads;
  const std::size_t cap = std::size_t(sms) * tuning::segmented_scan_studied::blocks_per_sm;
  return int(std::max<std::size_t>(1, std::min(want, cap)));
}

/// Whether the tiles' first heads come from a pass of their own: when there are more tiles than
/// fit the device at once (by a margin, tuning::segmented_scan_head_pass), since a tile's own
/// search then sits on the critical path of every later wave; in a single wave it costs less than
/// the extra launch.
template <class Shape>
bool use_tile_head_pass(std::size_t tiles) {
  int sms = 0;
  if (multiprocessor_count(&sms) != cudaSuccess) return true;
  const double waves = double(tiles) / (double(sms) * Shape::min_blocks);
  return waves > tuning::segmented_scan_head_pass::from_waves;
}

/// The single-pass scan with tile shape `Shape`: a pass that finds each tile's first segment head
/// (kernels::segmented_scan_tile_heads), then the tiles, launched while that pass runs so that
/// they stage their data meanwhile (programmatic dependent launch); or, for a single wave of
/// tiles, the tiles alone, each searching its first head.
template <class Shape, bool Exclusive, class Source, class T, class Offset, class Op>
cudaError_t launch_tiles(segmented_scan_workspace* workspace, Source src, bool src_aligned, T* out,
                         std::size_t n, const Offset* offsets, std::size_t num_segments, Op op,
                         T init, cudaStream_t stream) {
  const auto kernel = kernels::segmented_scan_tiles<Shape, Exclusive, Source, T, Offset, Op>;
  // Once per kernel: the largest shared-memory carveout, so `min_blocks` tiles fit per SM.
  static const cudaError_t configured = cudaFuncSetAttribute(
      kernel, cudaFuncAttributePreferredSharedMemoryCarveout, int(cudaSharedmemCarveoutMaxShared));
  CORANK_CUDA_TRY(configured);
  const std::size_t tiles = (n + Shape::tile - 1) / Shape::tile;
  if (tiles > 0x7fffffffu) return cudaErrorInvalidValue;
  void* memory = nullptr;
  unsigned epoch = 0;
  if (workspace) {
    CORANK_CUDA_TRY(workspace->prepare(tiles, sizeof(T), stream, memory, epoch));
  } else {  // stream-ordered: no device-wide synchronisation
    CORANK_CUDA_TRY(cudaMallocAsync(
        &memory, segmented_scan_workspace::state_bytes(tiles, sizeof(T)), stream));
    CORANK_CUDA_TRY(
        cudaMemsetAsync(memory, 0, segmented_scan_workspace::status_bytes(tiles), stream));
    epoch = 1;
  }
  auto* heads = reinterpret_cast<std::int64_t*>(static_cast<char*>(memory) +
                                                segmented_scan_workspace::status_bytes(tiles));
  T* values = reinterpret_cast<T*>(heads + tiles);
  const block::tile_state<T> state{static_cast<unsigned*>(memory), values, values + tiles, epoch};
  const auto p = static_cast<std::int64_t>(num_segments), count = static_cast<std::int64_t>(n);

  const bool aligned = src_aligned && aligned16(out);
  if (!use_tile_head_pass<Shape>(tiles)) {
    kernel<<<unsigned(tiles), Shape::threads, 0, stream>>>(src, out, count, offsets, p, op, init,
                                                           state, nullptr, aligned);
    const cudaError_t launched = cudaGetLastError();
    if (!workspace) CORANK_CUDA_TRY(cudaFreeAsync(memory, stream));
    return launched;
  }
  constexpr unsigned warps_per_block = 8;
  kernels::segmented_scan_tile_heads<<<unsigned((tiles + warps_per_block - 1) / warps_per_block),
                                       32 * warps_per_block, 0, stream>>>(
      offsets, p, Shape::tile, std::int64_t(tiles), heads);
  cudaError_t launched = cudaGetLastError();
  if (launched == cudaSuccess) {
    launched = launch_early(kernel, dim3(unsigned(tiles)), dim3(Shape::threads), 0, stream, src,
                            out, count, offsets, p, op, init, state,
                            static_cast<const std::int64_t*>(heads), aligned);
  }
  if (!workspace) CORANK_CUDA_TRY(cudaFreeAsync(memory, stream));
  return launched;
}

template <bool Exclusive, class Source, class T, class Offset, class Op>
cudaError_t segmented_scan(const segmented_scan_options& opt, Source src, bool src_aligned, T* out,
                           std::size_t n, const Offset* offsets, std::size_t num_segments, Op op,
                           T init, cudaStream_t stream) {
  check_scan_types<T, Offset>();
  if (n == 0) return cudaSuccess;
  if (!out || !offsets || num_segments == 0) return cudaErrorInvalidValue;
  const auto p = static_cast<std::int64_t>(num_segments);
  using studied = tuning::segmented_scan_studied;
  switch (opt.algorithm) {
    case segmented_scan_algorithm::thread_per_segment:
      kernels::segmented_scan_thread_per_segment<Exclusive>
          <<<studied_grid(num_segments), studied::threads, 0, stream>>>(src, out, offsets, p, op,
                                                                        init);
      return cudaGetLastError();
    case segmented_scan_algorithm::warp_per_segment:
      kernels::segmented_scan_warp_per_segment<Exclusive>
          <<<studied_grid(num_segments * 32), studied::threads, 0, stream>>>(src, out, offsets, p,
                                                                             op, init);
      return cudaGetLastError();
    case segmented_scan_algorithm::automatic:
      break;
  }
  using policy = tuning::segmented_scan_policy<sizeof(T), kernels::is_scaled<Source> ? 2 : 1>;
  return launch_tiles<typename policy::shape, Exclusive>(
      opt.workspace, src, src_aligned, out, n, offsets, num_segments, op, init, stream);
}

}  // namespace detail

template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_inclusive_scan(const segmented_scan_options& opt, const T* in, T* out,
                                     std::size_t n, const Offset* offsets, std::size_t num_segments,
                                     Op op = {}, cudaStream_t stream = 0) {
  if (n && !in) return cudaErrorInvalidValue;
  return detail::segmented_scan<false>(opt, kernels::plain_source<T>{in}, detail::aligned16(in),
                                       out, n, offsets, num_segments, op, T{}, stream);
}

template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_inclusive_scan(const T* in, T* out, std::size_t n, const Offset* offsets,
                                     std::size_t num_segments, Op op = {},
                                     cudaStream_t stream = 0) {
  return segmented_inclusive_scan({}, in, out, n, offsets, num_segments, op, stream);
}

template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_exclusive_scan(const segmented_scan_options& opt, const T* in, T* out,
                                     std::size_t n, const Offset* offsets, std::size_t num_segments,
                                     T init, Op op = {}, cudaStream_t stream = 0) {
  if (n && !in) return cudaErrorInvalidValue;
  return detail::segmented_scan<true>(opt, kernels::plain_source<T>{in}, detail::aligned16(in), out,
                                      n, offsets, num_segments, op, init, stream);
}

template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_exclusive_scan(const T* in, T* out, std::size_t n, const Offset* offsets,
                                     std::size_t num_segments, T init, Op op = {},
                                     cudaStream_t stream = 0) {
  return segmented_exclusive_scan({}, in, out, n, offsets, num_segments, init, op, stream);
}

/// out = segmented inclusive scan of in[i] * scale[i]; in place allowed (out == in).
template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_inclusive_scan(const segmented_scan_options& opt, const T* in,
                                            const T* scale, T* out, std::size_t n,
                                            const Offset* offsets, std::size_t num_segments,
                                            Op op = {}, cudaStream_t stream = 0) {
  if (n && (!in || !scale)) return cudaErrorInvalidValue;
  return detail::segmented_scan<false>(opt, kernels::scaled_source<T>{in, scale},
                                       detail::aligned16(in) && detail::aligned16(scale), out, n,
                                       offsets, num_segments, op, T{}, stream);
}

template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_inclusive_scan(const T* in, const T* scale, T* out, std::size_t n,
                                            const Offset* offsets, std::size_t num_segments,
                                            Op op = {}, cudaStream_t stream = 0) {
  return scaled_segmented_inclusive_scan({}, in, scale, out, n, offsets, num_segments, op, stream);
}

}  // namespace corank::cuda

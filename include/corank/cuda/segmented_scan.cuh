// corank::cuda segmented scans over CSR offsets, in the argument order of the CPU's
// (segmented_scan_contract.hpp).
//
//   cudaError_t segmented_inclusive_scan(in, n, offsets, num_segments, out, op = plus{},
//                                        stream = 0);
//   cudaError_t segmented_exclusive_scan(in, n, offsets, num_segments, out, init, op, stream);
//   cudaError_t scaled_segmented_inclusive_scan(in, scale, n, offsets, num_segments, out, op,
//                                               stream);
//   cudaError_t scaled_segmented_scan_iterations(a, scale, n, offsets, num_segments, iterations,
//                                                op, stream): the scaled scan in place,
//                                                `iterations` times, several on each staged tile.
//   Each also (memory.cuh) with a leading memory resource, with the caller's buffer (temp,
//   temp_bytes before op; segmented_scan_temp_bytes<T>(n),
//   scaled_segmented_scan_iterations_temp_bytes<T>(n, iterations, opt)), and with a leading
//   segmented_scan_options (steps per pass, where the temporary storage comes from).
//
// Segments: offsets[0] = 0, offsets[num_segments] = n, non-decreasing (num_segments + 1 entries,
// Offset = 32- or 64-bit integer); equal neighbours are empty segments. T is arithmetic; `op` is
// associative (not necessarily commutative), callable on the device, applied as op(prefix, x).
// In place is allowed (out == in). Sizes are 64-bit. Device pointers; asynchronous on `stream`;
// no device-wide synchronisation. scaled_: the element at i is in[i] * scale[i] (one step of the
// sparse-matrix iteration, b = scan(a * xbar): reads 8 and writes 4 bytes per f32 element).
//
// One pass over the data: each element is read and written once and the offsets are read once
// (no per-element key array, the difference from cub::DeviceScan::InclusiveScanByKey); a short
// pass before it finds each tile's first segment head (one warp search per tile). It needs a small
// state (about 28 bytes per tile of 7424 f32 elements for a scan, 20 more per step of two passes
// for the iterations), taken for the call from the library's cache, a resource or the caller's
// buffer (memory.cuh), its status words cleared in the stream. Returns cudaErrorInvalidValue for
// the arguments the CPU's scans refuse (detail::segmented_scan_argument_error: null pointers with
// n > 0, no segments for n > 0, negative iterations, steps_per_pass out of range) and for a
// caller's buffer below the query, else the launch's error. The study's kernels (a thread or a
// warp per segment) are corank::study::cuda's (corank/study/segmented_scan.cuh).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "corank/cuda/detail/segmented_scan.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/cuda/segmented_scan_options.cuh"
#include "corank/functional.hpp"
#include "corank/segmented_scan_contract.hpp"

namespace corank::cuda {

namespace detail {

template <class T, class Offset>
constexpr void check_scan_types() {
  static_assert(std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                "corank::cuda segmented scans take 4- or 8-byte arithmetic values");
  static_assert(std::is_integral_v<Offset>, "offsets are integers");
}

/// The contract's checks (segmented_scan_contract.hpp), as a status.
template <class T, class Offset>
cudaError_t check_scan(const void* in, const void* scale, bool scaled, std::size_t n,
                       const Offset* offsets, std::size_t num_segments, const T* out,
                       long long iterations, int steps_per_pass) {
  check_scan_types<T, Offset>();
  return corank::detail::segmented_scan_argument_error(n, !in || (scaled && !scale), !out, !offsets,
                                                       num_segments, iterations, steps_per_pass)
             ? cudaErrorInvalidValue
             : cudaSuccess;
}

/// The options with their temporary storage from `storage`.
inline segmented_scan_options with_storage(temporary_storage storage) {
  segmented_scan_options opt;
  opt.temporary = storage;
  return opt;
}

}  // namespace detail

/// Bytes of temporary storage the caller's-buffer overloads of segmented_inclusive_scan,
/// segmented_exclusive_scan and scaled_segmented_inclusive_scan need for n elements of T (one
/// buffer of this size serves any of them; the largest size_t if it overflows).
template <class T>
std::size_t segmented_scan_temp_bytes(std::size_t n) {
  return std::max({detail::automatic_state_bytes<false, false, T>(n, 1, 0),
                   detail::automatic_state_bytes<true, false, T>(n, 1, 0),
                   detail::automatic_state_bytes<false, true, T>(n, 1, 0)});
}

/// Bytes of temporary storage scaled_segmented_scan_iterations needs for n elements of T,
/// `iterations` steps and the options' steps_per_pass.
template <class T>
std::size_t scaled_segmented_scan_iterations_temp_bytes(std::size_t n, long long iterations,
                                                        const segmented_scan_options& opt = {}) {
  return detail::automatic_state_bytes<false, true, T>(n, iterations, opt.steps_per_pass);
}

/// out = segmented inclusive scan of in by op; in place allowed (out == in). Temporary storage
/// from opt.temporary.
template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_inclusive_scan(const segmented_scan_options& opt, const T* in, std::size_t n,
                                     const Offset* offsets, std::size_t num_segments, T* out,
                                     Op op = {}, cudaStream_t stream = 0) {
  CORANK_CUDA_TRY(
      detail::check_scan(in, nullptr, false, n, offsets, num_segments, out, 1, opt.steps_per_pass));
  return detail::segmented_scan<false>(opt, kernels::plain_source<T>{in}, detail::aligned16(in),
                                       out, n, offsets, num_segments, op, T{}, stream);
}

/// As above with temporary storage from the library's cache.
template <class T, class Offset, class Op = corank::plus, detail::not_a_buffer<Op> = 0>
cudaError_t segmented_inclusive_scan(const T* in, std::size_t n, const Offset* offsets,
                                     std::size_t num_segments, T* out, Op op = {},
                                     cudaStream_t stream = 0) {
  return segmented_inclusive_scan({}, in, n, offsets, num_segments, out, op, stream);
}

/// As above with temporary storage from `resource`.
template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_inclusive_scan(memory_resource_ref resource, const T* in, std::size_t n,
                                     const Offset* offsets, std::size_t num_segments, T* out,
                                     Op op = {}, cudaStream_t stream = 0) {
  return segmented_inclusive_scan(detail::with_storage(resource), in, n, offsets, num_segments, out,
                                  op, stream);
}

/// As above with the caller's temporary storage (>= segmented_scan_temp_bytes<T>(n)).
template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_inclusive_scan(const T* in, std::size_t n, const Offset* offsets,
                                     std::size_t num_segments, T* out, void* temp,
                                     std::size_t temp_bytes, Op op = {}, cudaStream_t stream = 0) {
  return segmented_inclusive_scan(detail::with_storage({temp, temp_bytes}), in, n, offsets,
                                  num_segments, out, op, stream);
}

/// out[j] = init, then op applied through in[j - 1], within each segment; in place allowed.
/// Temporary storage from opt.temporary.
template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_exclusive_scan(const segmented_scan_options& opt, const T* in, std::size_t n,
                                     const Offset* offsets, std::size_t num_segments, T* out,
                                     T init, Op op = {}, cudaStream_t stream = 0) {
  CORANK_CUDA_TRY(
      detail::check_scan(in, nullptr, false, n, offsets, num_segments, out, 1, opt.steps_per_pass));
  return detail::segmented_scan<true>(opt, kernels::plain_source<T>{in}, detail::aligned16(in), out,
                                      n, offsets, num_segments, op, init, stream);
}

/// As above with temporary storage from the library's cache.
template <class T, class Offset, class Op = corank::plus, detail::not_a_buffer<Op> = 0>
cudaError_t segmented_exclusive_scan(const T* in, std::size_t n, const Offset* offsets,
                                     std::size_t num_segments, T* out, T init, Op op = {},
                                     cudaStream_t stream = 0) {
  return segmented_exclusive_scan({}, in, n, offsets, num_segments, out, init, op, stream);
}

/// As above with temporary storage from `resource`.
template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_exclusive_scan(memory_resource_ref resource, const T* in, std::size_t n,
                                     const Offset* offsets, std::size_t num_segments, T* out,
                                     T init, Op op = {}, cudaStream_t stream = 0) {
  return segmented_exclusive_scan(detail::with_storage(resource), in, n, offsets, num_segments, out,
                                  init, op, stream);
}

/// As above with the caller's temporary storage (>= segmented_scan_temp_bytes<T>(n)).
template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_exclusive_scan(const T* in, std::size_t n, const Offset* offsets,
                                     std::size_t num_segments, T* out, T init, void* temp,
                                     std::size_t temp_bytes, Op op = {}, cudaStream_t stream = 0) {
  return segmented_exclusive_scan(detail::with_storage({temp, temp_bytes}), in, n, offsets,
                                  num_segments, out, init, op, stream);
}

/// out = segmented inclusive scan of in[i] * scale[i]; in place allowed (out == in). Temporary
/// storage from opt.temporary.
template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_inclusive_scan(const segmented_scan_options& opt, const T* in,
                                            const T* scale, std::size_t n, const Offset* offsets,
                                            std::size_t num_segments, T* out, Op op = {},
                                            cudaStream_t stream = 0) {
  CORANK_CUDA_TRY(
      detail::check_scan(in, scale, true, n, offsets, num_segments, out, 1, opt.steps_per_pass));
  return detail::segmented_scan<false>(opt, kernels::scaled_source<T>{in, scale},
                                       detail::aligned16(in) && detail::aligned16(scale), out, n,
                                       offsets, num_segments, op, T{}, stream);
}

/// As above with temporary storage from the library's cache.
template <class T, class Offset, class Op = corank::plus, detail::not_a_buffer<Op> = 0>
cudaError_t scaled_segmented_inclusive_scan(const T* in, const T* scale, std::size_t n,
                                            const Offset* offsets, std::size_t num_segments, T* out,
                                            Op op = {}, cudaStream_t stream = 0) {
  return scaled_segmented_inclusive_scan({}, in, scale, n, offsets, num_segments, out, op, stream);
}

/// As above with temporary storage from `resource`.
template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_inclusive_scan(memory_resource_ref resource, const T* in,
                                            const T* scale, std::size_t n, const Offset* offsets,
                                            std::size_t num_segments, T* out, Op op = {},
                                            cudaStream_t stream = 0) {
  return scaled_segmented_inclusive_scan(detail::with_storage(resource), in, scale, n, offsets,
                                         num_segments, out, op, stream);
}

/// As above with the caller's temporary storage (>= segmented_scan_temp_bytes<T>(n)).
template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_inclusive_scan(const T* in, const T* scale, std::size_t n,
                                            const Offset* offsets, std::size_t num_segments, T* out,
                                            void* temp, std::size_t temp_bytes, Op op = {},
                                            cudaStream_t stream = 0) {
  return scaled_segmented_inclusive_scan(detail::with_storage({temp, temp_bytes}), in, scale, n,
                                         offsets, num_segments, out, op, stream);
}

/// `iterations` steps of the sparse-matrix iteration in place: a = segmented inclusive scan of
/// a[i] * scale[i], then again on the result. The same result as as many calls of
/// scaled_segmented_inclusive_scan(opt, a, scale, n, ..., a) (bit for bit for integers;
/// floating-point sums may round differently, grouped by other tiles, and by look-backs that add
/// whatever partial results they find), but the tiles' first heads are found once and the steps
/// run in passes of opt.steps_per_pass (each staged tile scanned that many times, so the data
/// moves once for them all). Passes of about one wave of tiles run in one grid, where a pass's
/// tile waits only for the same tile of the pass before (it stages the scale and reads the
/// offsets meanwhile), never for a whole pass. Temporary storage from opt.temporary.
template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_scan_iterations(const segmented_scan_options& opt, T* a,
                                             const T* scale, std::size_t n, const Offset* offsets,
                                             std::size_t num_segments, long long iterations,
                                             Op op = {}, cudaStream_t stream = 0) {
  CORANK_CUDA_TRY(detail::check_scan(a, scale, true, n, offsets, num_segments, a, iterations,
                                     opt.steps_per_pass));
  return detail::segmented_scan<false>(opt, kernels::scaled_source<T>{a, scale},
                                       detail::aligned16(a) && detail::aligned16(scale), a, n,
                                       offsets, num_segments, op, T{}, stream, iterations);
}

/// As above with the tuned steps per pass and temporary storage from the library's cache.
template <class T, class Offset, class Op = corank::plus, detail::not_a_buffer<Op> = 0>
cudaError_t scaled_segmented_scan_iterations(T* a, const T* scale, std::size_t n,
                                             const Offset* offsets, std::size_t num_segments,
                                             long long iterations, Op op = {},
                                             cudaStream_t stream = 0) {
  return scaled_segmented_scan_iterations({}, a, scale, n, offsets, num_segments, iterations, op,
                                          stream);
}

/// As above with temporary storage from `resource`.
template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_scan_iterations(memory_resource_ref resource, T* a, const T* scale,
                                             std::size_t n, const Offset* offsets,
                                             std::size_t num_segments, long long iterations,
                                             Op op = {}, cudaStream_t stream = 0) {
  return scaled_segmented_scan_iterations(detail::with_storage(resource), a, scale, n, offsets,
                                          num_segments, iterations, op, stream);
}

/// As above with the caller's temporary storage (>= scaled_segmented_scan_iterations_temp_bytes<T>(
/// n, iterations)).
template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_scan_iterations(T* a, const T* scale, std::size_t n,
                                             const Offset* offsets, std::size_t num_segments,
                                             long long iterations, void* temp,
                                             std::size_t temp_bytes, Op op = {},
                                             cudaStream_t stream = 0) {
  return scaled_segmented_scan_iterations(detail::with_storage({temp, temp_bytes}), a, scale, n,
                                          offsets, num_segments, iterations, op, stream);
}

}  // namespace corank::cuda

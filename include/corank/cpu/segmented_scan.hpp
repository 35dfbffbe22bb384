// Segmented scans on multicore CPUs (OpenMP), in the argument order of the GPU's
// (segmented_scan_contract.hpp).
//
//   segmented_inclusive_scan(in, n, offsets, num_segments, out, op = corank::plus{}, options)
//   segmented_exclusive_scan(in, n, offsets, num_segments, out, init, op = corank::plus{},
//                            options)
//   scaled_segmented_scan_iterations(a, scale, n, offsets, num_segments, iterations, op, options):
//     the sparse-matrix iteration, a = inclusive scan of a[i] * scale[i], `iterations` times
//
// Bad arguments throw std::invalid_argument, where the GPU's scans return cudaErrorInvalidValue
// (the same checks: detail::segmented_scan_argument_error): a null pointer (in, out, offsets,
// scale, when pointers) with n > 0, no segments for n > 0, negative iterations, steps_per_pass
// out of [0, corank::segmented_scan_most_steps_per_pass].
//
// Segments are given as CSR offsets: offsets[0] = 0, offsets[num_segments] = n, non-decreasing
// (num_segments + 1 entries; equal neighbours are empty segments). Segment i is [offsets[i],
// offsets[i+1]). `op` is associative (not necessarily commutative); it is applied as
// op(prefix, element). In place is allowed (out == in). Work O(n + threads * log(num_segments)).
// Preconditions: the offsets as above (violated, the behaviour is undefined: the head searches
// read past them); op associative (violated, the result depends on the thread count). An
// exception thrown by op propagates, from the parallel path too, once every thread has stopped;
// out is then unspecified.
//
// The work is split by elements, not by segments, so one huge segment and millions of tiny ones
// are balanced alike. A thread finds the segment heads inside its slice by upper_bound on the
// offsets: this is the co-rank between the element positions and the segment heads. Two passes:
//  1. each thread reduces the open tail of its slice (from its last head, or its start, to its
//  end);
//  2. the carries chain across a thread boundary only while that boundary is not a segment head;
//     each thread then scans its slice seeded with its incoming carry.
// Pass 1 reads only the tails, so short segments cost about one read and one write per element;
// one segment spanning everything costs two reads and one write (a scan-then-fix-up would cost
// two reads and two writes).
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "corank/cpu/options.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"
#include "corank/segmented_scan_contract.hpp"

namespace corank::cpu {

/// Options of the segmented scans: the shared ones, and the iteration's steps per pass.
struct segmented_scan_options : options {
  segmented_scan_options() = default;
  segmented_scan_options(const options& shared) : options(shared) {}  // NOLINT: widening
  /// scaled_segmented_scan_iterations: steps run on each cache-sized block before the next
  /// (0: tuning::iteration_steps_per_pass; 1: every step is a parallel scan over all elements;
  /// at most corank::segmented_scan_most_steps_per_pass).
  int steps_per_pass = 0;
};
namespace detail {

/// The segment heads after position `pos`: the first offset greater than `pos`.
template <class Offset>
const Offset* next_head_after(const Offset* offsets, std::size_t num_segments, std::size_t pos) {
  return std::upper_bound(offsets, offsets + num_segments + 1, pos,
                          [](std::size_t p, Offset o) { return p < static_cast<std::size_t>(o); });
}

/// Scans out[k0, k1) sequentially. At a segment head the running value restarts from `seed`
/// (exclusive) or from the element itself (inclusive); before the first head it continues
/// `carry` when `has_carry`.
template <bool Exclusive, class T, class InIt, class OutIt, class Offset, class Op>
void scan_slice(InIt in, OutIt out, std::size_t k0, std::size_t k1, const Offset* offsets,
                std::size_t num_segments, T carry, bool has_carry, const T& seed, Op& op) {
  const Offset* head = next_head_after(offsets, num_segments, k0);
  // offsets[0] = 0 <= k0, so head - 1 is a valid offset: k0 is a head iff it equals it.
  bool at_head = static_cast<std::size_t>(*(head - 1)) == k0 || !has_carry;
  T acc = carry;
  for (std::size_t j = k0; j < k1; ++j) {
    if (j == static_cast<std::size_t>(*head)) {
      at_head = true;
      while (static_cast<std::size_t>(*head) == j)
        ++head;  // skip empty segments; offsets[p] = n > j
    }
    const T v = in[j];  // read before the write: in place is allowed
    if constexpr (Exclusive) {
      if (at_head) acc = seed;
      out[j] = acc;
      acc = op(acc, v);
    } else {
      acc = at_head ? v : op(acc, v);
      out[j] = acc;
    }
    at_head = false;
  }
}

/// Where a thread's slice stands for the carry chain: its tail reduction, and whether the slice
/// holds a segment head (a head stops the chain).
template <class T>
struct slice_carry {
  T tail{};
  bool has_head = false;
  bool empty = true;
};

template <class T>
struct scaled_input;
/// The sparse-matrix iteration's steps (scaled_input) flush subnormals (flush_subnormals), plain
/// scans do not.
template <class InIt>
inline constexpr bool flushes_subnormals = false;
template <class T>
inline constexpr bool flushes_subnormals<scaled_input<T>> = true;

template <bool Exclusive, class T, class InIt, class OutIt, class Offset, class Op>
void segmented_scan(InIt in, std::size_t n, const Offset* offsets, std::size_t num_segments,
                    OutIt out, const T& seed, Op op, const options& opt) {
  if (n == 0) return;
  int threads = threads_for(n, opt);
  if (static_cast<std::size_t>(threads) > n) threads = static_cast<int>(n);
  if (threads <= 1) {
    [[maybe_unused]] const flush_subnormals_if<flushes_subnormals<InIt>> in_this_thread;
    scan_slice<Exclusive>(in, out, 0, n, offsets, num_segments, seed, false, seed, op);
    return;
  }
  std::vector<slice_carry<T>> carries(static_cast<std::size_t>(threads));
  region_errors errors;
#pragma omp parallel num_threads(threads)
  {
    [[maybe_unused]] const flush_subnormals_if<flushes_subnormals<InIt>> in_this_thread;
    const std::size_t t = static_cast<std::size_t>(thread_id()),
                      parts = static_cast<std::size_t>(thread_count());
    const std::size_t k0 = even_split<std::size_t>(n, parts, t),
                      k1 = even_split<std::size_t>(n, parts, t + 1);
    if (k0 < k1)
      errors.run([&] {
        // Pass 1: reduce the open tail, [last head in the slice, or k0, k1).
        const Offset* after_end = next_head_after(offsets, num_segments, k1 - 1);
        const std::size_t last_head = static_cast<std::size_t>(*(after_end - 1));
        slice_carry<T>& c = carries[t];
        c.empty = false;
        c.has_head = last_head >= k0;
        const std::size_t tail_begin = c.has_head ? last_head : k0;
        T acc = in[tail_begin];
        if constexpr (Exclusive) acc = c.has_head ? op(seed, acc) : acc;
        for (std::size_t j = tail_begin + 1; j < k1; ++j) acc = op(acc, static_cast<T>(in[j]));
        c.tail = acc;
      });
#pragma omp barrier
    if (k0 < k1)
      errors.run([&] {
        // Pass 2: the carry into this slice, chained back to the nearest slice holding a head.
        std::size_t s = t;
        while (s > 0 && (carries[s - 1].empty || !carries[s - 1].has_head)) --s;
        T carry = seed;
        bool has_carry = Exclusive;
        if (s > 0) {
          carry = carries[s - 1].tail;
          has_carry = true;
        }
        for (std::size_t u = s; u < t; ++u)
          if (!carries[u].empty) {
            carry = has_carry ? op(carry, carries[u].tail) : carries[u].tail;
            has_carry = true;
          }
        scan_slice<Exclusive>(in, out, k0, k1, offsets, num_segments, carry, has_carry, seed, op);
      });
  }
  errors.rethrow();
}

/// Elements a[i] * scale[i]: one step of the iteration, as the input of a segmented scan.
template <class T>
struct scaled_input {
  const T* a;
  const T* scale;
  T operator[](std::size_t i) const { return a[i] * scale[i]; }
};

/// K steps of the iteration in one sweep over a[j0, j1): each element goes through every step
/// before the next element does (running[s]: step s's running value), so the data is read and
/// written once for all K, and the steps' dependency chains overlap in the core. `next_head`: the
/// first segment head after j0; j0 starts a segment unless `continues`.
template <int K, class T, class Offset, class Op>
void sweep_steps(T* a, const T* scale, std::size_t j0, std::size_t j1, const Offset* next_head,
                 bool continues, T* running, Op& op) {
  T acc[K];
  for (int s = 0; s < K; ++s) acc[s] = running[s];
  bool at_head = !continues;
  for (std::size_t j = j0; j < j1; ++j) {
    if (j == static_cast<std::size_t>(*next_head)) {
      at_head = true;
      while (static_cast<std::size_t>(*next_head) == j) ++next_head;  // empty segments; ends at n
    }
    const T x = scale[j];
    T v = a[j];
    for (int s = 0; s < K; ++s) {
      v = v * x;
      acc[s] = at_head ? v : op(acc[s], v);
      v = acc[s];
    }
    a[j] = v;
    at_head = false;
  }
  for (int s = 0; s < K; ++s) running[s] = acc[s];
}

/// Calls f(std::integral_constant<int, K>{}) for K = steps (1 to Most).
template <int Most, int K = 1, class F>
void with_steps(int steps, F&& f) {
  if constexpr (K < Most) {
    if (steps > K) return with_steps<Most, K + 1>(steps, f);
  }
  f(std::integral_constant<int, K>{});
}

/// Every step of the iteration on a[begin, end), a slice of whole segments, in sweeps of up to
/// `per_pass` steps (temporal blocking: the slice stays in the core's caches between sweeps).
template <class T, class Offset, class Op>
void iterate_slice(T* a, const T* scale, std::size_t begin, std::size_t end, const Offset* offsets,
                   std::size_t num_segments, long long iterations, int per_pass, Op& op) {
  const Offset* next_head = next_head_after(offsets, num_segments, begin);
  for (long long done = 0; done < iterations;) {
    const int steps = static_cast<int>(std::min<long long>(per_pass, iterations - done));
    with_steps<tuning::iteration_most_steps_per_pass>(steps, [&](auto k) {
      T running[decltype(k)::value] = {};  // unread: begin is a head
      sweep_steps<decltype(k)::value>(a, scale, begin, end, next_head, false, running, op);
    });
    done += steps;
  }
}

/// All the iterations in one parallel region: the slices of `cuts` (whole segments each) share
/// nothing, so whichever thread takes a slice takes it through every iteration, largest slices
/// first, with no barrier but the region's end. Each segment sees the sequential loop's
/// operations in its order (results equal that loop's bit for bit). Several slices a thread,
/// taken as threads come free: a thread that another process holds off its core, or two threads
/// sharing one, delay only the slices they hold (a parallel region per 16 steps waited a
/// scheduler slice at each end on a loaded machine; one region with one slice a thread ran
/// 2-2.4x slower on 16 cores in 5 of 6 runs of two matrices, as if two threads shared a core).
template <class T, class Offset, class Op>
void iterate_slices(T* a, const T* scale, const std::vector<std::size_t>& cuts, int threads,
                    const Offset* offsets, std::size_t num_segments, long long iterations,
                    int per_pass, Op& op) {
  std::vector<std::size_t> order(cuts.size() - 1);
  for (std::size_t u = 0; u < order.size(); ++u) order[u] = u;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return cuts[x + 1] - cuts[x] > cuts[y + 1] - cuts[y];
  });
  const auto slices = static_cast<std::ptrdiff_t>(order.size());
  region_errors errors;
#pragma omp parallel num_threads(threads)
  {
    // Values shrink through the subnormal range: see options.hpp.
    [[maybe_unused]] const flush_subnormals in_this_thread;
#pragma omp for schedule(dynamic, 1)
    for (std::ptrdiff_t i = 0; i < slices; ++i) {
      const std::size_t u = order[static_cast<std::size_t>(i)];
      if (cuts[u] < cuts[u + 1])
        errors.run([&] {
          iterate_slice(a, scale, cuts[u], cuts[u + 1], offsets, num_segments, iterations, per_pass,
                        op);
        });
    }
  }
  errors.rethrow();
}

/// Cuts n elements at segment heads into at most `threads` slices (cuts.size() - 1 = threads,
/// trailing ones empty), the largest as small as whole segments allow: the least capacity c
/// (by bisection) for which slices filled greedily up to c, each ending at the last head within
/// it, cover all n in `threads` slices. O(threads log(n) log(num_segments)).
template <class Offset>
std::vector<std::size_t> iteration_cuts(const Offset* offsets, std::size_t num_segments,
                                        std::size_t n, int threads) {
  const auto parts = static_cast<std::size_t>(threads);
  std::vector<std::size_t> cuts(parts + 1, n);
  // Fills cuts greedily with slices of at most `capacity` elements; whether they cover n.
  const auto fill = [&](std::size_t capacity) {
    std::size_t begin = 0;
    cuts[0] = 0;
    for (std::size_t u = 1; u <= parts; ++u) {
      if (begin < n) {
        // The last head (or n) at most capacity past begin; offsets[0] = 0 <= begin.
        const Offset* h = next_head_after(offsets, num_segments, begin + capacity) - 1;
        begin = std::max(begin, std::min(n, static_cast<std::size_t>(*h)));
      }
      cuts[u] = begin;
    }
    return begin == n;
  };
  std::size_t low = (n + parts - 1) / parts, high = n;  // fill(high) covers n
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    if (fill(mid))
      high = mid;
    else
      low = mid + 1;
  }
  fill(low);
  return cuts;
}

/// The largest slice between cuts.
inline std::size_t largest_slice(const std::vector<std::size_t>& cuts) {
  std::size_t largest = 0;
  for (std::size_t u = 0; u + 1 < cuts.size(); ++u)
    largest = std::max(largest, cuts[u + 1] - cuts[u]);
  return largest;
}

/// Whether `it` is a null pointer (never, for other iterators).
template <class It>
bool is_null(const It& it) {
  if constexpr (std::is_pointer_v<It>)
    return it == nullptr;
  else
    return false;
}

/// The contract's checks (segmented_scan_contract.hpp), as an exception.
template <class InIt, class ScaleIt, class OutIt, class Offset>
void check_scan(const InIt& in, const ScaleIt& scale, std::size_t n, const Offset* offsets,
                std::size_t num_segments, const OutIt& out, long long iterations,
                int steps_per_pass) {
  if (const char* error = corank::detail::segmented_scan_argument_error(
          n, is_null(in) || is_null(scale), is_null(out), offsets == nullptr, num_segments,
          iterations, steps_per_pass))
    throw std::invalid_argument(std::string("corank::cpu::") + error);
}

}  // namespace detail

/// out[j] = in[head] op ... op in[j] for j in the segment starting at head. Any associative op.
template <class InIt, class Offset, class OutIt, class Op = corank::plus>
void segmented_inclusive_scan(InIt in, std::size_t n, const Offset* offsets,
                              std::size_t num_segments, OutIt out, Op op = {},
                              const segmented_scan_options& opt = {}) {
  using T = typename std::iterator_traits<InIt>::value_type;
  detail::check_scan(in, nullptr, n, offsets, num_segments, out, 1, opt.steps_per_pass);
  detail::segmented_scan<false>(in, n, offsets, num_segments, out, T{}, op, opt);
}

/// out[head] = init, out[j] = init op in[head] op ... op in[j-1] within each segment.
template <class InIt, class Offset, class OutIt, class T, class Op = corank::plus>
void segmented_exclusive_scan(InIt in, std::size_t n, const Offset* offsets,
                              std::size_t num_segments, OutIt out, T init, Op op = {},
                              const segmented_scan_options& opt = {}) {
  detail::check_scan(in, nullptr, n, offsets, num_segments, out, 1, opt.steps_per_pass);
  detail::segmented_scan<true>(in, n, offsets, num_segments, out, init, op, opt);
}

/// `iterations` steps of the sparse-matrix iteration in place: a = inclusive scan of a[i] *
/// scale[i] (any associative op), then again on the result. Runs opt.steps_per_pass steps (at most
/// corank::segmented_scan_most_steps_per_pass) in each sweep over a slice of whole segments
/// (detail::iteration_cuts), each slice taken through every iteration by one thread
/// (detail::iterate_slices: tuning::iteration_slices_per_thread slices a thread, none shorter than
/// tuning::iteration_min_slice_items), unless whole segments leave a slice more than
/// tuning::iteration_largest_slice_shares of a thread's share (or steps_per_pass is 1): then each
/// step is a segmented_inclusive_scan of its own. The blocked form gives the
/// sequential loop's result bit for bit (each segment is one thread's, in order); the per-step
/// form may round differently in floating point where a segment spans a slice. The steps flush
/// subnormal results to zero (detail::flush_subnormals), in either form: a change below 1.2e-38 in
/// f32 per value, and up to 94x the speed on an Intel Xeon where values underflow.
template <class T, class Offset, class Op = corank::plus>
void scaled_segmented_scan_iterations(T* a, const T* scale, std::size_t n, const Offset* offsets,
                                      std::size_t num_segments, long long iterations, Op op = {},
                                      const segmented_scan_options& opt = {}) {
  detail::check_scan(a, scale, n, offsets, num_segments, a, iterations, opt.steps_per_pass);
  if (n == 0 || iterations == 0) return;
  const int per_pass =
      opt.steps_per_pass > 0 ? opt.steps_per_pass : tuning::iteration_steps_per_pass;
  // Slices of whole segments, iteration_slices_per_thread a thread, none shorter than
  // iteration_min_slice_items; the per-step scans where whole segments leave a slice more than
  // iteration_largest_slice_shares of a thread's share.
  const std::size_t work = n * static_cast<std::size_t>(std::min<long long>(per_pass, iterations));
  const auto most_threads = static_cast<std::size_t>(detail::threads_for(work, opt));
  const std::size_t slices =
      std::max<std::size_t>(1, std::min(most_threads * tuning::iteration_slices_per_thread,
                                        n / tuning::iteration_min_slice_items));
  const std::size_t threads = std::min(most_threads, slices);
  const std::vector<std::size_t> cuts =
      detail::iteration_cuts(offsets, num_segments, n, static_cast<int>(slices));
  if (per_pass == 1 ||
      detail::largest_slice(cuts) * threads > tuning::iteration_largest_slice_shares * n) {
    for (long long step = 0; step < iterations; ++step)
      detail::segmented_scan<false>(detail::scaled_input<T>{a, scale}, n, offsets, num_segments, a,
                                    T{}, op, opt);
    return;
  }
  detail::iterate_slices(a, scale, cuts, static_cast<int>(threads), offsets, num_segments,
                         iterations, per_pass, op);
}

}  // namespace corank::cpu

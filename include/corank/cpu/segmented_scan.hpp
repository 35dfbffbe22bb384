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
#include <atomic>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
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

/// Marks a cut at a segment head: no running values cross it.
inline constexpr std::size_t no_handoff = static_cast<std::size_t>(-1);

/// The running values that a slice ending inside a segment hands to the slice after it, one per
/// step of a batch of steps. The slice after starts each sweep from the values of that sweep's
/// steps once the slice before has published them: the values, then the count of steps done
/// (release store; the reader's acquire load sees the values written before it).
template <class T>
class slice_handoffs {
 public:
  slice_handoffs(std::size_t handoffs, long long steps)
      : steps_(static_cast<std::size_t>(steps)), values_(handoffs * steps_), done_(handoffs) {}

  /// Steps [first, first + count) of handoff h: running[0 ... count).
  void publish(std::size_t h, long long first, const T* running, int count) {
    std::copy(running, running + count, values_.begin() + index(h, first));
    done_[h].steps.store(first + count, std::memory_order_release);
  }

  /// Waits until steps [first, first + count) of handoff h are published and copies them to
  /// running; false, without them, once the region has failed (the slice before may never come).
  bool take(std::size_t h, long long first, T* running, int count,
            const region_errors& errors) const {
    for (int spins = 0; done_[h].steps.load(std::memory_order_acquire) < first + count; ++spins) {
      if (errors.failed()) return false;
      // Spin briefly, then give the core away: the slice before may be waiting for this one's
      // core (more threads than cores).
      if (spins >= spins_before_yield) std::this_thread::yield();
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
      else
        _mm_pause();
#endif
    }
    std::copy(values_.begin() + index(h, first), values_.begin() + index(h, first) + count,
              running);
    return true;
  }

  /// Before each batch of steps (between parallel regions).
  void restart() {
    for (auto& d : done_) d.steps.store(0, std::memory_order_relaxed);
  }

 private:
  static constexpr int spins_before_yield = 256;
  struct alignas(64) counter {  // one cache line each: the writer's stores stay off the others
    std::atomic<long long> steps{0};
  };
  std::size_t index(std::size_t h, long long first) const {
    return h * steps_ + static_cast<std::size_t>(first);
  }
  std::size_t steps_;
  std::vector<T> values_;
  std::vector<counter> done_;
};

/// Every step of a batch of the iteration on a[begin, end), in sweeps of up to `per_pass` steps
/// (temporal blocking: the slice stays in the core's caches between sweeps). A slice that starts
/// inside a segment (`from` names a handoff) continues, at every step, the running value that the
/// slice before it ended that step with, which is the sequential loop's running value there; one
/// that ends inside a segment (`to`) publishes its own the same way.
template <class T, class Offset, class Op>
void iterate_slice(T* a, const T* scale, std::size_t begin, std::size_t end, const Offset* offsets,
                   std::size_t num_segments, long long steps, int per_pass, Op& op,
                   std::size_t from, std::size_t to, slice_handoffs<T>& handoffs,
                   const region_errors& errors) {
  const Offset* next_head = next_head_after(offsets, num_segments, begin);
  const bool continues = from != no_handoff;
  for (long long done = 0; done < steps;) {
    const int sweep = static_cast<int>(std::min<long long>(per_pass, steps - done));
    bool failed = false;
    with_steps<tuning::iteration_most_steps_per_pass>(sweep, [&](auto k) {
      constexpr int K = decltype(k)::value;
      T running[K] = {};  // unread where begin is a head
      if (continues && !handoffs.take(from, done, running, K, errors)) {
        failed = true;
        return;
      }
      sweep_steps<K>(a, scale, begin, end, next_head, continues, running, op);
      if (to != no_handoff) handoffs.publish(to, done, running, K);
    });
    if (failed) return;
    done += sweep;
  }
}

/// Slices of the iteration: slice u is a[cuts[u], cuts[u + 1]) (trailing ones empty); handoff[u]
/// numbers the cuts inside a segment, where slice u - 1 hands its running values to slice u
/// (no_handoff at heads and at both ends).
struct iteration_slices {
  std::vector<std::size_t> cuts, handoff;
  std::size_t handoffs = 0;

  std::size_t count() const { return cuts.size() - 1; }
  std::size_t size(std::size_t u) const { return cuts[u + 1] - cuts[u]; }
  bool joined(std::size_t u) const {
    return handoff[u] != no_handoff || handoff[u + 1] != no_handoff;
  }
};

/// Whether position pos (0 <= pos <= n) lies inside a segment rather than at a head.
template <class Offset>
bool inside_segment(const Offset* offsets, std::size_t num_segments, std::size_t pos) {
  // offsets[0] = 0 <= pos, so the offset before the next head is the last one <= pos.
  return static_cast<std::size_t>(*(next_head_after(offsets, num_segments, pos) - 1)) != pos;
}

/// Cuts n elements into `slices` slices (trailing ones empty), the largest as small as the cuts
/// allow: at segment heads, and anywhere inside a segment longer than `long_segment_items` (whose
/// pieces are then pipelined, iterate_slices). The least capacity c (by bisection) for which
/// slices filled greedily up to c cover all n: a slice ends c past its start when that lies
/// inside a long segment, else at the last head within c. O(slices log(n) log(num_segments)).
template <class Offset>
iteration_slices iteration_cuts(const Offset* offsets, std::size_t num_segments, std::size_t n,
                                std::size_t slices, std::size_t long_segment_items) {
  iteration_slices s;
  s.cuts.assign(slices + 1, n);
  // Fills the cuts greedily with slices of at most `capacity` elements; whether they cover n.
  const auto fill = [&](std::size_t capacity) {
    std::size_t begin = 0;
    s.cuts[0] = 0;
    for (std::size_t u = 1; u <= slices; ++u) {
      if (begin < n) {
        const std::size_t reach = std::min(n, begin + capacity);
        // The segment holding reach: [*(after - 1), *after) (after is past the offsets at n).
        const Offset* after = next_head_after(offsets, num_segments, reach);
        const auto head = static_cast<std::size_t>(*(after - 1));
        const bool in_long =
            reach < n && long_segment_items < static_cast<std::size_t>(*after) - head;
        begin = in_long ? reach : std::max(begin, head);
      }
      s.cuts[u] = begin;
    }
    return begin == n;
  };
  // The end a slice reaches grows with its start and with c, so coverage does with c.
  std::size_t low = (n + slices - 1) / slices, high = n;  // fill(high) covers n
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    if (fill(mid))
      high = mid;
    else
      low = mid + 1;
  }
  fill(low);
  s.handoff.assign(slices + 1, no_handoff);
  for (std::size_t u = 1; u < slices; ++u)
    if (inside_segment(offsets, num_segments, s.cuts[u])) s.handoff[u] = s.handoffs++;
  return s;
}

/// The largest slice.
inline std::size_t largest_slice(const iteration_slices& s) {
  std::size_t largest = 0;
  for (std::size_t u = 0; u < s.count(); ++u) largest = std::max(largest, s.size(u));
  return largest;
}

/// Steps a parallel region takes every slice through: all the iterations, unless the handoffs
/// would hold more than tuning::iteration_handoff_bytes of running values (then as many whole
/// passes as fit, at least one).
template <class T>
long long batch_steps(const iteration_slices& s, long long iterations, int per_pass) {
  if (s.handoffs == 0) return iterations;
  const auto fit =
      static_cast<long long>(tuning::iteration_handoff_bytes / (s.handoffs * sizeof(T)));
  return std::min(iterations, std::max<long long>(1, fit / per_pass) * per_pass);
}

/// The elements swept one after another on the slowest path through the slices, per sweep of a
/// batch of `sweeps`: a slice alone, its length; P slices joined inside segments, their largest x
/// (sweeps + P - 1) / sweeps (the last starts P - 1 sweeps after the first).
inline double longest_path_items(const iteration_slices& s, long long sweeps) {
  double longest = 0;
  for (std::size_t u = 0; u < s.count();) {
    std::size_t last = u, largest = s.size(u);
    while (last + 1 < s.count() && s.handoff[last + 1] != no_handoff)
      largest = std::max(largest, s.size(++last));
    const double pieces = double(last - u + 1);
    longest = std::max(longest, double(largest) * (double(sweeps) + pieces - 1) / double(sweeps));
    u = last + 1;
  }
  return longest;
}

/// How a call of the iteration runs: its threads, its slices, the steps of each parallel region
/// (batch), the steps of a sweep, and whether each step is a parallel scan of its own instead.
struct iteration_plan {
  int threads = 1;
  iteration_slices slices;
  long long batch = 0;
  int per_pass = 1;
  bool per_step = false;
};

/// The threads an iteration of `work` (elements x a pass's steps) takes: opt's (threads_for), and
/// at most one per min_work_per_thread of it (0: no floor).
inline int iteration_threads(std::size_t work, const options& opt,
                             std::size_t min_work_per_thread) {
  const int threads = threads_for(work, opt);
  if (min_work_per_thread == 0) return threads;
  const std::size_t by_work = (work + min_work_per_thread - 1) / min_work_per_thread;
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads), by_work));
}

/// The plan of scaled_segmented_scan_iterations for n > 0 elements and iterations > 0: threads by
/// iteration_threads, iteration_slices_per_thread slices a thread, none shorter than
/// iteration_min_slice_items, segments longer than a thread's share cut (one thread: none is);
/// the per-step scans when steps_per_pass is 1 or the slowest path through the slices exceeds
/// iteration_largest_slice_shares of a thread's share.
template <class T, class Offset>
iteration_plan plan_iteration(std::size_t n, const Offset* offsets, std::size_t num_segments,
                              long long iterations, const segmented_scan_options& opt,
                              std::size_t min_work_per_thread) {
  iteration_plan plan;
  plan.per_pass = opt.steps_per_pass > 0 ? opt.steps_per_pass : tuning::iteration_steps_per_pass;
  const std::size_t work =
      n * static_cast<std::size_t>(std::min<long long>(plan.per_pass, iterations));
  const auto most_threads =
      static_cast<std::size_t>(iteration_threads(work, opt, min_work_per_thread));
  const std::size_t slices =
      std::max<std::size_t>(1, std::min(most_threads * tuning::iteration_slices_per_thread,
                                        n / tuning::iteration_min_slice_items));
  const std::size_t threads = std::min(most_threads, slices);
  plan.threads = static_cast<int>(threads);
  plan.slices = iteration_cuts(offsets, num_segments, n, slices, (n + threads - 1) / threads);
  plan.batch = batch_steps<T>(plan.slices, iterations, plan.per_pass);
  const long long sweeps = (plan.batch + plan.per_pass - 1) / plan.per_pass;
  plan.per_step =
      plan.per_pass == 1 || longest_path_items(plan.slices, sweeps) * double(threads) >
                                double(tuning::iteration_largest_slice_shares) * double(n);
  return plan;
}

/// All the iterations, plan.batch steps a parallel region (one region, unless the handoffs would
/// outgrow tuning::iteration_handoff_bytes): whichever thread takes a slice takes it through every
/// step of the region, with no barrier but the region's end. Each segment sees the sequential
/// loop's operations in its order (results equal that loop's bit for bit). Several slices a
/// thread, taken as threads come free: a thread that another process holds off its core, or two
/// threads sharing one, delay only the slices they hold (a parallel region per 16 steps waited a
/// scheduler slice at each end on a loaded machine; one region with one slice a thread ran 2-2.4x
/// slower on 16 cores in 5 of 6 runs of two matrices, as if two threads shared a core). Slices
/// are handed out from one counter, those joined inside segments first in their order, then the
/// others largest first: a slice waits only on the one before it, handed out earlier and so
/// already being swept by a thread of the region, whatever the number of threads the region gets.
template <class T, class Offset, class Op>
void iterate_slices(T* a, const T* scale, const iteration_plan& plan, const Offset* offsets,
                    std::size_t num_segments, long long iterations, Op& op) {
  const iteration_slices& s = plan.slices;
  std::vector<std::size_t> order;
  for (std::size_t u = 0; u < s.count(); ++u)
    if (s.joined(u)) order.push_back(u);
  const auto joined_end = static_cast<std::ptrdiff_t>(order.size());
  for (std::size_t u = 0; u < s.count(); ++u)
    if (!s.joined(u)) order.push_back(u);
  std::stable_sort(order.begin() + joined_end, order.end(),
                   [&](std::size_t x, std::size_t y) { return s.size(x) > s.size(y); });
  slice_handoffs<T> handoffs(s.handoffs, plan.batch);
  region_errors errors;
  for (long long done = 0; done < iterations; done += plan.batch) {
    const long long steps = std::min(plan.batch, iterations - done);
    handoffs.restart();
    std::atomic<std::size_t> next{0};
#pragma omp parallel num_threads(plan.threads)
    {
      // Values shrink through the subnormal range: see options.hpp.
      [[maybe_unused]] const flush_subnormals in_this_thread;
      for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed); i < order.size();
           i = next.fetch_add(1, std::memory_order_relaxed)) {
        const std::size_t u = order[i];
        if (s.size(u) > 0)
          errors.run([&] {
            iterate_slice(a, scale, s.cuts[u], s.cuts[u + 1], offsets, num_segments, steps,
                          plan.per_pass, op, s.handoff[u], s.handoff[u + 1], handoffs, errors);
          });
      }
    }
    errors.rethrow();
  }
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

/// scaled_segmented_scan_iterations (below) with the floor of work per thread as a parameter
/// (the tests and the floor's measurements set it).
template <class T, class Offset, class Op>
void scaled_segmented_scan_iterations(T* a, const T* scale, std::size_t n, const Offset* offsets,
                                      std::size_t num_segments, long long iterations, Op op,
                                      const segmented_scan_options& opt,
                                      std::size_t min_work_per_thread) {
  check_scan(a, scale, n, offsets, num_segments, a, iterations, opt.steps_per_pass);
  if (n == 0 || iterations == 0) return;
  const iteration_plan plan =
      plan_iteration<T>(n, offsets, num_segments, iterations, opt, min_work_per_thread);
  if (!plan.per_step) return iterate_slices(a, scale, plan, offsets, num_segments, iterations, op);
  segmented_scan_options per_step = opt;
  per_step.threads = plan.threads;
  for (long long step = 0; step < iterations; ++step)
    segmented_scan<false>(scaled_input<T>{a, scale}, n, offsets, num_segments, a, T{}, op,
                          per_step);
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
/// corank::segmented_scan_most_steps_per_pass) in each sweep over a slice (detail::iteration_cuts:
/// whole segments, but a segment longer than a thread's share is cut into pieces), each slice
/// taken through every iteration by one thread (detail::iterate_slices:
/// tuning::iteration_slices_per_thread slices a thread, none shorter than
/// tuning::iteration_min_slice_items; the pieces of a segment pipelined, each starting every step
/// from the running value the piece before it ended that step with). Threads: opt's, at most one
/// per tuning::iteration_min_work_per_thread elements x a pass's steps. When the slowest chain of
/// pieces would take more than tuning::iteration_largest_slice_shares of a thread's share (few
/// iterations for the pipeline to fill), or steps_per_pass is 1, each step is a
/// segmented_inclusive_scan of its own instead. The blocked form gives the sequential loop's
/// result bit for bit (each element sees that loop's operations in its order); the per-step form
/// may round differently in floating point where a segment spans a slice. The steps flush
/// subnormal results to zero (detail::flush_subnormals), in either form: a change below 1.2e-38 in
/// f32 per value, and up to 94x the speed on an Intel Xeon where values underflow.
template <class T, class Offset, class Op = corank::plus>
void scaled_segmented_scan_iterations(T* a, const T* scale, std::size_t n, const Offset* offsets,
                                      std::size_t num_segments, long long iterations, Op op = {},
                                      const segmented_scan_options& opt = {}) {
  detail::scaled_segmented_scan_iterations(a, scale, n, offsets, num_segments, iterations, op, opt,
                                           tuning::iteration_min_work_per_thread);
}

}  // namespace corank::cpu

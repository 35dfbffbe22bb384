// Options shared by the CPU algorithms (an algorithm with options of its own extends them), and the
// OpenMP plumbing behind them.
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>

#if defined(_OPENMP)
#include <omp.h>
#endif
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
#include <xmmintrin.h>
#endif

#include "corank/cpu/tuning.hpp"

namespace corank::cpu {

struct options {
  /// Threads to use; 0 means OpenMP's default (OMP_NUM_THREADS, else all cores).
  int threads = 0;
  /// Inputs with fewer items than this run on the calling thread alone: starting a team costs
  /// more than merging a few thousand items.
  std::size_t sequential_below = tuning::sequential_below_items;
};

namespace detail {

inline int max_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

inline int thread_id() {
#if defined(_OPENMP)
  return omp_get_thread_num();
#else
  return 0;
#endif
}

inline int thread_count() {
#if defined(_OPENMP)
  return omp_get_num_threads();
#else
  return 1;
#endif
}

/// The first exception thrown inside a parallel region, rethrown after it: one that left an
/// OpenMP region would call std::terminate. Wrap each item of work (a loop iteration, a single's
/// body), never a worksharing construct or barrier, which every thread must still reach; once
/// something has thrown, items not yet started are skipped.
class region_errors {
 public:
  template <class F>
  void run(F&& f) noexcept {
    if (failed_.load(std::memory_order_relaxed)) return;
    try {
      f();
    } catch (...) {
      if (!failed_.exchange(true)) first_ = std::current_exception();
    }
  }
  /// Whether an item has thrown (a thread waiting on another's work stops waiting).
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  /// After the region (its end orders the write of first_ before this read).
  void rethrow() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::atomic<bool> failed_{false};
  std::exception_ptr first_;
};

/// While it lives, the calling thread flushes subnormal floating-point results to zero and reads
/// subnormal inputs as zero (x86: MXCSR FTZ and DAZ; elsewhere nothing), then restores its mode.
/// Intel cores take a microcode assist of ~100 cycles per operation on a subnormal: the
/// sparse-matrix iteration, whose values shrink through the subnormal range, ran up to 94x slower
/// per iteration on such matrices (docs/notes/cpu.md, "The iteration's dips").
class flush_subnormals {
 public:
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
  flush_subnormals() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | ftz_daz); }
  ~flush_subnormals() { _mm_setcsr(saved_); }
  flush_subnormals(const flush_subnormals&) = delete;
  flush_subnormals& operator=(const flush_subnormals&) = delete;

 private:
  static constexpr unsigned ftz_daz = 0x8000u | 0x0040u;  // flush to zero | denormals are zero
  unsigned saved_;
#endif
};

/// flush_subnormals where `On`, nothing otherwise.
template <bool On>
struct flush_subnormals_if : flush_subnormals {};
template <>
struct flush_subnormals_if<false> {};

/// Threads worth starting for `items` items of work.
inline int threads_for(std::size_t items, const options& opt) {
  if (items < opt.sequential_below) return 1;
  return opt.threads > 0 ? opt.threads : max_threads();
}

/// Chunks to cut `items` of work into for `threads` threads: at least one per thread, at most
/// `per_thread` per thread, none smaller than `min_items` (unless that leaves fewer than threads).
inline std::ptrdiff_t chunk_count(std::ptrdiff_t items, int threads, int per_thread,
                                  std::ptrdiff_t min_items) {
  const std::ptrdiff_t most = std::ptrdiff_t(threads) * per_thread;
  const std::ptrdiff_t by_size = items / (min_items > 0 ? min_items : 1);
  return by_size < threads ? threads : (by_size > most ? most : by_size);
}

}  // namespace detail
}  // namespace corank::cpu

// Block-wide copies between global and shared memory in 16-byte vectors.
//
// A range starting anywhere (an unaligned input, a partition boundary in mid-vector) is copied to
// a destination that agrees with it modulo 16 bytes: then every whole 16-byte vector of the source
// lands on a whole vector of the destination, and only the partial vectors at the two ends move
// element by element. congruent_shift() says where in a 16-byte aligned staging buffer a range
// must start for that.
#pragma once

#include <cuda_pipeline.h>

#include <cstddef>
#include <cstdint>

namespace corank::cuda::block {

/// Elements of T per 16-byte vector; 1 when T does not tile 16 bytes (then copies are scalar).
template <class T>
inline constexpr int vector_items = (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? int(16 / sizeof(T))
                                                                             : 1;

/// Vector copies per thread that move a run of `items` elements per thread: one more than whole
/// vectors, for a range that starts in mid-vector (copy_range's Iters).
template <class T, int Items>
inline constexpr int copy_iters = (Items + vector_items<T> - 1) / vector_items<T> + 1;

/// Offset (in elements, < vector_items<T>) at which a copy of p[0...] must start in a 16-byte
/// aligned buffer to be congruent with p modulo 16 bytes.
template <class T>
__device__ __forceinline__ int congruent_shift(const T* p) {
  return int((reinterpret_cast<std::uintptr_t>(p) % 16) / sizeof(T)) % vector_items<T>;
}

/// One range to copy: its scalar head, whole vectors, scalar tail.
template <class T>
struct vector_range {
  const T* src;
  T* dst;
  int head, vectors, tail;

  __device__ __forceinline__ vector_range(const T* s, T* d, int count) : src(s), dst(d) {
    constexpr int V = vector_items<T>;
    const auto s_addr = reinterpret_cast<std::uintptr_t>(s);
    const bool congruent = V > 1 && (s_addr ^ reinterpret_cast<std::uintptr_t>(d)) % 16 == 0 &&
                           s_addr % sizeof(T) == 0;
    if (!congruent) {
      head = count, vectors = 0, tail = 0;  // all scalar (rare: odd struct alignments)
      return;
    }
    const int to_aligned = int(((16 - s_addr % 16) % 16) / sizeof(T));
    head = to_aligned < count ? to_aligned : count;
    vectors = (count - head) / V;
    tail = count - head - vectors * V;
  }
  __device__ __forceinline__ const uint4* src_vectors() const {
    return reinterpret_cast<const uint4*>(src + head);
  }
  __device__ __forceinline__ uint4* dst_vectors() const {
    return reinterpret_cast<uint4*>(dst + head);
  }
  /// The scalar elements (head and tail), cooperatively with a stride of `threads`.
  __device__ __forceinline__ void copy_scalars(int tid, int threads) const {
    const int scalars = head + tail;
    for (int i = tid; i < scalars; i += threads) {
      const int at = i < head ? i : i + vectors * vector_items<T>;
      dst[at] = src[at];
    }
  }
};

/// Copies two ranges with `threads` threads in two steps, so that other work can run while the
/// vector loads are in flight: load() issues them into registers, store() writes them out and
/// moves the scalar ends. Iters bounds the vectors per thread: Iters * threads >= r0.vectors +
/// r1.vectors.
template <int Iters, class T>
struct staged_copy {
  const vector_range<T>& r0;
  const vector_range<T>& r1;
  int threads;
  uint4 staged[Iters];

  __device__ __forceinline__ void load(int tid) {
    const int total = r0.vectors + r1.vectors;
#pragma unroll
    for (int j = 0; j < Iters; ++j) {
      const int v = tid + j * threads;
      if (v < total)
        staged[j] = v < r0.vectors ? r0.src_vectors()[v] : r1.src_vectors()[v - r0.vectors];
    }
  }
  __device__ __forceinline__ void store(int tid) {
    const int total = r0.vectors + r1.vectors;
#pragma unroll
    for (int j = 0; j < Iters; ++j) {
      const int v = tid + j * threads;
      if (v < total) {
        if (v < r0.vectors)
          r0.dst_vectors()[v] = staged[j];
        else
          r1.dst_vectors()[v - r0.vectors] = staged[j];
      }
    }
    r0.copy_scalars(tid, threads);
    r1.copy_scalars(tid, threads);
  }
};

/// Copies r0 and r1 with `threads` threads; all vector loads are issued before any store.
template <int Iters, class T>
__device__ __forceinline__ void copy_ranges(const vector_range<T>& r0, const vector_range<T>& r1,
                                            int tid, int threads) {
  staged_copy<Iters, T> copy{r0, r1, threads};
  copy.load(tid);
  copy.store(tid);
}

/// Starts an asynchronous global -> shared copy of r0 and r1 (cp.async, no registers held) by
/// `threads` threads: 16-byte vectors, and scalar ends of 4, 8 or 16 bytes. Other scalars (1- and
/// 2-byte items, odd alignments) are copied synchronously. The caller commits and waits
/// (__pipeline_commit, __pipeline_wait_prior) and then synchronises the block.
template <class T>
__device__ __forceinline__ void copy_ranges_async(const vector_range<T>& r0,
                                                  const vector_range<T>& r1, int tid, int threads) {
  const int total = r0.vectors + r1.vectors;
  for (int v = tid; v < total; v += threads) {
    const bool first = v < r0.vectors;
    const vector_range<T>& r = first ? r0 : r1;
    const int at = first ? v : v - r0.vectors;
    __pipeline_memcpy_async(r.dst_vectors() + at, r.src_vectors() + at, 16);
  }
  const auto scalars = [&](const vector_range<T>& r) {
    for (int i = tid; i < r.head + r.tail; i += threads) {
      const int at = i < r.head ? i : i + r.vectors * vector_items<T>;
      constexpr bool async_size = sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16;
      if (async_size && reinterpret_cast<std::uintptr_t>(r.src + at) % sizeof(T) == 0)
        __pipeline_memcpy_async(r.dst + at, r.src + at, async_size ? sizeof(T) : 4);
      else
        r.dst[at] = r.src[at];
    }
  };
  scalars(r0);
  scalars(r1);
}

/// As above with a block of NT threads known at compile time.
template <int NT, class T>
__device__ __forceinline__ void copy_ranges_async(const vector_range<T>& r0,
                                                  const vector_range<T>& r1, int tid) {
  copy_ranges_async(r0, r1, tid, NT);
}

/// As above, one range.
template <int NT, class T>
__device__ __forceinline__ void copy_range_async(const vector_range<T>& r, int tid) {
  copy_ranges_async(r, vector_range<T>(r.src, r.dst, 0), tid, NT);
}

/// Copies count elements src -> dst (congruent when possible) with `threads` threads, Iters as
/// above.
template <int Iters, class T>
__device__ __forceinline__ void copy_range(const T* src, T* dst, int count, int tid, int threads) {
  const vector_range<T> r(src, dst, count), none(src, dst, 0);
  if (r.vectors <= Iters * threads) {
    copy_ranges<Iters>(r, none, tid, threads);
  } else {  // unreachable for congruent ranges of <= Iters * threads vectors; kept for safety
    for (int i = tid; i < count; i += threads) dst[i] = src[i];
  }
}

/// Programmatic dependent launch (sm_90+): a kernel launched with programmatic stream
/// serialization may start while the previous kernel in its stream still runs, once that kernel
/// allows it; it must wait for that kernel's completion (and memory) before touching its results.
/// Both are no-ops below sm_90 and for kernels launched the ordinary way.
__device__ __forceinline__ void allow_dependent_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}
__device__ __forceinline__ void wait_for_prior_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

}  // namespace corank::cuda::block

// Block-wide exclusive sum of one count per thread (an unsigned integer type) (warp shuffles, one
// barrier pair): where each thread's outputs start in its tile.
#pragma once

namespace corank::cuda::block {

/// Shared memory of exclusive_sum for a block of Threads threads.
template <int Threads, class T>
struct sum_storage {
  T warp_totals[Threads / 32];
};

/// The sum of `value` over the threads before this one; *total gets the block's sum. Called by
/// every thread of a block of Threads threads (a multiple of 32).
template <int Threads, class T>
__device__ __forceinline__ T exclusive_sum(T value, sum_storage<Threads, T>& storage, T* total) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  T inclusive = value;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const T up = __shfl_up_sync(0xffffffffu, inclusive, d);
    if (lane >= unsigned(d)) inclusive += up;
  }
  if (lane == 31) storage.warp_totals[warp] = inclusive;
  __syncthreads();
  T before = 0, sum = 0;
#pragma unroll
  for (int w = 0; w < Threads / 32; ++w) {
    const T t = storage.warp_totals[w];
    before += unsigned(w) < warp ? t : 0;
    sum += t;
  }
  __syncthreads();  // storage may be reused
  if (total) *total = sum;
  return before + inclusive - value;
}

}  // namespace corank::cuda::block

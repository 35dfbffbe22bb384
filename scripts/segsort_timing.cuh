// Pieces the segmented sorts' timing drivers share (scripts/segsort_variants.cu,
// scripts/segsort_few.cu): a CUDA status check that exits, a device array, and the median time of
// a call by device events.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace segsort_timing {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

/// n elements of T on the device (16 bytes to spare).
template <class T>
struct dev {
  T* p = nullptr;
  std::size_t n = 0;
  explicit dev(std::size_t count) : n(count) { check(cudaMalloc(&p, n * sizeof(T) + 16), "alloc"); }
  ~dev() { cudaFree(p); }
  dev(const dev&) = delete;
  std::vector<T> host() const {
    std::vector<T> h(n);
    check(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "to host");
    return h;
  }
  std::vector<unsigned char> bytes() const {
    std::vector<unsigned char> h(n * sizeof(T));
    check(cudaMemcpy(h.data(), p, h.size(), cudaMemcpyDeviceToHost), "to host");
    return h;
  }
};

/// Copies `host` into `d` (at least as long).
template <class T>
void upload(const dev<T>& d, const std::vector<T>& host, const char* what) {
  check(cudaMemcpy(d.p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), what);
}

/// 0, 1, ..., n - 1: values that show where each key came from.
template <class T>
std::vector<T> positions(std::size_t n) {
  std::vector<T> pos(n);
  for (std::size_t i = 0; i < n; ++i) pos[i] = T(i);
  return pos;
}

/// Median ms of `call` over `reps` runs after two warm-ups, `prepare` (untimed) before each; device
/// events around the call alone.
inline double time_ms(const std::function<cudaError_t()>& call,
                      const std::function<void()>& prepare, int reps) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<double> ms;
  for (int r = -2; r < reps; ++r) {
    prepare();
    check(cudaDeviceSynchronize(), "prepare");
    cudaEventRecord(a);
    check(call(), "call");
    cudaEventRecord(b);
    check(cudaEventSynchronize(b), "run");
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    if (r >= 0) ms.push_back(t);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace segsort_timing

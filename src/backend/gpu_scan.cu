// The CLI's GPU iteration: host arrays to the device, corank::cuda::scaled_segmented_inclusive_scan
// in place per iteration (one reused workspace), and back.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "backend/device_scope.hpp"
#include "backend/gpu_scan.hpp"
#include "corank/cuda/segmented_scan.cuh"

namespace corank::backend {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("GPU spmv-scan: ") + what + ": " +
                             cudaGetErrorString(status));
}

template <class Offset>
double run(float* a, const float* xbar, const std::vector<Offset>& offsets, std::size_t n,
           int iterations) {
  device_scope s;
  const std::size_t rows = offsets.size() - 1;
  check(cudaMalloc(&s.memory[0], n * sizeof(float) + 16), "allocating device memory");
  check(cudaMalloc(&s.memory[1], n * sizeof(float) + 16), "allocating device memory");
  check(cudaMalloc(&s.memory[2], offsets.size() * sizeof(Offset)), "allocating device memory");
  auto* da = static_cast<float*>(s.memory[0]);
  auto* dx = static_cast<float*>(s.memory[1]);
  auto* doff = static_cast<Offset*>(s.memory[2]);
  check(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice), "copying a");
  check(cudaMemcpy(dx, xbar, n * sizeof(float), cudaMemcpyHostToDevice), "copying xbar");
  check(cudaMemcpy(doff, offsets.data(), offsets.size() * sizeof(Offset), cudaMemcpyHostToDevice),
        "copying the offsets");
  cuda::segmented_scan_workspace workspace;
  cuda::segmented_scan_options opt;
  opt.workspace = &workspace;
  // Untimed warm-up: one pass out of place into the xbar buffer's twin, which loads the kernel
  // and sizes the workspace; a itself is untouched.
  check(cudaMalloc(&s.memory[3], n * sizeof(float) + 16), "allocating device memory");
  check(cuda::scaled_segmented_inclusive_scan(opt, da, dx, static_cast<float*>(s.memory[3]), n,
                                              doff, rows),
        "warming up");
  check(cudaDeviceSynchronize(), "warming up");
  check(cudaEventCreate(&s.events[0]), "creating an event");
  check(cudaEventCreate(&s.events[1]), "creating an event");
  check(cudaEventRecord(s.events[0]), "recording an event");
  for (int it = 0; it < iterations; ++it)
    check(cuda::scaled_segmented_inclusive_scan(opt, da, dx, da, n, doff, rows), "launching");
  check(cudaEventRecord(s.events[1]), "recording an event");
  check(cudaEventSynchronize(s.events[1]), "running the iterations");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, s.events[0], s.events[1]), "reading the timer");
  check(cudaMemcpy(a, da, n * sizeof(float), cudaMemcpyDeviceToHost), "copying a back");
  return ms;
}

}  // namespace

double gpu_spmv_scan(float* a, const float* xbar, const std::int64_t* offsets, std::size_t n,
                     std::size_t rows, int iterations) {
  if (n == 0 || iterations <= 0) return 0.0;
  if (n < (std::size_t(1) << 31)) {  // 32-bit offsets: fewer bytes per iteration
    std::vector<std::int32_t> narrow(offsets, offsets + rows + 1);
    return run(a, xbar, narrow, n, iterations);
  }
  return run(a, xbar, std::vector<std::int64_t>(offsets, offsets + rows + 1), n, iterations);
}

}  // namespace corank::backend

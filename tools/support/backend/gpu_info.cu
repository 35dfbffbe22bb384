#include <cuda_runtime.h>

#include <cub/version.cuh>

#include "support/backend/gpu.hpp"

namespace corank::backend {

gpu_info query_gpu() {
  gpu_info info;
  info.compiled = true;
  info.toolkit_version = CUDART_VERSION;
  info.cub_version = CUB_VERSION;
  cudaDriverGetVersion(&info.driver_version);
  cudaRuntimeGetVersion(&info.runtime_version);
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  cudaGetLastError();  // clear the sticky-free error so later calls start clean
  // Without a driver the runtime reports an "insufficient" one; both mean no GPU to use here.
  if (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice ||
      (err == cudaSuccess && count == 0)) {
    info.name = "no GPU or CUDA driver found";
    return info;
  }
  if (err != cudaSuccess) {
    info.name = cudaGetErrorString(err);
    return info;
  }
  int device = 0;
  cudaGetDevice(&device);
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    info.name = "cannot read device properties";
    return info;
  }
  info.available = true;
  info.name = prop.name;
  info.multiprocessors = prop.multiProcessorCount;
  info.memory_bytes = prop.totalGlobalMem;
  info.compute_capability = prop.major * 10 + prop.minor;
  return info;
}

}  // namespace corank::backend

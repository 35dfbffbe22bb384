// What the launches size themselves by: facts about the current device.
#pragma once

#include <cuda_runtime.h>

namespace corank::cuda::detail {

/// The current device's multiprocessor count, in *sms.
inline cudaError_t multiprocessor_count(int* sms) {
  int device = 0;
  const cudaError_t status = cudaGetDevice(&device);
  if (status != cudaSuccess) return status;
  return cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device);
}

}  // namespace corank::cuda::detail

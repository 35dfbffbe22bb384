// What the launches size themselves by (facts about the current device), how a kernel that
// follows a short one in its stream is launched early, and the entry points' overlap check.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "corank/overlaps.hpp"

namespace corank::cuda::detail {

using corank::detail::overlaps;

/// The current device's multiprocessor count, in *sms.
inline cudaError_t multiprocessor_count(int* sms) {
  int device = 0;
  const cudaError_t status = cudaGetDevice(&device);
  if (status != cudaSuccess) return status;
  return cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device);
}

/// Launches `kernel` with programmatic stream serialization (sm_90+): its blocks may become
/// resident while the previous kernel in `stream` still runs, and wait for it with
/// block::wait_for_prior_grid() before touching its results, instead of a launch later.
template <class... Params, class... Args>
cudaError_t launch_early(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
                         cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute early{};
  early.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  early.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t launch{};
  launch.gridDim = grid;
  launch.blockDim = block;
  launch.dynamicSmemBytes = smem;
  launch.stream = stream;
  launch.attrs = &early;
  launch.numAttrs = 1;
  return cudaLaunchKernelEx(&launch, kernel, std::forward<Args>(args)...);
}

}  // namespace corank::cuda::detail

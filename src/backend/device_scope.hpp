// Owns the device allocations and events of one CLI bridge call, so that an exception frees them.
#pragma once

#include <cuda_runtime.h>

namespace corank::backend {

struct device_scope {
  void* memory[4] = {};
  cudaEvent_t events[2] = {};
  ~device_scope() {
    for (void* p : memory) cudaFree(p);
    for (cudaEvent_t e : events)
      if (e) cudaEventDestroy(e);
  }
};

}  // namespace corank::backend

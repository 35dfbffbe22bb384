// What a benchmark ran on, for the JSON document: host, CPU, GPU and the versions involved.
#pragma once

#include <string>

#include "support/backend/gpu.hpp"

namespace corank::bench {

struct machine_info {
  std::string host;
  std::string cpu_model;  ///< /proc/cpuinfo's "model name", or "unknown"
  int cores = 0;          ///< hardware threads the OS reports
  int omp_threads = 0;    ///< OpenMP's default team size
  std::string compiler;   ///< e.g. "GCC 12.2.0"
  std::string corank_version;
  backend::gpu_info gpu;
};

machine_info describe_machine();

/// "12.8" from CUDA's encoding 12080; "" for 0.
std::string cuda_version_string(int encoded);

}  // namespace corank::bench

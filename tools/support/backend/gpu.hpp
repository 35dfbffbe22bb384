// What the CLI needs to know about the GPU backend, callable from plain C++ (no CUDA headers).
// Implemented in gpu_info.cu when the CUDA backend is compiled, in no_gpu.cpp otherwise.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace corank::backend {

struct gpu_info {
  bool compiled = false;   // the CUDA backend is built into this binary
  bool available = false;  // and a usable device was found
  std::string name;        // device name, or why none is usable
  int multiprocessors = 0;
  std::size_t memory_bytes = 0;
  int compute_capability = 0;  // e.g. 90
  // CUDA versions as CUDA encodes them (12080 = 12.8); 0 when unknown or not compiled in.
  int driver_version = 0;   // the installed driver's CUDA version
  int runtime_version = 0;  // the CUDA runtime linked in
  int toolkit_version = 0;  // the toolkit corank was compiled with
  int cub_version = 0;      // CUB_VERSION at compile time (200800 = 2.8.0)
};

gpu_info query_gpu();

enum class backend_kind { cpu, gpu };

/// "cpu", "gpu" or "auto" (the GPU when one is usable, else the CPU). Asking for "gpu" without a
/// usable GPU throws std::runtime_error saying why.
backend_kind resolve_backend(std::string_view requested);

std::string_view to_string(backend_kind kind);

}  // namespace corank::backend

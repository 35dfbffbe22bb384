#include <stdexcept>
#include <string>

#include "support/backend/gpu.hpp"

namespace corank::backend {

backend_kind resolve_backend(std::string_view requested) {
  if (requested == "cpu") return backend_kind::cpu;
  if (requested != "gpu" && requested != "auto")
    throw std::invalid_argument("unknown backend '" + std::string(requested) + "' (cpu|gpu|auto)");
  const gpu_info gpu = query_gpu();
  if (gpu.available) return backend_kind::gpu;
  if (requested == "auto") return backend_kind::cpu;
  throw std::runtime_error(gpu.compiled ? "no usable GPU: " + gpu.name
                                        : "this corank was built without the CUDA backend");
}

std::string_view to_string(backend_kind kind) { return kind == backend_kind::gpu ? "gpu" : "cpu"; }

}  // namespace corank::backend

// Placeholder until the CUDA sort bridge lands (issue 5).
#include <stdexcept>

#include "backend/gpu_sort.hpp"
#include "io/element_type.hpp"

namespace corank::backend {

template <class T>
double gpu_sort(T*, std::size_t, gpu_sort_algorithm) {
  throw std::runtime_error("the GPU sort is not implemented yet");
}

#define CORANK_INSTANTIATE(T, tag) template double gpu_sort<T>(T*, std::size_t, gpu_sort_algorithm);
CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_INSTANTIATE)
#undef CORANK_INSTANTIATE

}  // namespace corank::backend

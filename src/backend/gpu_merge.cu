// Placeholder until the CUDA merge lands (issue 3).
#include <stdexcept>

#include "backend/gpu_merge.hpp"
#include "io/element_type.hpp"

namespace corank::backend {

template <class T>
double gpu_merge(const T*, std::size_t, const T*, std::size_t, T*) {
  throw std::runtime_error("the GPU merge is not implemented yet");
}

#define CORANK_INSTANTIATE(T, tag) \
  template double gpu_merge<T>(const T*, std::size_t, const T*, std::size_t, T*);
CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_INSTANTIATE)
#undef CORANK_INSTANTIATE

}  // namespace corank::backend

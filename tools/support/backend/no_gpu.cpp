// The GPU entry points of a corank built without CUDA.
#include <stdexcept>

#include "support/backend/gpu.hpp"
#include "support/backend/gpu_merge.hpp"
#include "support/backend/gpu_scan.hpp"
#include "support/backend/gpu_sort.hpp"
#include "support/backend/gpu_toolbox.hpp"
#include "support/io/element_type.hpp"

namespace corank::backend {
namespace {

[[noreturn]] void no_cuda() {
  throw std::runtime_error("this corank was built without the CUDA backend");
}

}  // namespace

gpu_info query_gpu() {
  gpu_info info;
  info.name = "not compiled in";
  return info;
}

template <class T>
double gpu_merge(const T*, std::size_t, const T*, std::size_t, T*, const cuda::merge_tuning*) {
  no_cuda();
}
template <class T>
double gpu_sort(T*, std::size_t, gpu_sort_algorithm) {
  no_cuda();
}
double gpu_spmv_scan(float*, const float*, const std::int64_t*, std::size_t, std::size_t, int,
                     int) {
  no_cuda();
}
template <class T>
double gpu_search(const T*, std::size_t, const T*, std::size_t, bool, bool, std::uint64_t*) {
  no_cuda();
}
template <class T>
double gpu_set_operation(set_op, const T*, std::size_t, const T*, std::size_t, T*, std::size_t*) {
  no_cuda();
}
template <class T>
double gpu_multiway_merge(const T*, const std::uint64_t*, std::size_t, T*) {
  no_cuda();
}
template <class T>
double gpu_join(join_kind, const T*, std::size_t, const T*, std::size_t, std::vector<std::size_t>&,
                std::vector<std::size_t>&) {
  no_cuda();
}

CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_INSTANTIATE_GPU_MERGE)
CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_INSTANTIATE_GPU_SORT)
CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_INSTANTIATE_GPU_TOOLBOX)

}  // namespace corank::backend

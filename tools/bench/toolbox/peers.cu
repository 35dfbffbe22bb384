// Compiled against the newest CCCL (see peers.hpp).
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/set_operations.h>

#include <cstdio>
#include <cstdlib>
#include <cub/device/device_merge_sort.cuh>
#include <cub/version.cuh>

#include "peers.hpp"

namespace corank::bench::toolbox_peers {

namespace {
struct less_u32 {
  __host__ __device__ bool operator()(std::uint32_t a, std::uint32_t b) const { return a < b; }
};
}  // namespace

int cub_version() { return CUB_VERSION; }

void thrust_lower_bound(const std::uint32_t* haystack, std::size_t m, const std::uint32_t* needles,
                        std::size_t n, std::uint32_t* out) {
  thrust::lower_bound(thrust::device, haystack, haystack + m, needles, needles + n, out);
}

std::size_t thrust_set_operation(int op, const std::uint32_t* a, std::size_t m,
                                 const std::uint32_t* b, std::size_t n, std::uint32_t* out) {
  std::uint32_t* end = out;
  switch (op) {
    case 0:
      end = thrust::set_union(thrust::device, a, a + m, b, b + n, out);
      break;
    case 1:
      end = thrust::set_intersection(thrust::device, a, a + m, b, b + n, out);
      break;
    case 2:
      end = thrust::set_difference(thrust::device, a, a + m, b, b + n, out);
      break;
    case 3:
      end = thrust::set_symmetric_difference(thrust::device, a, a + m, b, b + n, out);
      break;
  }
  return std::size_t(end - out);
}

void cub_merge_sort_copy(const std::uint32_t* keys, std::size_t n, std::uint32_t* out) {
  static void* temp = nullptr;
  static std::size_t bytes = 0;
  std::size_t need = 0;
  cub::DeviceMergeSort::SortKeysCopy(nullptr, need, keys, out, (long long)n, less_u32{});
  if (need > bytes) {
    cudaFree(temp);
    if (cudaMalloc(&temp, need) != cudaSuccess) std::abort();
    bytes = need;
  }
  cub::DeviceMergeSort::SortKeysCopy(temp, need, keys, out, (long long)n, less_u32{});
}

}  // namespace corank::bench::toolbox_peers

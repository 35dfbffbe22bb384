// thrust's equivalents of the co-rank toolbox's primitives for one CUB (see toolbox_peers.hpp).
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/set_operations.h>

#include "bench/cub_peers_impl.cuh"
#include "bench/toolbox_peers.hpp"

namespace corank::bench {

template <cub_build B>
device_run toolbox_peers<B>::lower_bound(const std::uint32_t* haystack, std::size_t m,
                                         const std::uint32_t* needles, std::size_t n,
                                         std::uint32_t* out) {
  return [=] {
    thrust::lower_bound(thrust::device, haystack, haystack + m, needles, needles + n, out);
    return cudaGetLastError();
  };
}

template <cub_build B>
device_run toolbox_peers<B>::set_operation(set_op op, const std::uint32_t* a, std::size_t m,
                                           const std::uint32_t* b, std::size_t n,
                                           std::uint32_t* out, std::size_t* count) {
  return [=] {
    std::uint32_t* end = out;
    switch (op) {
      case set_op::unite:
        end = thrust::set_union(thrust::device, a, a + m, b, b + n, out);
        break;
      case set_op::intersect:
        end = thrust::set_intersection(thrust::device, a, a + m, b, b + n, out);
        break;
      case set_op::difference:
        end = thrust::set_difference(thrust::device, a, a + m, b, b + n, out);
        break;
      case set_op::symmetric_difference:
        end = thrust::set_symmetric_difference(thrust::device, a, a + m, b, b + n, out);
        break;
    }
    *count = std::size_t(end - out);
    return cudaGetLastError();
  };
}

template <cub_build B>
device_run toolbox_peers<B>::segment_of_items(const std::uint32_t* offsets, std::size_t segments,
                                              std::size_t n, std::uint32_t* segment_of) {
  return [=] {
    const thrust::counting_iterator<std::uint32_t> items(0);
    thrust::upper_bound(thrust::device, offsets + 1, offsets + 1 + segments, items, items + n,
                        segment_of);
    return cudaGetLastError();
  };
}

template struct toolbox_peers<peers_detail::this_build>;

}  // namespace corank::bench

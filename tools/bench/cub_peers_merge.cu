// cub::DeviceMerge and thrust::merge for one CUB (see cub_peers.hpp).
#include <thrust/execution_policy.h>
#include <thrust/merge.h>

#include <cub/device/device_merge.cuh>

#include "bench/cub_peers_impl.cuh"

namespace corank::bench {
using peers_detail::ready;

template <cub_build B>
template <class Key, class Compare>
device_run cub_peers<B>::merge_keys(const Key* a, std::size_t n, const Key* b, std::size_t m,
                                    Key* out, Compare comp) {
  return ready([=](void* temp, std::size_t& bytes) {
    return cub::DeviceMerge::MergeKeys(temp, bytes, a, std::int64_t(n), b, std::int64_t(m), out,
                                       comp);
  });
}

template <cub_build B>
template <class Key, class Value, class Compare>
device_run cub_peers<B>::merge_pairs(const Key* a, const Value* va, std::size_t n, const Key* b,
                                     const Value* vb, std::size_t m, Key* out, Value* vout,
                                     Compare comp) {
  return ready([=](void* temp, std::size_t& bytes) {
    return cub::DeviceMerge::MergePairs(temp, bytes, a, va, std::int64_t(n), b, vb, std::int64_t(m),
                                        out, vout, comp);
  });
}

template <cub_build B>
template <class Key, class Compare>
device_run cub_peers<B>::thrust_merge_keys(const Key* a, std::size_t n, const Key* b, std::size_t m,
                                           Key* out, Compare comp) {
  return [=] {
    thrust::merge(thrust::device, a, a + n, b, b + m, out, comp);
    return cudaGetLastError();
  };
}

template <cub_build B>
template <class Key, class Value, class Compare>
device_run cub_peers<B>::thrust_merge_pairs(const Key* a, const Value* va, std::size_t n,
                                            const Key* b, const Value* vb, std::size_t m, Key* out,
                                            Value* vout, Compare comp) {
  return [=] {
    thrust::merge_by_key(thrust::device, a, a + n, b, b + m, va, vb, out, vout, comp);
    return cudaGetLastError();
  };
}

#define CORANK_INSTANTIATE(Key, Compare)                                               \
  template device_run cub_peers<peers_detail::this_build>::merge_keys(                 \
      const Key*, std::size_t, const Key*, std::size_t, Key*, Compare);                \
  template device_run cub_peers<peers_detail::this_build>::merge_pairs(                \
      const Key*, const std::uint32_t*, std::size_t, const Key*, const std::uint32_t*, \
      std::size_t, Key*, std::uint32_t*, Compare);                                     \
  template device_run cub_peers<peers_detail::this_build>::thrust_merge_keys(          \
      const Key*, std::size_t, const Key*, std::size_t, Key*, Compare);                \
  template device_run cub_peers<peers_detail::this_build>::thrust_merge_pairs(         \
      const Key*, const std::uint32_t*, std::size_t, const Key*, const std::uint32_t*, \
      std::size_t, Key*, std::uint32_t*, Compare);
CORANK_PEER_KEY_TYPES(CORANK_INSTANTIATE)

}  // namespace corank::bench

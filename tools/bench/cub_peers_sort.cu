// cub::DeviceMergeSort and cub::DeviceRadixSort for one CUB (see cub_peers.hpp).
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include "bench/cub_peers_impl.cuh"

namespace corank::bench {
using peers_detail::ready;

template <cub_build B>
template <class Key, class Compare>
device_run cub_peers<B>::merge_sort_keys(const Key* in, Key* out, std::size_t n, Compare comp) {
  return ready([=](void* temp, std::size_t& bytes) {
    return cub::DeviceMergeSort::SortKeysCopy(temp, bytes, in, out, std::int64_t(n), comp);
  });
}

template <cub_build B>
template <class Key, class Value, class Compare>
device_run cub_peers<B>::merge_sort_pairs(const Key* in, const Value* vin, Key* out, Value* vout,
                                          std::size_t n, Compare comp) {
  return ready([=](void* temp, std::size_t& bytes) {
    return cub::DeviceMergeSort::SortPairsCopy(temp, bytes, in, vin, out, vout, std::int64_t(n),
                                               comp);
  });
}

template <cub_build B>
template <class Key>
device_run cub_peers<B>::radix_sort_keys(const Key* in, Key* out, std::size_t n) {
  return ready([=](void* temp, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, std::int64_t(n));
  });
}

template <cub_build B>
template <class Key, class Value>
device_run cub_peers<B>::radix_sort_pairs(const Key* in, const Value* vin, Key* out, Value* vout,
                                          std::size_t n) {
  return ready([=](void* temp, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temp, bytes, in, out, vin, vout, std::int64_t(n));
  });
}

#define CORANK_INSTANTIATE(Key, Compare)                                                          \
  template device_run cub_peers<peers_detail::this_build>::merge_sort_keys(const Key*, Key*,      \
                                                                           std::size_t, Compare); \
  template device_run cub_peers<peers_detail::this_build>::merge_sort_pairs(                      \
      const Key*, const std::uint32_t*, Key*, std::uint32_t*, std::size_t, Compare);
CORANK_PEER_KEY_TYPES(CORANK_INSTANTIATE)
#undef CORANK_INSTANTIATE
#define CORANK_INSTANTIATE(Key)                                                              \
  template device_run cub_peers<peers_detail::this_build>::radix_sort_keys(const Key*, Key*, \
                                                                           std::size_t);     \
  template device_run cub_peers<peers_detail::this_build>::radix_sort_pairs(                 \
      const Key*, const std::uint32_t*, Key*, std::uint32_t*, std::size_t);
CORANK_PEER_PRIMITIVE_KEYS(CORANK_INSTANTIATE)

}  // namespace corank::bench

// cub::DeviceSegmentedSort and cub::DeviceSegmentedRadixSort for one CUB (see cub_peers.hpp):
// u32 keys (and u32 values), CSR offsets of int64.
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "bench/cub_peers_impl.cuh"

namespace corank::bench {
using peers_detail::ready;

template <cub_build B>
template <class Key, class Offset>
device_run cub_peers<B>::segmented_sort_keys(const Key* in, Key* out, std::size_t n,
                                             const Offset* offsets, std::size_t segments) {
  return ready([=](void* temp, std::size_t& bytes) {
    return cub::DeviceSegmentedSort::SortKeys(temp, bytes, in, out, std::int64_t(n),
                                              std::int64_t(segments), offsets, offsets + 1);
  });
}

template <cub_build B>
template <class Key, class Value, class Offset>
device_run cub_peers<B>::segmented_sort_pairs(const Key* in, const Value* vin, Key* out,
                                              Value* vout, std::size_t n, const Offset* offsets,
                                              std::size_t segments) {
  return ready([=](void* temp, std::size_t& bytes) {
    return cub::DeviceSegmentedSort::SortPairs(temp, bytes, in, out, vin, vout, std::int64_t(n),
                                               std::int64_t(segments), offsets, offsets + 1);
  });
}

template <cub_build B>
template <class Key, class Offset>
device_run cub_peers<B>::segmented_radix_sort_keys(const Key* in, Key* out, std::size_t n,
                                                   const Offset* offsets, std::size_t segments) {
  return ready([=](void* temp, std::size_t& bytes) {
    return cub::DeviceSegmentedRadixSort::SortKeys(temp, bytes, in, out, std::int64_t(n),
                                                   std::int64_t(segments), offsets, offsets + 1);
  });
}

template device_run cub_peers<peers_detail::this_build>::segmented_sort_keys(
    const std::uint32_t*, std::uint32_t*, std::size_t, const std::int64_t*, std::size_t);
template device_run cub_peers<peers_detail::this_build>::segmented_sort_pairs(
    const std::uint32_t*, const std::uint32_t*, std::uint32_t*, std::uint32_t*, std::size_t,
    const std::int64_t*, std::size_t);
template device_run cub_peers<peers_detail::this_build>::segmented_radix_sort_keys(
    const std::uint32_t*, std::uint32_t*, std::size_t, const std::int64_t*, std::size_t);

}  // namespace corank::bench

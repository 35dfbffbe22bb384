// cub::DeviceScan::InclusiveScanByKey and (CCCL 3.4 on) cub::DeviceSegmentedScan for one CUB (see
// cub_peers.hpp).
#include <cub/device/device_scan.cuh>

#include "bench/cub_peers_impl.cuh"
#if CUB_VERSION >= 300400
#include <cub/device/device_segmented_scan.cuh>
#endif

namespace corank::bench {
using peers_detail::ready;

template <>
int cub_peers<peers_detail::this_build>::version() {
  return CUB_VERSION;
}

template <cub_build B>
template <class Offset>
device_run cub_peers<B>::scan_by_key(const Offset* keys, const float* in, float* out,
                                     std::size_t n) {
  return ready([=](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveScanByKey(temp, bytes, keys, in, out, ::cuda::std::plus<>{},
                                               std::int64_t(n));
  });
}

template <cub_build B>
template <class Offset>
device_run cub_peers<B>::segmented_sum(const float* in, float* out, const Offset* offsets,
                                       std::size_t segments) {
#if CUB_VERSION >= 300400
  return ready([=](void* temp, std::size_t& bytes) {
    return cub::DeviceSegmentedScan::InclusiveSegmentedSum(temp, bytes, in, out, offsets,
                                                           offsets + 1, std::int64_t(segments));
  });
#else
  (void)in, (void)out, (void)offsets, (void)segments;
  return {};
#endif
}

#define CORANK_INSTANTIATE(Offset)                                        \
  template device_run cub_peers<peers_detail::this_build>::scan_by_key(   \
      const Offset*, const float*, float*, std::size_t);                  \
  template device_run cub_peers<peers_detail::this_build>::segmented_sum( \
      const float*, float*, const Offset*, std::size_t);
CORANK_INSTANTIATE(std::int32_t)
CORANK_INSTANTIATE(std::int64_t)

}  // namespace corank::bench

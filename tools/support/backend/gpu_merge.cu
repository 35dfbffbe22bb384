// The CLI's GPU merge: host arrays to the device, corank::cuda::merge (automatic), and back.
#include "corank/cuda/merge.cuh"
#include "support/backend/device_scope.hpp"
#include "support/backend/gpu_merge.hpp"
#include "support/io/element_type.hpp"

namespace corank::backend {

template <class T>
double gpu_merge(const T* a, std::size_t m, const T* b, std::size_t n, T* out,
                 const cuda::merge_tuning* tuning) {
  if (m + n == 0) return 0.0;
  device_scope s("GPU merge");
  const T* da = s.upload(a, m, "copying A to the device");
  const T* db = s.upload(b, n, "copying B to the device");
  T* dout = s.allocate<T>(m + n);
  cuda::merge_options options;
  options.tuning = tuning;
  const double ms = s.time_ms([&] { return cuda::merge(options, da, m, db, n, dout); }, "merging");
  s.download(out, dout, m + n);
  return ms;
}

CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_INSTANTIATE_GPU_MERGE)

}  // namespace corank::backend

// The CLI's GPU iteration: host arrays to the device,
// corank::cuda::scaled_segmented_scan_iterations (every iteration in place, one call), and back.
#include <algorithm>
#include <vector>

#include "corank/cuda/segmented_scan.cuh"
#include "support/backend/device_scope.hpp"
#include "support/backend/gpu_scan.hpp"

namespace corank::backend {
namespace {

template <class Offset>
double run(float* a, const float* xbar, const std::vector<Offset>& offsets, std::size_t n,
           int iterations, int steps_per_pass) {
  device_scope s("GPU spmv-scan");
  const std::size_t rows = offsets.size() - 1;
  float* da = s.upload(a, n, "copying a", 16);
  const float* dx = s.upload(xbar, n, "copying xbar", 16);
  const Offset* doff = s.upload(offsets.data(), offsets.size(), "copying the offsets");
  cuda::segmented_scan_options opt;
  opt.steps_per_pass = steps_per_pass;
  // The look-back state in a buffer of our own, taken before the clock starts (enough for the
  // warm-up's iterations too).
  const int warm_up = std::min(iterations, 3);
  const std::size_t temp_bytes =
      std::max(cuda::scaled_segmented_scan_iterations_temp_bytes<float>(n, iterations, opt),
               cuda::scaled_segmented_scan_iterations_temp_bytes<float>(n, warm_up, opt));
  opt.temporary = {s.allocate<unsigned char>(temp_bytes), temp_bytes};
  // Untimed warm-up on a scratch copy of a (a itself is untouched): up to three iterations, which
  // load every kernel the timed run launches (two-step passes, and the one-step pass of an odd
  // count).
  float* scratch = s.allocate<float>(n, 16);
  s.check(cudaMemcpy(scratch, da, n * sizeof(float), cudaMemcpyDeviceToDevice), "warming up");
  s.check(cuda::scaled_segmented_scan_iterations(opt, scratch, dx, n, doff, rows, warm_up),
          "warming up");
  s.check(cudaDeviceSynchronize(), "warming up");
  const double ms = s.time_ms(
      [&] {
        return cuda::scaled_segmented_scan_iterations(opt, da, dx, n, doff, rows, iterations);
      },
      "running the iterations");
  s.download(a, da, n);
  return ms;
}

}  // namespace

double gpu_spmv_scan(float* a, const float* xbar, const std::int64_t* offsets, std::size_t n,
                     std::size_t rows, int iterations, int steps_per_pass) {
  if (n == 0 || iterations <= 0) return 0.0;
  if (n < (std::size_t(1) << 31)) {  // 32-bit offsets: fewer bytes per iteration
    std::vector<std::int32_t> narrow(offsets, offsets + rows + 1);
    return run(a, xbar, narrow, n, iterations, steps_per_pass);
  }
  return run(a, xbar, std::vector<std::int64_t>(offsets, offsets + rows + 1), n, iterations,
             steps_per_pass);
}

}  // namespace corank::backend

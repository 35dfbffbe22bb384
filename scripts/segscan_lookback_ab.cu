// The segmented scan's two look-backs side by side in one process (issue 19): the plain public
// call segmented_inclusive_scan (library-owned temporary storage, the look-back chosen by the
// mean segment length: the headline), the same call with the look-back forced to one thread
// (main's kernel before the warp variant) and to a warp (options.look_back; the same library
// cache), and CUB's DeviceScan::InclusiveScanByKey (int keys = segment ids, its temporary storage
// allocated once), on 2^26 f32 in {-1, 0, 1} (sums exact) with int32 offsets. Device events around
// each call, 3 warm-up calls, the calls of one shape interleaved round by round, medians; every
// output against a sequential CPU reference (max abs error). Scratch, for the notes.
//
// Build (the branch's worktree root; CCCL 3.6's headers first for the newest CUB), as built for
// the device call:
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I/work/main/build/cccl/include \
//     -Iinclude scripts/segscan_lookback_ab.cu -o /work/main/.carry-scan/segscan_lookback_ab
//   ./segscan_lookback_ab [--reps N]     (default 15, at least 9)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_scan.cuh>
#include <cub/version.cuh>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "corank/cuda/segmented_scan.cuh"

namespace {

#define CHECK(x)                                                                   \
  do {                                                                             \
    const cudaError_t e_ = (x);                                                    \
    if (e_ != cudaSuccess) {                                                       \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

using look_back = corank::cuda::segmented_scan_look_back;

/// Milliseconds of one call of `f`, by device events on the default stream.
template <class F>
float time_once(F&& f) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventRecord(a));
  f();
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return ms;
}

float median(std::vector<float> t) {
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// Segment lengths of a shape: fixed, uniform in [1, 64], or one huge segment (the middle half)
/// among tiny ones (uniform in [1, 16]).
struct shape {
  const char* name;
  long length;  // > 0: fixed; 0: U[1,64]; -1: one huge among tiny
};

std::vector<int> offsets_of(const shape& s, long n, std::mt19937& rng) {
  std::vector<int> off{0};
  while (off.back() < n) {
    long len = s.length;
    if (s.length == 0) len = 1 + long(rng() % 64);
    if (s.length < 0) len = off.back() == n / 4 ? n / 2 : 1 + long(rng() % 16);
    if (s.length < 0 && off.back() < n / 4 && off.back() + len > n / 4) len = n / 4 - off.back();
    off.push_back(int(std::min<long>(n, off.back() + len)));
  }
  return off;
}

double max_error(const std::vector<float>& got, const std::vector<float>& want) {
  double e = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    e = std::max(e, std::isnan(got[i]) ? INFINITY : std::fabs(double(got[i]) - double(want[i])));
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 15;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--reps")) reps = std::max(9, std::atoi(argv[i + 1]));
  const long n = 1L << 26;
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf(
      "# %s, %d SMs; CUB %d; corank tile %d f32; warp look-back from a mean length of %zu\n",
      prop.name, prop.multiProcessorCount, CUB_VERSION,
      corank::cuda::tuning::segmented_scan_policy<4>::shape::tile,
      corank::cuda::tuning::segmented_scan_look_back::warp_from_mean_length);
  std::mt19937 rng(1);
  std::vector<float> h_in(n);
  for (auto& x : h_in) x = float(int(rng() % 3) - 1);
  float *in, *out_cub, *out[3];
  int *keys, *off;
  CHECK(cudaMalloc(&in, n * 4));
  CHECK(cudaMalloc(&out_cub, n * 4));
  for (auto& o : out) CHECK(cudaMalloc(&o, n * 4));
  CHECK(cudaMalloc(&keys, n * 4));
  CHECK(cudaMalloc(&off, (n + 1) * 4));
  CHECK(cudaMemcpy(in, h_in.data(), n * 4, cudaMemcpyHostToDevice));
  std::vector<float> copy_t;
  for (int i = 0; i < 3 + reps; ++i) {
    const float t =
        time_once([&] { cudaMemcpyAsync(out[0], in, n * 4, cudaMemcpyDeviceToDevice); });
    if (i >= 3) copy_t.push_back(t);
  }
  const float copy_ms = median(copy_t);
  std::printf("# D2D copy %.4f ms (%.0f GB/s read + write); medians of %d after 3 warm-ups\n",
              copy_ms, 8.0 * n / copy_ms / 1e6, reps);
  std::printf("%-12s %9s %9s %9s %9s %9s %5s %8s %8s %8s %8s %6s %s\n", "shape", "segments",
              "cub_ms", "thread_ms", "warp_ms", "auto_ms", "auto", "xCUB_th", "xCUB_wp", "xCUB_au",
              "wp/th", "%copy", "max_err(cub,thread,warp,auto)");

  const shape shapes[] = {{"one", n},
                          {"len1", 1},
                          {"len2", 2},
                          {"len32", 32},
                          {"len1024", 1024},
                          {"len65536", 65536},
                          {"len2^17", 1L << 17},
                          {"len2^18", 1L << 18},
                          {"len2^19", 1L << 19},
                          {"len2^20", 1L << 20},
                          {"len2^22", 1L << 22},
                          {"U[1,64]", 0},
                          {"huge+tiny", -1}};
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  std::vector<int> h_keys(n);
  std::vector<float> want(n), got(n);
  for (const shape& s : shapes) {
    const std::vector<int> h_off = offsets_of(s, n, rng);
    const std::size_t p = h_off.size() - 1;
    for (std::size_t seg = 0; seg < p; ++seg) {
      std::fill(h_keys.begin() + h_off[seg], h_keys.begin() + h_off[seg + 1], int(seg));
      float acc = 0;
      for (int j = h_off[seg]; j < h_off[seg + 1]; ++j)
        want[j] = acc = j == h_off[seg] ? h_in[j] : acc + h_in[j];
    }
    CHECK(cudaMemcpy(off, h_off.data(), (p + 1) * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(keys, h_keys.data(), n * 4, cudaMemcpyHostToDevice));
    std::size_t need = 0;
    CHECK(cub::DeviceScan::InclusiveScanByKey(nullptr, need, keys, in, out_cub,
                                              ::cuda::std::plus<>{}, n));
    if (need > temp_bytes) {
      CHECK(cudaFree(temp));
      CHECK(cudaMalloc(&temp, need));
      temp_bytes = need;
    }
    const auto cub_call = [&] {
      std::size_t bytes = temp_bytes;
      CHECK(cub::DeviceScan::InclusiveScanByKey(temp, bytes, keys, in, out_cub,
                                                ::cuda::std::plus<>{}, n));
    };
    const auto forced = [&](look_back by, float* o) {
      corank::cuda::segmented_scan_options opt;
      opt.look_back = by;
      CHECK(corank::cuda::segmented_inclusive_scan(opt, in, std::size_t(n), off, p, o));
    };
    const auto thread_call = [&] { forced(look_back::thread, out[0]); };
    const auto warp_call = [&] { forced(look_back::warp, out[1]); };
    const auto auto_call = [&] {
      CHECK(corank::cuda::segmented_inclusive_scan(in, std::size_t(n), off, p, out[2]));
    };
    for (float* o : {out_cub, out[0], out[1], out[2]}) CHECK(cudaMemset(o, 0xff, n * 4));
    std::vector<float> t_cub, t_thread, t_warp, t_auto;
    for (int i = 0; i < 3 + reps; ++i) {  // round by round, so drift touches all four alike
      const float a = time_once(cub_call), b = time_once(thread_call), c = time_once(warp_call),
                  d = time_once(auto_call);
      if (i < 3) continue;
      t_cub.push_back(a);
      t_thread.push_back(b);
      t_warp.push_back(c);
      t_auto.push_back(d);
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaGetLastError());
    double err[4];
    float* outs[4] = {out_cub, out[0], out[1], out[2]};
    for (int k = 0; k < 4; ++k) {
      CHECK(cudaMemcpy(got.data(), outs[k], n * 4, cudaMemcpyDeviceToHost));
      err[k] = max_error(got, want);
    }
    const float cub_ms = median(t_cub), th = median(t_thread), wp = median(t_warp),
                au = median(t_auto);
    const bool auto_warp =
        corank::cuda::detail::look_back_of(look_back::automatic, std::size_t(n), p) ==
        corank::cuda::block::look_back_by::warp;
    const double bytes = 8.0 * n + 4.0 * double(p + 1);
    std::printf(
        "%-12s %9zu %9.4f %9.4f %9.4f %9.4f %5s %8.2f %8.2f %8.2f %8.3f %5.0f%% %g,%g,%g,%g\n",
        s.name, p, cub_ms, th, wp, au, auto_warp ? "warp" : "thr", cub_ms / th, cub_ms / wp,
        cub_ms / au, wp / th, 100.0 * bytes / au / (8.0 * n / copy_ms), err[0], err[1], err[2],
        err[3]);
    std::printf(
        "RESULT %s segments=%zu cub=%.4f thread=%.4f warp=%.4f auto=%.4f auto_is=%s "
        "max_err=%g,%g,%g,%g\n",
        s.name, p, cub_ms, th, wp, au, auto_warp ? "warp" : "thread", err[0], err[1], err[2],
        err[3]);
    std::fflush(stdout);
  }
  return 0;
}

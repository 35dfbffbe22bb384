// The plain call (temporary storage from the library's cache) against the caller's-buffer call,
// from the second call on, and against the old plain call (cudaMallocAsync from the device's
// default pool, release threshold 0: now the resource form with such a resource). Each call
// starts from an idle, synchronised stream and is followed by a synchronisation, as a user's
// would be; device events around the call alone (the input restored before, untimed); the forms
// interleaved, two warm-up calls each, medians. Every timed result is checked.
//
// Build and run (from the repository root):
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Iinclude
//        -Ibench scripts/plain_vs_buffer.cu -o plain_vs_buffer
//   ./plain_vs_buffer [--quick] [--reps N]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "corank/cuda.cuh"
#include "gpu_timing.cuh"

namespace corank {
namespace {

using bench::device_vector;

void check(cudaError_t e, const char* what) { bench::cuda_check(e, what); }

/// The storage of the cache without its per-stream blocks: every call asks the library's pool.
struct library_pool_resource {
  cudaMemPool_t pool = nullptr;
  void* allocate(::cuda::stream_ref s, std::size_t bytes, std::size_t) {
    void* p = nullptr;
    return cudaMallocFromPoolAsync(&p, bytes, pool, s.get()) == cudaSuccess ? p : nullptr;
  }
  void deallocate(::cuda::stream_ref s, void* p, std::size_t, std::size_t) {
    cudaFreeAsync(p, s.get());
  }
};

/// The old plain call's storage: cudaMallocAsync from the device's default pool.
struct default_pool_resource {
  void* allocate(::cuda::stream_ref s, std::size_t bytes, std::size_t) {
    void* p = nullptr;
    return cudaMallocAsync(&p, bytes, s.get()) == cudaSuccess ? p : nullptr;
  }
  void deallocate(::cuda::stream_ref s, void* p, std::size_t, std::size_t) {
    cudaFreeAsync(p, s.get());
  }
};

enum form { buffer, plain, pool_each_call, old_plain, forms };
const char* const form_names[] = {"buffer", "plain", "pool each call", "old plain"};

struct row {
  std::string call;
  std::size_t n;
  double us[forms];
};

/// Times call(form) from an idle stream: restore() untimed, then events around the call, then a
/// synchronisation. Returns the median per form, after `warm` untimed calls per form.
row time_forms(const std::string& name, std::size_t n, cudaStream_t s,
               const std::function<void()>& restore, const std::function<cudaError_t(form)>& call,
               const std::function<bool()>& verify, int reps) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  std::vector<float> ms[forms];
  for (int rep = -2; rep < reps; ++rep)
    for (int f = 0; f < forms; ++f) {
      restore();
      check(cudaStreamSynchronize(s), "restore");
      check(cudaEventRecord(start, s), "record");
      check(call(form(f)), name.c_str());
      check(cudaEventRecord(stop, s), "record");
      check(cudaStreamSynchronize(s), name.c_str());
      float t = 0;
      check(cudaEventElapsedTime(&t, start, stop), "elapsed");
      if (rep >= 0) ms[f].push_back(t);
      if (rep == reps - 1 && !verify()) {
        std::fprintf(stderr, "%s n=%zu %s: WRONG RESULT\n", name.c_str(), n, form_names[f]);
        std::exit(2);
      }
    }
  row r{name, n, {}};
  for (int f = 0; f < forms; ++f) {
    std::sort(ms[f].begin(), ms[f].end());
    r.us[f] = 1000.0 * ms[f][ms[f].size() / 2];
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return r;
}

std::vector<std::uint32_t> random_u32(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = std::uint32_t(rng());
  return v;
}

int reps_override = 0;  ///< --reps N
int reps_for(std::size_t n) { return reps_override ? reps_override : n >= 50000000 ? 7 : 15; }

}  // namespace
}  // namespace corank

int main(int argc, char** argv) {
  using namespace corank;
  bool quick = false;  // --quick: sizes up to 1M only
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps_override = std::atoi(argv[++i]);
  }
  namespace cc = corank::cuda;
  using u32 = std::uint32_t;
  std::mt19937_64 rng(20261124);
  cudaStream_t s;
  // Blocking: its work waits for the uploads (cudaMemcpy from pageable memory may return before
  // its copy lands).
  check(cudaStreamCreateWithFlags(&s, cudaStreamDefault), "stream");
  default_pool_resource old_pool;
  library_pool_resource each_call;
  check(cc::library_memory_pool(&each_call.pool), "library pool");
  // The resource forms: the pool each call (the cache without its stream blocks), or the old way.
  const auto resource = [&](form f) -> cc::memory_resource_ref {
    if (f == pool_each_call) return each_call;
    return old_pool;
  };
  std::vector<row> rows;
  const std::vector<std::size_t> small = {1 << 10, 1 << 12, 1 << 14, 1 << 16};
  std::vector<std::size_t> large = {1000000, 10000000, 100000000};
  if (quick) large = {1000000};

  // stable_sort u32 and stable_sort_by_key u32/u32.
  for (bool pairs : {false, true}) {
    std::vector<std::size_t> sizes = small;
    sizes.insert(sizes.end(), large.begin(), large.end());
    for (std::size_t n : sizes) {
      const auto host = random_u32(rng, n);
      auto want = host;
      std::sort(want.begin(), want.end());
      device_vector<u32> pristine(host), keys(n), vals(n);
      const std::size_t bytes =
          pairs ? cc::stable_sort_temp_bytes<u32, u32>(n) : cc::stable_sort_temp_bytes<u32>(n);
      device_vector<unsigned char> temp(bytes);
      rows.push_back(time_forms(
          pairs ? "stable_sort_by_key u32/u32" : "stable_sort u32", n, s,
          [&] {
            cudaMemcpyAsync(keys.data, pristine.data, n * 4, cudaMemcpyDeviceToDevice, s);
            cudaMemcpyAsync(vals.data, pristine.data, n * 4, cudaMemcpyDeviceToDevice, s);
          },
          [&](form f) {
            if (pairs) {
              if (f == buffer)
                return cc::stable_sort_by_key(keys.data, vals.data, n, temp.data, bytes,
                                              corank::less{}, s);
              if (f == plain)
                return cc::stable_sort_by_key(keys.data, vals.data, n, corank::less{}, s);
              return cc::stable_sort_by_key(resource(f), keys.data, vals.data, n, corank::less{},
                                            s);
            }
            if (f == buffer)
              return cc::stable_sort(keys.data, n, temp.data, bytes, corank::less{}, s);
            if (f == plain) return cc::stable_sort(keys.data, n, corank::less{}, s);
            return cc::stable_sort(resource(f), keys.data, n, corank::less{}, s);
          },
          [&] { return keys.to_host() == want && (!pairs || vals.to_host() == want); },
          reps_for(n)));
    }
  }

  // merge u32, n per side (no temporary storage: the three forms should agree).
  for (std::size_t n : large) {
    auto a = random_u32(rng, n), b = random_u32(rng, n);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::vector<u32> want(2 * n);
    std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
    device_vector<u32> da(a), db(b), out(2 * n);
    void* none = nullptr;
    rows.push_back(time_forms(
        "merge u32 (n per side)", n, s, [] {},
        [&](form f) {
          if (f == buffer)
            return cc::merge(da.data, n, db.data, n, out.data, none, 0, corank::less{}, s);
          if (f == plain) return cc::merge(da.data, n, db.data, n, out.data, corank::less{}, s);
          return cc::merge(resource(f), da.data, n, db.data, n, out.data, corank::less{}, s);
        },
        [&] { return out.to_host() == want; }, reps_for(2 * n)));
  }

  // bitonic_sort u32 (sorts in place: no temporary storage).
  std::vector<std::size_t> bitonic_sizes = {std::size_t(1) << 16, 1000000, 10000000};
  if (quick) bitonic_sizes = {1000000};
  for (std::size_t n : bitonic_sizes) {
    const auto host = random_u32(rng, n);
    auto want = host;
    std::sort(want.begin(), want.end());
    device_vector<u32> pristine(host), keys(n);
    void* none = nullptr;
    rows.push_back(time_forms(
        "bitonic_sort u32", n, s,
        [&] { cudaMemcpyAsync(keys.data, pristine.data, n * 4, cudaMemcpyDeviceToDevice, s); },
        [&](form f) {
          if (f == buffer) return cc::bitonic_sort(keys.data, n, none, 0, corank::less{}, s);
          if (f == plain) return cc::bitonic_sort(keys.data, n, corank::less{}, s);
          return cc::bitonic_sort(resource(f), keys.data, n, corank::less{}, s);
        },
        [&] { return keys.to_host() == want; }, reps_for(n)));
  }

  // segmented_inclusive_scan f32, segment lengths U[1, 2000].
  {
    std::vector<std::size_t> sizes = small;
    sizes.insert(sizes.end(), large.begin(), large.end());
    for (std::size_t n : sizes) {
      std::vector<float> in(n);
      std::uniform_real_distribution<float> value(-1, 1);
      for (auto& x : in) x = value(rng);
      std::vector<std::int64_t> offsets{0};
      std::uniform_int_distribution<std::int64_t> length(1, 2000);
      while (offsets.back() < std::int64_t(n))
        offsets.push_back(std::min<std::int64_t>(std::int64_t(n), offsets.back() + length(rng)));
      const std::size_t segments = offsets.size() - 1;
      std::vector<double> want(n);
      for (std::size_t sgm = 0; sgm < segments; ++sgm) {
        double acc = 0;
        for (auto i = offsets[sgm]; i < offsets[sgm + 1]; ++i) want[i] = acc += in[i];
      }
      device_vector<float> din(in), out(n);
      device_vector<std::int64_t> doff(offsets);
      const std::size_t bytes = cc::segmented_scan_temp_bytes<float>(n);
      device_vector<unsigned char> temp(bytes);
      rows.push_back(time_forms(
          "segmented_inclusive_scan f32 U[1,2000]", n, s, [] {},
          [&](form f) {
            if (f == buffer)
              return cc::segmented_inclusive_scan(din.data, out.data, n, doff.data, segments,
                                                  temp.data, bytes, corank::plus{}, s);
            if (f == plain)
              return cc::segmented_inclusive_scan(din.data, out.data, n, doff.data, segments,
                                                  corank::plus{}, s);
            return cc::segmented_inclusive_scan(resource(f), din.data, out.data, n, doff.data,
                                                segments, corank::plus{}, s);
          },
          [&] {
            const auto got = out.to_host();
            for (std::size_t i = 0; i < n; ++i)
              if (std::abs(got[i] - want[i]) > 1e-3 * (1 + std::abs(want[i]))) return false;
            return true;
          },
          reps_for(n)));
    }
  }

  // Host time of the calls a plain call makes around its work (no GPU work between them).
  const auto host_us = [&](const char* what, const std::function<void()>& f) {
    constexpr int calls = 20000;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) f();
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    check(cudaStreamSynchronize(s), what);
    std::printf("host: %-50s %7.3f us\n", what, us / calls);
  };
  std::printf("\n");
  host_us("cudaGetDevice", [&] {
    int d = 0;
    cudaGetDevice(&d);
  });
  host_us("cudaStreamGetId", [&] {
    unsigned long long id = 0;
    cudaStreamGetId(s, &id);
  });
  host_us("cudaStreamIsCapturing", [&] {
    cudaStreamCaptureStatus c;
    cudaStreamIsCapturing(s, &c);
  });
  cudaEvent_t e;
  check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "event");
  host_us("cudaEventRecord", [&] { cudaEventRecord(e, s); });
  host_us("cudaMallocFromPoolAsync + cudaFreeAsync (1 MB)", [&] {
    void* p = nullptr;
    cudaMallocFromPoolAsync(&p, 1 << 20, each_call.pool, s);
    cudaFreeAsync(p, s);
  });
  const cc::memory_resource_ref cache = cc::memory_resource_ref::library_cache();
  host_us("library cache take + give back (1 MB)", [&] {
    void* p = nullptr;
    cache.allocate(&p, 1 << 20, 256, s);
    cache.deallocate(p, 1 << 20, 256, s);
  });

  std::printf("\n%-40s %10s %9s %9s %9s %9s %9s %8s\n", "call (medians, us)", "n", "buffer",
              "plain", "pool/call", "old", "plain/buf", "diff us");
  for (const row& r : rows)
    std::printf("%-40s %10zu %9.1f %9.1f %9.1f %9.1f %9.3f %8.2f\n", r.call.c_str(), r.n,
                r.us[buffer], r.us[plain], r.us[pool_each_call], r.us[old_plain],
                r.us[plain] / r.us[buffer], r.us[plain] - r.us[buffer]);
  cudaStreamDestroy(s);
  return 0;
}

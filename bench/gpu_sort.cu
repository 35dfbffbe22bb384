// See gpu_sort.hpp. Timing: device events around each sort, 2 warm-up runs, the median of the
// timed runs; in-place sorts get their input restored (untimed) before every run. Correctness:
// every corank result is compared with CUB radix sort's on the same input.
#include <thrust/equal.h>
#include <thrust/execution_policy.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/merge_sort.cuh"
#include "corank/cuda/segmented_sort.cuh"
#include "gpu_sort.hpp"
#include "gpu_timing.cuh"

namespace corank::bench {
namespace {

using key = std::uint32_t;
using value = std::uint32_t;

struct row {
  std::string kind, impl;
  std::size_t n;
  double ms;
  bool correct;
};

std::string human(std::size_t n) {
  if (n % 1000000 == 0) return std::to_string(n / 1000000) + "M";
  if (n % 1000 == 0) return std::to_string(n / 1000) + "K";
  return std::to_string(n);
}

std::vector<key> uniform_keys(std::size_t n, std::uint64_t seed) {
  std::vector<key> v(n);
  std::mt19937_64 rng(seed);
  for (auto& k : v) k = key(rng());
  return v;
}

/// Calls a CUB two-phase entry point: sizes its temporary storage, allocates it once, returns a
/// callable that runs it.
template <class F>
std::function<cudaError_t()> cub_runner(F f, std::shared_ptr<device_vector<char>>& temp) {
  std::size_t bytes = 0;
  cuda_check(f(nullptr, bytes), "CUB sizing");
  temp = std::make_shared<device_vector<char>>(bytes);
  auto* storage = temp.get();
  return [f, storage, bytes]() mutable { return f(storage->data, bytes); };
}

bool same(const key* a, const key* b, std::size_t n) {
  return thrust::equal(thrust::device, a, a + n, b);
}

}  // namespace

int run_gpu_sort_bench(const gpu_sort_config& config, std::ostream& out) {
  std::vector<row> rows;
  bool all_correct = true;
  const auto record = [&](std::string kind, std::string impl, std::size_t n, double ms,
                          bool correct) {
    all_correct = all_correct && correct;
    rows.push_back({std::move(kind), std::move(impl), n, ms, correct});
  };

  for (std::size_t n : config.sizes) {
    std::cerr << "bench sort: " << human(n) << "\n";
    const int repeats = config.repeats ? config.repeats : n >= 50000000 ? 5 : 15;
    const auto host = uniform_keys(n, n);
    device_vector<key> input(n), keys(n), reference(n), out_keys(n);
    device_vector<value> vals_in(n), vals(n), out_vals(n);
    cuda_check(cudaMemcpy(input.data, host.data(), n * sizeof(key), cudaMemcpyHostToDevice), "H2D");
    cuda_check(cudaMemcpy(vals_in.data, host.data(), n * sizeof(key), cudaMemcpyHostToDevice),
               "H2D");
    const auto restore = [&] {
      cudaMemcpyAsync(keys.data, input.data, n * sizeof(key), cudaMemcpyDeviceToDevice);
      cudaMemcpyAsync(vals.data, vals_in.data, n * sizeof(value), cudaMemcpyDeviceToDevice);
    };
    const int items = int(n);
    std::shared_ptr<device_vector<char>> t1, t2, t3, t4;
    // corank's merge sort with a preallocated temporary, like CUB's (allocated once).
    auto temp_ours =
        std::make_shared<device_vector<char>>(corank::cuda::stable_sort_temp_bytes<key, value>(n));
    auto radix_keys = cub_runner(
        [&](void* t, std::size_t& b) {
          return cub::DeviceRadixSort::SortKeys(t, b, input.data, reference.data, items);
        },
        t1);
    auto radix_pairs = cub_runner(
        [&](void* t, std::size_t& b) {
          return cub::DeviceRadixSort::SortPairs(t, b, input.data, out_keys.data, vals_in.data,
                                                 out_vals.data, items);
        },
        t2);
    auto merge_keys = cub_runner(
        [&](void* t, std::size_t& b) {
          return cub::DeviceMergeSort::SortKeysCopy(t, b, input.data, out_keys.data, items,
                                                    corank::less{});
        },
        t3);
    auto merge_pairs = cub_runner(
        [&](void* t, std::size_t& b) {
          return cub::DeviceMergeSort::SortPairsCopy(t, b, input.data, vals_in.data, out_keys.data,
                                                     out_vals.data, items, corank::less{});
        },
        t4);
    const double copy_ms = median_ms(
        [&] {
          return cudaMemcpyAsync(out_keys.data, input.data, n * sizeof(key),
                                 cudaMemcpyDeviceToDevice);
        },
        repeats);
    record("copy", "cudaMemcpy d2d", n, copy_ms, true);
    // Each time is taken before its check (the order of a call's arguments is unspecified).
    record("keys", "cub radix", n, median_ms(radix_keys, repeats), true);
    const double merge_ms = median_ms(merge_keys, repeats);
    record("keys", "cub merge", n, merge_ms, same(out_keys.data, reference.data, n));
    const double stable_ms = median_ms(
        [&] { return corank::cuda::stable_sort(keys.data, n, temp_ours->data, temp_ours->size); },
        repeats, restore);
    record("keys", "corank merge", n, stable_ms, same(keys.data, reference.data, n));
    const double bitonic_ms =
        median_ms([&] { return corank::cuda::bitonic_sort(keys.data, n); }, repeats, restore);
    record("keys", "corank bitonic", n, bitonic_ms, same(keys.data, reference.data, n));
    const double radix_pairs_ms = median_ms(radix_pairs, repeats);
    record("pairs", "cub radix", n, radix_pairs_ms, same(out_keys.data, reference.data, n));
    const double merge_pairs_ms = median_ms(merge_pairs, repeats);
    record("pairs", "cub merge", n, merge_pairs_ms, same(out_keys.data, reference.data, n));
    const double stable_pairs_ms = median_ms(
        [&] {
          return corank::cuda::stable_sort_by_key(keys.data, vals.data, n, temp_ours->data,
                                                  temp_ours->size);
        },
        repeats, restore);
    record("pairs", "corank merge", n, stable_pairs_ms, same(keys.data, reference.data, n));
    const double bitonic_pairs_ms =
        median_ms([&] { return corank::cuda::bitonic_sort_by_key(keys.data, vals.data, n); },
                  repeats, restore);
    record("pairs", "corank bitonic", n, bitonic_pairs_ms, same(keys.data, reference.data, n));
  }

  // Segmented: uniform segment sizes and mixed (log-uniform 1..4096).
  if (const std::size_t total = config.segmented_keys) {
    const auto host = uniform_keys(total, 7);
    device_vector<key> input(total), keys(total), out_keys(total);
    cuda_check(cudaMemcpy(input.data, host.data(), total * sizeof(key), cudaMemcpyHostToDevice),
               "H2D");
    std::mt19937_64 rng(11);
    for (int size : {32, 128, 1024, 0}) {
      std::vector<int> offsets(1, 0);
      while (std::size_t(offsets.back()) < total) {
        const int s = size ? size : int(std::exp2(double(rng() % 1200) / 100.0));
        offsets.push_back(int(std::min<std::size_t>(total, std::size_t(offsets.back()) + s)));
      }
      const std::size_t segments = offsets.size() - 1;
      const std::string kind = size ? "segments of " + std::to_string(size) : "segments mixed";
      std::cerr << "bench sort: " << kind << "\n";
      device_vector<int> d_offsets(offsets.size());
      cuda_check(cudaMemcpy(d_offsets.data, offsets.data(), offsets.size() * sizeof(int),
                            cudaMemcpyHostToDevice),
                 "H2D");
      std::shared_ptr<device_vector<char>> temp;
      auto cub_seg = cub_runner(
          [&](void* t, std::size_t& b) {
            return cub::DeviceSegmentedSort::SortKeys(t, b, input.data, out_keys.data,
                                                      std::int64_t(total), std::int64_t(segments),
                                                      d_offsets.data, d_offsets.data + 1);
          },
          temp);
      const int repeats = config.repeats ? config.repeats : 10;
      record(kind, "cub segmented", total, median_ms(cub_seg, repeats), true);
      const double ms = median_ms(
          [&] { return corank::cuda::sort_segments(keys.data, total, d_offsets.data, segments); },
          repeats,
          [&] {
            cudaMemcpyAsync(keys.data, input.data, total * sizeof(key), cudaMemcpyDeviceToDevice);
          });
      record(kind, "corank segments", total, ms, same(keys.data, out_keys.data, total));
    }
  }

  // The study's chart: std::sort against the GPU bitonic sort, kernel alone and with transfers.
  struct speedup {
    std::size_t n;
    double cpu_ms;
    corank::cuda::transfer_timings gpu;
  };
  std::vector<speedup> speedups;
  for (std::size_t n : config.cpu_sizes) {
    std::cerr << "bench sort: std::sort " << human(n) << "\n";
    auto host = uniform_keys(n, n + 1);
    key* pinned = nullptr;
    cuda_check(cudaMallocHost(&pinned, n * sizeof(key)), "cudaMallocHost");
    std::vector<corank::cuda::transfer_timings> runs;
    for (int i = 0; i < 5; ++i) {
      std::copy(host.begin(), host.end(), pinned);
      corank::cuda::transfer_timings t;
      cuda_check(corank::cuda::bitonic_sort_host(pinned, n, corank::less{}, &t), "host sort");
      if (i) runs.push_back(t);
    }
    std::sort(runs.begin(), runs.end(), [](auto& a, auto& b) { return a.kernel_ms < b.kernel_ms; });
    const auto start = std::chrono::steady_clock::now();
    std::sort(host.begin(), host.end());
    const double cpu_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const bool ok = std::equal(host.begin(), host.end(), pinned);
    all_correct = all_correct && ok;
    cudaFreeHost(pinned);
    speedups.push_back({n, cpu_ms, runs[runs.size() / 2]});
  }

  out << std::left << std::setw(20) << "kind" << std::setw(18) << "impl" << std::right
      << std::setw(7) << "n" << std::setw(11) << "ms" << std::setw(10) << "Gkeys/s"
      << "  ok\n";
  for (const auto& r : rows)
    out << std::left << std::setw(20) << r.kind << std::setw(18) << r.impl << std::right
        << std::setw(7) << human(r.n) << std::setw(11) << std::fixed << std::setprecision(4) << r.ms
        << std::setw(10) << std::setprecision(2) << double(r.n) / r.ms / 1e6
        << (r.correct ? "  yes" : "  NO") << "\n";
  if (!speedups.empty()) {
    out << "\nbitonic sort (host entry, pinned) vs std::sort (1 thread)\n"
        << std::setw(7) << "n" << std::setw(12) << "cpu ms" << std::setw(10) << "h2d ms"
        << std::setw(11) << "kernel ms" << std::setw(10) << "d2h ms" << std::setw(12)
        << "x (kernel)" << std::setw(11) << "x (total)\n";
    for (const auto& s : speedups) {
      const double total = s.gpu.h2d_ms + s.gpu.kernel_ms + s.gpu.d2h_ms;
      out << std::setw(7) << human(s.n) << std::setw(12) << std::setprecision(3) << s.cpu_ms
          << std::setw(10) << s.gpu.h2d_ms << std::setw(11) << s.gpu.kernel_ms << std::setw(10)
          << s.gpu.d2h_ms << std::setw(12) << std::setprecision(1) << s.cpu_ms / s.gpu.kernel_ms
          << std::setw(11) << s.cpu_ms / total << "\n";
    }
  }
  if (!config.json_path.empty()) {
    std::ofstream json(config.json_path);
    json << "{\"rows\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i)
      json << "  {\"kind\": \"" << rows[i].kind << "\", \"impl\": \"" << rows[i].impl
           << "\", \"n\": " << rows[i].n << ", \"ms\": " << rows[i].ms
           << ", \"correct\": " << (rows[i].correct ? "true" : "false") << "}"
           << (i + 1 < rows.size() ? ",\n" : "\n");
    json << "], \"speedup\": [\n";
    for (std::size_t i = 0; i < speedups.size(); ++i)
      json << "  {\"n\": " << speedups[i].n << ", \"cpu_ms\": " << speedups[i].cpu_ms
           << ", \"h2d_ms\": " << speedups[i].gpu.h2d_ms
           << ", \"kernel_ms\": " << speedups[i].gpu.kernel_ms
           << ", \"d2h_ms\": " << speedups[i].gpu.d2h_ms << "}"
           << (i + 1 < speedups.size() ? ",\n" : "\n");
    json << "]}\n";
  }
  return all_correct ? 0 : 1;
}

}  // namespace corank::bench

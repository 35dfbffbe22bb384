// See gpu_merge_tune.hpp. Inputs: sorted uniform u32 keys made on the device (random gaps, then a
// prefix sum). Every configuration is timed by device events (median after warm-up) and its
// output compared with CUB's; a configuration that fails to launch or is wrong never wins.
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/transform_scan.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cub/device/device_merge.cuh>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "bench/gpu_merge_tune.hpp"
#include "bench/gpu_timing.cuh"
#include "bench/report.hpp"
#include "corank/cuda/merge.cuh"
#include "corank/study/merge.cuh"

namespace corank::bench {
namespace {

using cuda::merge_algorithm;
using merge_options = study::cuda::merge_options;  // any kernel's
using cuda::merge_scheme;
using key = std::uint32_t;

/// Gap i of a sorted uniform sequence: a hash of (i, seed) below twice the mean gap.
struct random_gap {
  std::uint64_t seed, twice_mean;
  __host__ __device__ std::uint64_t operator()(std::uint64_t i) const {
    std::uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 29;
    return x % twice_mean;
  }
};
struct clamp_to_key {
  __host__ __device__ key operator()(std::uint64_t v) const {
    return key(v < 0xFFFFFFFFull ? v : 0xFFFFFFFFull);
  }
};

void fill_sorted_uniform(key* out, std::size_t n, std::uint64_t seed) {
  device_vector<std::uint64_t> sums(n);
  const std::uint64_t mean = std::max<std::uint64_t>(1, (std::uint64_t(1) << 32) / (n + 1));
  const thrust::counting_iterator<std::uint64_t> first(0);
  thrust::transform_inclusive_scan(thrust::device, first, first + n, sums.data,
                                   random_gap{seed, 2 * mean}, thrust::plus<std::uint64_t>());
  thrust::transform(thrust::device, sums.data, sums.data + n, out, clamp_to_key{});
  cuda_check(cudaDeviceSynchronize(), "generating inputs");
}

struct candidate {
  merge_options options;
  std::string label;  // as the tuning file spells it
};

std::string label_of(const merge_options& o) {
  std::ostringstream s;
  if (o.algorithm == merge_algorithm::automatic) s << "scheme=" << cuda::to_string(o.scheme) << " ";
  s << "threads=" << o.threads << " blocks=" << o.blocks;
  if (o.algorithm == merge_algorithm::tiled || o.algorithm == merge_algorithm::circular)
    s << " tile=" << o.tile_items;
  return s.str();
}

/// The sweep of one kernel: what the study varied (blocks, threads per block, tile size) over
/// ranges around the defaults. `automatic` varies its scheme, the single launch's grid and the
/// partitioned blocks' threads (its items per thread are fixed at compile time).
std::vector<candidate> sweep(merge_algorithm kernel, unsigned sms) {
  std::vector<candidate> c;
  const auto add = [&](merge_scheme scheme, unsigned threads, unsigned blocks, unsigned tile) {
    merge_options o;
    o.algorithm = kernel, o.scheme = scheme;
    o.threads = threads, o.blocks = blocks, o.tile_items = tile;
    c.push_back({o, label_of(o)});
  };
  switch (kernel) {
    case merge_algorithm::automatic:
      for (unsigned blocks : {0u, sms, 2 * sms, 8 * sms})
        add(merge_scheme::single_launch, 0, blocks, 0);
      for (unsigned threads : {64u, 128u, 256u, 384u, 512u})
        add(merge_scheme::partitioned, threads, 0, 0);
      break;
    case merge_algorithm::basic:
      for (unsigned threads : {128u, 256u, 512u})
        for (unsigned blocks : {0u, 8 * sms, 32 * sms, 128 * sms})
          add(merge_scheme::by_size, threads, blocks, 0);
      break;
    case merge_algorithm::tiled:
    case merge_algorithm::circular:
      for (unsigned threads : {128u, 256u, 512u})
        for (unsigned tile : {256u, 512u, 1024u, 2048u, 4096u})
          for (unsigned blocks : {0u, 4 * sms, 16 * sms})
            add(merge_scheme::by_size, threads, blocks, tile);
      break;
  }
  return c;
}

}  // namespace

cuda::merge_tuning run_gpu_merge_tune(const gpu_merge_tune_config& config, std::ostream& out) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    throw std::runtime_error("corank tune merge needs a CUDA GPU, and none is usable here");
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  const unsigned sms = unsigned(prop.multiProcessorCount);
  // Many configurations each: the quick device timing, or exactly `repeats` runs.
  timing_config timing = device_timing_config(true);
  if (config.repeats > 0) timing.min_runs = timing.max_runs = config.repeats;
  std::vector<std::size_t> sizes = config.sizes;
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());

  out << "corank tune merge: " << prop.name << ", " << sms
      << " SMs; u32 keys, uniform random; median of event-timed runs, ms\n";
  out << std::left << std::setw(10) << "per input" << std::setw(10) << "kernel" << std::setw(44)
      << "best configuration" << std::right << std::setw(10) << "best" << std::setw(10) << "default"
      << std::setw(9) << "gain" << std::setw(10) << "CUB"
      << "\n";
  std::vector<cuda::merge_tuning_entry> entries;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::size_t n = sizes[i], total = 2 * n;
    device_vector<key> a(n), b(n), result(total), reference(total);
    fill_sorted_uniform(a.data, n, 1);
    fill_sorted_uniform(b.data, n, 2);
    std::size_t temp_bytes = 0;
    cuda_check(cub::DeviceMerge::MergeKeys(nullptr, temp_bytes, a.data, std::int64_t(n), b.data,
                                           std::int64_t(n), reference.data, corank::less{}),
               "cub temp size");
    device_vector<unsigned char> temp(temp_bytes);
    const double cub_ms = measure_device(
                              [&] {
                                return cub::DeviceMerge::MergeKeys(
                                    temp.data, temp_bytes, a.data, std::int64_t(n), b.data,
                                    std::int64_t(n), reference.data, corank::less{});
                              },
                              timing)
                              .median_ms;
    // Time of one configuration, or infinity when it does not launch or its output is wrong.
    const auto time = [&](const merge_options& o) {
      cuda_check(cudaMemset(result.data, 0xA5, total * sizeof(key)), "poison");
      if (study::cuda::merge(o, a.data, n, b.data, n, result.data) != cudaSuccess ||
          cudaDeviceSynchronize() != cudaSuccess ||
          !thrust::equal(thrust::device, result.data, result.data + total, reference.data)) {
        cudaGetLastError();  // a refused launch is not sticky; clear it
        return std::numeric_limits<double>::infinity();
      }
      return measure_device(
                 [&] { return study::cuda::merge(o, a.data, n, b.data, n, result.data); }, timing)
          .median_ms;
    };
    for (merge_algorithm kernel : config.kernels) {
      if (config.progress)
        std::cerr << "tune: " << human_count(n) << " per input, " << cuda::to_string(kernel)
                  << "\n";
      merge_options defaults;
      defaults.algorithm = kernel;
      const double default_ms = time(defaults);
      candidate best{defaults, "default"};
      double best_ms = default_ms;
      for (const candidate& c : sweep(kernel, sms)) {
        const double ms = time(c.options);
        if (config.progress) std::cerr << "  " << c.label << ": " << ms << " ms\n";
        if (ms < best_ms) best_ms = ms, best = c;
      }
      out << std::left << std::setw(10) << human_count(n) << std::setw(10)
          << cuda::to_string(kernel) << std::setw(44) << best.label << std::right << std::fixed
          << std::setprecision(4) << std::setw(10) << best_ms << std::setw(10) << default_ms
          << std::setprecision(2) << std::setw(8) << default_ms / best_ms << "x"
          << std::setprecision(4) << std::setw(10) << cub_ms << "\n";
      if (!std::isfinite(best_ms)) continue;  // nothing ran right: leave it to the defaults
      // This size's winner covers the totals up to the geometric mean with the next size's.
      cuda::merge_tuning_entry e;
      e.algorithm = kernel;
      e.up_to = i + 1 < sizes.size()
                    ? std::size_t(std::sqrt(double(total) * double(2 * sizes[i + 1])))
                    : std::numeric_limits<std::size_t>::max();
      e.threads = best.options.threads, e.blocks = best.options.blocks;
      e.tile_items = best.options.tile_items;
      e.scheme = best.options.scheme;  // by_size (the default won): the defaults' choice
      entries.push_back(e);
    }
  }
  return cuda::merge_tuning(std::move(entries));
}

}  // namespace corank::bench

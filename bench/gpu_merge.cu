// See gpu_merge.hpp. Timing: device events around each launch, 3 warm-up runs, the median of the
// timed runs. Bytes counted: every input read once plus every output written once.
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/merge.h>
#include <thrust/sequence.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cub/device/device_merge.cuh>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "corank/cuda/merge.cuh"
#include "gpu_merge.hpp"

namespace corank::bench {
namespace {

using key = std::uint32_t;
using value = std::uint32_t;

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

template <class T>
struct device_array {
  T* data = nullptr;
  std::size_t size = 0;
  explicit device_array(std::size_t n) : size(n) {
    check(cudaMalloc(&data, std::max<std::size_t>(n, 1) * sizeof(T)), "cudaMalloc");
  }
  ~device_array() { cudaFree(data); }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
};

/// Sorted uniform u32 keys in O(n): random gaps averaging 2^32 / n (xorshift, seeded).
std::vector<key> sorted_uniform(std::size_t n, std::uint64_t seed) {
  std::vector<key> v(n);
  const std::uint64_t mean_gap = std::max<std::uint64_t>(1, (std::uint64_t(1) << 32) / (n + 1));
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1, acc = 0;
  for (auto& k : v) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    acc += x % (2 * mean_gap);
    k = key(std::min<std::uint64_t>(acc, 0xFFFFFFFFull));
  }
  return v;
}

/// Median of `repeats` event-timed runs of `launch` after 3 warm-up runs, in ms.
double time_ms(const std::function<cudaError_t()>& launch, int repeats) {
  for (int i = 0; i < 3; ++i) check(launch(), "warm-up launch");
  check(cudaDeviceSynchronize(), "warm-up");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  std::vector<float> ms(repeats);
  for (int i = 0; i < repeats; ++i) {
    check(cudaEventRecord(start), "event");
    check(launch(), "timed launch");
    check(cudaEventRecord(stop), "event");
    check(cudaEventSynchronize(stop), "timed run");
    check(cudaEventElapsedTime(&ms[i], start, stop), "event");
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(ms.begin(), ms.begin() + repeats / 2, ms.end());
  return ms[repeats / 2];
}

struct row {
  std::string kind, impl;
  std::size_t per_input;
  double ms, bytes, copy_gbps, cub_ms;
  bool correct;
};

std::string human(std::size_t n) {
  if (n % 1000000 == 0) return std::to_string(n / 1000000) + "M";
  if (n % 1000 == 0) return std::to_string(n / 1000) + "K";
  return std::to_string(n);
}

}  // namespace

int run_gpu_merge_bench(const gpu_merge_config& config, std::ostream& out) {
  using corank::cuda::merge_algorithm;
  using corank::cuda::merge_options;
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::vector<row> rows;
  bool all_correct = true;

  struct studied {
    const char* name;
    merge_algorithm algorithm;
    bool optimised;
  };
  std::vector<studied> ours = {{"corank automatic", merge_algorithm::automatic, true}};
  if (config.studied)
    ours.insert(ours.end(), {{"corank basic", merge_algorithm::basic, true},
                             {"corank tiled", merge_algorithm::tiled, true},
                             {"corank tiled (no opt)", merge_algorithm::tiled, false},
                             {"corank circular", merge_algorithm::circular, true}});

  for (std::size_t n : config.sizes) {
    std::cerr << "bench: " << human(n) << " per input\n";
    const int repeats = config.repeats ? config.repeats : n >= 10000000 ? 20 : 50;
    const std::size_t total = 2 * n;
    device_array<key> a(n), b(n), result(total), reference(total);
    {
      const auto ha = sorted_uniform(n, 1), hb = sorted_uniform(n, 2);
      check(cudaMemcpy(a.data, ha.data(), n * sizeof(key), cudaMemcpyHostToDevice), "upload");
      check(cudaMemcpy(b.data, hb.data(), n * sizeof(key), cudaMemcpyHostToDevice), "upload");
    }
    const double key_bytes = 2.0 * total * sizeof(key);
    const double copy_ms = time_ms(
        [&] {
          return cudaMemcpyAsync(result.data, reference.data, total * sizeof(key),
                                 cudaMemcpyDeviceToDevice);
        },
        repeats);
    const double copy_gbps = key_bytes / copy_ms / 1e6;

    // CUB, also the reference output.
    std::size_t temp_bytes = 0;
    check(cub::DeviceMerge::MergeKeys(nullptr, temp_bytes, a.data, std::int64_t(n), b.data,
                                      std::int64_t(n), reference.data, corank::less{}),
          "cub temp size");
    device_array<unsigned char> temp(temp_bytes);
    const double cub_ms = time_ms(
        [&] {
          return cub::DeviceMerge::MergeKeys(temp.data, temp_bytes, a.data, std::int64_t(n), b.data,
                                             std::int64_t(n), reference.data, corank::less{});
        },
        repeats);
    check(cudaDeviceSynchronize(), "cub");
    const auto same_as_reference = [&] {
      return thrust::equal(thrust::device, result.data, result.data + total, reference.data);
    };
    rows.push_back({"keys", "device copy", n, copy_ms, key_bytes, copy_gbps, cub_ms, true});
    rows.push_back({"keys", "cub::DeviceMerge", n, cub_ms, key_bytes, copy_gbps, cub_ms, true});
    const double thrust_ms = time_ms(
        [&] {
          thrust::merge(thrust::device, a.data, a.data + n, b.data, b.data + n, result.data);
          return cudaGetLastError();
        },
        repeats);
    rows.push_back(
        {"keys", "thrust::merge", n, thrust_ms, key_bytes, copy_gbps, cub_ms, same_as_reference()});
    for (const studied& s : ours) {
      merge_options opt;
      opt.algorithm = s.algorithm;
      opt.reuse_neighbor_co_rank = opt.branch_free = s.optimised;
      check(cudaMemset(result.data, 0xA5, total * sizeof(key)), "poison");
      const double ms = time_ms(
          [&] {
            return s.algorithm == merge_algorithm::automatic
                       ? corank::cuda::merge(a.data, n, b.data, n, result.data)
                       : corank::cuda::merge(opt, a.data, n, b.data, n, result.data);
          },
          s.algorithm == merge_algorithm::automatic ? repeats : std::min(repeats, 10));
      rows.push_back({"keys", s.name, n, ms, key_bytes, copy_gbps, cub_ms, same_as_reference()});
    }
    // The production kernel's one runtime parameter: the grid (default: what the GPU holds).
    for (unsigned blocks : config.automatic_grids) {
      if (n < 1000000) break;
      merge_options opt;
      opt.blocks = blocks;
      check(cudaMemset(result.data, 0xA5, total * sizeof(key)), "poison");
      const double ms = time_ms(
          [&] { return corank::cuda::merge(opt, a.data, n, b.data, n, result.data); }, repeats);
      rows.push_back({"keys", "automatic grid=" + std::to_string(blocks), n, ms, key_bytes,
                      copy_gbps, cub_ms, same_as_reference()});
    }

    if (config.pairs) {
      device_array<value> va(n), vb(n), vout(total), vref(total);
      device_array<key> kout(total);
      // Values: the key's position, so a wrong gather shows.
      thrust::sequence(thrust::device, va.data, va.data + n, value(0));
      thrust::sequence(thrust::device, vb.data, vb.data + n, value(n));
      const double pair_bytes = 2.0 * total * (sizeof(key) + sizeof(value));
      std::size_t ptemp_bytes = 0;
      check(cub::DeviceMerge::MergePairs(nullptr, ptemp_bytes, a.data, va.data, std::int64_t(n),
                                         b.data, vb.data, std::int64_t(n), reference.data,
                                         vref.data, corank::less{}),
            "cub temp size");
      device_array<unsigned char> ptemp(ptemp_bytes);
      const double pcub_ms = time_ms(
          [&] {
            return cub::DeviceMerge::MergePairs(ptemp.data, ptemp_bytes, a.data, va.data,
                                                std::int64_t(n), b.data, vb.data, std::int64_t(n),
                                                reference.data, vref.data, corank::less{});
          },
          repeats);
      const double pcopy_gbps = copy_gbps;  // bandwidth does not depend on what the bytes mean
      rows.push_back(
          {"pairs", "cub::DeviceMerge", n, pcub_ms, pair_bytes, pcopy_gbps, pcub_ms, true});
      const auto pairs_match = [&] {
        return thrust::equal(thrust::device, kout.data, kout.data + total, reference.data) &&
               thrust::equal(thrust::device, vout.data, vout.data + total, vref.data);
      };
      const double pthrust_ms = time_ms(
          [&] {
            thrust::merge_by_key(thrust::device, a.data, a.data + n, b.data, b.data + n, va.data,
                                 vb.data, kout.data, vout.data);
            return cudaGetLastError();
          },
          repeats);
      rows.push_back({"pairs", "thrust::merge_by_key", n, pthrust_ms, pair_bytes, pcopy_gbps,
                      pcub_ms, pairs_match()});
      check(cudaMemset(vout.data, 0xA5, total * sizeof(value)), "poison");
      const double pours_ms = time_ms(
          [&] {
            return corank::cuda::merge_by_key(a.data, va.data, n, b.data, vb.data, n, kout.data,
                                              vout.data);
          },
          repeats);
      rows.push_back({"pairs", "corank automatic", n, pours_ms, pair_bytes, pcopy_gbps, pcub_ms,
                      pairs_match()});
    }
  }

  // Table: ms, outputs per second, GB/s (read + written), fraction of the copy, speed-up over CUB.
  out << "GPU merge, u32 keys (pairs: u32/u32), " << prop.name << ", " << prop.multiProcessorCount
      << " SMs; median of event-timed runs; GB/s counts bytes read + written\n";
  out << std::left << std::setw(6) << "kind" << std::setw(8) << "size" << std::setw(24) << "impl"
      << std::right << std::setw(11) << "ms" << std::setw(11) << "Gelem/s" << std::setw(9) << "GB/s"
      << std::setw(8) << "%copy" << std::setw(8) << "xCUB"
      << "  ok\n";
  std::ostringstream json;
  json << "{\"device\": \"" << prop.name << "\", \"results\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const row& r = rows[i];
    const double gbps = r.bytes / r.ms / 1e6;
    all_correct = all_correct && r.correct;
    out << std::left << std::setw(6) << r.kind << std::setw(8) << human(r.per_input)
        << std::setw(24) << r.impl << std::right << std::fixed << std::setprecision(4)
        << std::setw(11) << r.ms << std::setprecision(2) << std::setw(11)
        << 2.0 * r.per_input / r.ms / 1e6 << std::setw(9) << std::setprecision(0) << gbps
        << std::setw(7) << std::setprecision(0) << 100.0 * gbps / r.copy_gbps << "%" << std::setw(8)
        << std::setprecision(2) << r.cub_ms / r.ms << "  " << (r.correct ? "yes" : "NO") << "\n";
    json << (i ? ", " : "") << "{\"kind\": \"" << r.kind << "\", \"impl\": \"" << r.impl
         << "\", \"per_input\": " << r.per_input << ", \"ms\": " << std::setprecision(6) << r.ms
         << ", \"gbps\": " << gbps << ", \"copy_gbps\": " << r.copy_gbps
         << ", \"correct\": " << (r.correct ? "true" : "false") << "}";
  }
  json << "]}\n";
  if (!config.json_path.empty()) std::ofstream(config.json_path) << json.str();
  return all_correct ? 0 : 1;
}

}  // namespace corank::bench

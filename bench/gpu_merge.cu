// See gpu_merge.hpp. Timing: device events around each call (thrust's includes its temporary
// allocation, as a user sees it). Bytes counted: every input read once, every output written once.
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/merge.h>
#include <thrust/sequence.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_merge.cuh>
#include <string>
#include <vector>

#include "corank/cuda/merge.cuh"
#include "gpu_merge.hpp"
#include "gpu_timing.cuh"
#include "progress.hpp"

namespace corank::bench {
namespace {

using key = std::uint32_t;
using value = std::uint32_t;

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

/// One of the study's kernels with a choice of its two optimisations.
struct studied_variant {
  std::string name;
  cuda::merge_options options;
};

std::vector<studied_variant> studied_variants() {
  using cuda::merge_algorithm;
  std::vector<studied_variant> variants;
  for (const auto& [kernel, algorithm] :
       {std::pair{"basic", merge_algorithm::basic}, std::pair{"tiled", merge_algorithm::tiled},
        std::pair{"circular", merge_algorithm::circular}})
    for (const auto& [reuse, branch_free, suffix] :
         {std::tuple{true, true, ""}, std::tuple{false, true, " (no neighbour reuse)"},
          std::tuple{true, false, " (branchy)"}, std::tuple{false, false, " (neither)"}}) {
      cuda::merge_options opt;
      opt.algorithm = algorithm;
      opt.reuse_neighbor_co_rank = reuse;
      opt.branch_free = branch_free;
      variants.push_back({std::string("corank ") + kernel + suffix, opt});
    }
  return variants;
}

}  // namespace

report run_gpu_merge_bench(const gpu_merge_config& config) {
  cuda::merge_options tuned;  // automatic, with the caller's tuning table if any
  tuned.tuning = config.tuning;
  report rep("gpu merge");
  rep.set_meta("keys", "u32 uniform random, sorted (pairs: u32 values)");
  rep.set_meta("timing", "CUDA events around each call");
  const std::vector<studied_variant> studied =
      config.studied ? studied_variants() : std::vector<studied_variant>{};
  const std::size_t per_size =
      5 + studied.size() + config.automatic_grids.size() + (config.pairs ? 3 : 0);
  progress bar(int(config.sizes.size() * per_size), config.show_progress);
  const timing_config& cfg = config.timing;

  for (std::size_t n : config.sizes) {
    const std::string label = "gpu merge " + human_count(n) + " per input";
    bar.step(label + ": generating inputs");
    const std::size_t total = 2 * n;
    const device_vector<key> a(sorted_uniform(n, 1)), b(sorted_uniform(n, 2));
    device_vector<key> result(total), reference(total);
    const row keys = problem_shape("keys", "gpu", n, total, 2 * total * sizeof(key));
    // Times `run` as contender `name`; `check` (after the timed runs) says whether the output held.
    const auto add = [&](const row& shape, const std::string& name, role kind,
                         const std::function<cudaError_t()>& run,
                         const std::function<bool()>& check) {
      bar.step(label + ": " + shape.group + " " + name);
      const stats time = measure_device(run, cfg);
      cuda_check(cudaDeviceSynchronize(), name.c_str());
      rep.add(shape, name, kind, time, check ? check() : true);
    };
    const auto same_as_reference = [&] {
      return thrust::equal(thrust::device, result.data, result.data + total, reference.data);
    };
    const auto poison = [&] {
      cuda_check(cudaMemset(result.data, 0xA5, total * sizeof(key)), "poison");
    };

    add(keys, "device copy", role::copy,
        [&] {
          return cudaMemcpyAsync(result.data, reference.data, total * sizeof(key),
                                 cudaMemcpyDeviceToDevice);
        },
        {});
    // CUB: the baseline and the reference output.
    std::size_t temp_bytes = 0;
    cuda_check(cub::DeviceMerge::MergeKeys(nullptr, temp_bytes, a.data, std::int64_t(n), b.data,
                                           std::int64_t(n), reference.data, corank::less{}),
               "cub temp size");
    device_vector<unsigned char> temp(temp_bytes);
    add(keys, "cub::DeviceMerge", role::baseline,
        [&] {
          return cub::DeviceMerge::MergeKeys(temp.data, temp_bytes, a.data, std::int64_t(n), b.data,
                                             std::int64_t(n), reference.data, corank::less{});
        },
        {});
    poison();
    add(
        keys, "thrust::merge", role::contender,
        [&] {
          thrust::merge(thrust::device, a.data, a.data + n, b.data, b.data + n, result.data);
          return cudaGetLastError();
        },
        same_as_reference);
    poison();
    add(
        keys, "corank automatic", role::contender,
        [&] { return cuda::merge(tuned, a.data, n, b.data, n, result.data); }, same_as_reference);
    for (const studied_variant& s : studied) {
      poison();
      add(
          keys, s.name, role::contender,
          [&] { return cuda::merge(s.options, a.data, n, b.data, n, result.data); },
          same_as_reference);
    }
    // The production kernel's one runtime parameter: the grid (default: what the GPU holds).
    for (unsigned blocks : config.automatic_grids) {
      cuda::merge_options opt = tuned;
      opt.blocks = blocks;
      poison();
      add(
          keys, "automatic grid=" + std::to_string(blocks), role::contender,
          [&] { return cuda::merge(opt, a.data, n, b.data, n, result.data); }, same_as_reference);
    }

    if (config.pairs) {
      device_vector<value> va(n), vb(n), vout(total), vref(total);
      device_vector<key>& kout = result;
      // Values: the key's position, so a wrong gather shows.
      thrust::sequence(thrust::device, va.data, va.data + n, value(0));
      thrust::sequence(thrust::device, vb.data, vb.data + n, value(n));
      const row pairs =
          problem_shape("pairs", "gpu", n, total, 2 * total * (sizeof(key) + sizeof(value)));
      std::size_t ptemp_bytes = 0;
      cuda_check(cub::DeviceMerge::MergePairs(nullptr, ptemp_bytes, a.data, va.data,
                                              std::int64_t(n), b.data, vb.data, std::int64_t(n),
                                              reference.data, vref.data, corank::less{}),
                 "cub temp size");
      device_vector<unsigned char> ptemp(ptemp_bytes);
      add(pairs, "cub::DeviceMerge", role::baseline,
          [&] {
            return cub::DeviceMerge::MergePairs(ptemp.data, ptemp_bytes, a.data, va.data,
                                                std::int64_t(n), b.data, vb.data, std::int64_t(n),
                                                reference.data, vref.data, corank::less{});
          },
          {});
      const auto pairs_match = [&] {
        return same_as_reference() &&
               thrust::equal(thrust::device, vout.data, vout.data + total, vref.data);
      };
      poison();
      add(
          pairs, "thrust::merge_by_key", role::contender,
          [&] {
            thrust::merge_by_key(thrust::device, a.data, a.data + n, b.data, b.data + n, va.data,
                                 vb.data, kout.data, vout.data);
            return cudaGetLastError();
          },
          pairs_match);
      poison();
      cuda_check(cudaMemset(vout.data, 0xA5, total * sizeof(value)), "poison");
      add(
          pairs, "corank automatic", role::contender,
          [&] {
            return cuda::merge_by_key(tuned, a.data, va.data, n, b.data, vb.data, n, kout.data,
                                      vout.data);
          },
          pairs_match);
    }
  }
  return rep;
}

}  // namespace corank::bench

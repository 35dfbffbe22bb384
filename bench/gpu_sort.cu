// See gpu_sort.hpp. Timing: device events around each sort; in-place sorts get their input restored
// (untimed) before every run; CUB's copy variants read the same input. Temporary storage is
// allocated once, outside the timing, for every implementation.
#include <thrust/equal.h>
#include <thrust/execution_policy.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/merge_sort.cuh"
#include "corank/cuda/segmented_sort.cuh"
#include "gpu_sort.hpp"
#include "gpu_timing.cuh"
#include "progress.hpp"

namespace corank::bench {
namespace {

using key = std::uint32_t;
using value = std::uint32_t;

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

row sort_shape(const std::string& group, std::size_t n, std::size_t bytes_per_item) {
  return problem_shape(group, "gpu", n, n,
                       2 * n * bytes_per_item);  // items read once, written once
}

void whole_array_sorts(const gpu_sort_config& config, report& rep) {
  progress bar(int(config.sizes.size() * 10), config.show_progress);
  const timing_config& cfg = config.timing;
  for (std::size_t n : config.sizes) {
    const std::string label = "gpu sort " + human_count(n) + ": ";
    bar.step(label + "generating input");
    const device_vector<key> input(uniform_keys(n, n)), vals_in(uniform_keys(n, n + 1));
    device_vector<key> keys(n), reference(n), out_keys(n);
    device_vector<value> vals(n), out_vals(n);
    const auto restore = [&] {
      cudaMemcpyAsync(keys.data, input.data, n * sizeof(key), cudaMemcpyDeviceToDevice);
      cudaMemcpyAsync(vals.data, vals_in.data, n * sizeof(value), cudaMemcpyDeviceToDevice);
    };
    const int items = int(n);
    std::shared_ptr<device_vector<char>> t1, t2, t3, t4;
    // corank's merge sort with a preallocated temporary, like CUB's (allocated once).
    const device_vector<char> temp_ours(cuda::stable_sort_temp_bytes<key, value>(n));
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
    const row keys_shape = sort_shape("keys", n, sizeof(key));
    const row pairs_shape = sort_shape("pairs", n, sizeof(key) + sizeof(value));
    // What to time, in order; `output` (checked against CUB radix sort's keys after the timed
    // runs) is null for the references themselves; in-place sorts get their input restored.
    struct measurement {
      const row& shape;
      const char* name;
      role kind;
      std::function<cudaError_t()> run;
      const key* output;
      bool in_place;
    };
    const std::vector<measurement> plan = {
        {keys_shape, "device copy", role::copy,
         [&] {
           return cudaMemcpyAsync(out_keys.data, input.data, n * sizeof(key),
                                  cudaMemcpyDeviceToDevice);
         },
         nullptr, false},
        {keys_shape, "cub::DeviceRadixSort", role::contender, radix_keys, nullptr, false},
        {keys_shape, "cub::DeviceMergeSort", role::baseline, merge_keys, out_keys.data, false},
        {keys_shape, "corank merge sort", role::contender,
         [&] { return cuda::stable_sort(keys.data, n, temp_ours.data, temp_ours.size); }, keys.data,
         true},
        {keys_shape, "corank bitonic sort", role::contender,
         [&] { return cuda::bitonic_sort(keys.data, n); }, keys.data, true},
        {pairs_shape, "cub::DeviceRadixSort", role::contender, radix_pairs, out_keys.data, false},
        {pairs_shape, "cub::DeviceMergeSort", role::baseline, merge_pairs, out_keys.data, false},
        {pairs_shape, "corank merge sort", role::contender,
         [&] {
           return cuda::stable_sort_by_key(keys.data, vals.data, n, temp_ours.data, temp_ours.size);
         },
         keys.data, true},
        {pairs_shape, "corank bitonic sort", role::contender,
         [&] { return cuda::bitonic_sort_by_key(keys.data, vals.data, n); }, keys.data, true},
    };
    for (const measurement& m : plan) {
      bar.step(label + m.shape.group + ": " + m.name);
      const stats time =
          measure_device(m.run, cfg, m.in_place ? std::function<void()>(restore) : nullptr);
      rep.add(m.shape, m.name, m.kind, time, !m.output || same(m.output, reference.data, n));
    }
  }
}

/// Batched small sorts: uniform segment sizes and mixed (log-uniform 1..4096).
void segmented_sorts(const gpu_sort_config& config, report& rep) {
  const std::size_t total = config.segmented_keys;
  const std::vector<int> segment_sizes = {32, 128, 1024, 0};  // 0: mixed
  progress bar(int(segment_sizes.size() * 2), config.show_progress);
  const device_vector<key> input(uniform_keys(total, 7));
  device_vector<key> keys(total), out_keys(total);
  std::mt19937_64 rng(11);
  for (int size : segment_sizes) {
    std::vector<int> offsets(1, 0);
    while (std::size_t(offsets.back()) < total) {
      const int s = size ? size : int(std::exp2(double(rng() % 1200) / 100.0));
      offsets.push_back(int(std::min<std::size_t>(total, std::size_t(offsets.back()) + s)));
    }
    const std::size_t segments = offsets.size() - 1;
    const std::string group = size ? "segments of " + std::to_string(size) : "segments mixed";
    const std::string label = "gpu segmented sort, " + group + ": ";
    const device_vector<int> d_offsets(offsets);
    std::shared_ptr<device_vector<char>> temp;
    auto cub_seg = cub_runner(
        [&](void* t, std::size_t& b) {
          return cub::DeviceSegmentedSort::SortKeys(t, b, input.data, out_keys.data,
                                                    std::int64_t(total), std::int64_t(segments),
                                                    d_offsets.data, d_offsets.data + 1);
        },
        temp);
    const row shape = sort_shape(group, total, sizeof(key));
    bar.step(label + "cub::DeviceSegmentedSort");
    rep.add(shape, "cub::DeviceSegmentedSort", role::baseline,
            measure_device(cub_seg, config.timing), true);
    bar.step(label + "corank sort_segments");
    const stats ms = measure_device(
        [&] { return cuda::sort_segments(keys.data, total, d_offsets.data, segments); },
        config.timing,
        [&] {
          cudaMemcpyAsync(keys.data, input.data, total * sizeof(key), cudaMemcpyDeviceToDevice);
        });
    rep.add(shape, "corank sort_segments", role::contender, ms,
            same(keys.data, out_keys.data, total));
  }
}

/// The study's chart: std::sort on one core against the GPU sorts, the bitonic sort through its
/// host entry (pinned memory; transfers and kernel timed apart by events) and on the device.
void against_std_sort(const gpu_sort_config& config, report& rep) {
  progress bar(int(config.cpu_sizes.size() * 4), config.show_progress);
  for (std::size_t n : config.cpu_sizes) {
    const std::string label = "gpu sort vs std::sort " + human_count(n) + ": ";
    bar.step(label + "generating input");
    const auto input = uniform_keys(n, n + 1);
    const row shape = sort_shape("u32 keys", n, sizeof(key));

    // std::sort: one run from 10M keys up (a second or more each, and steady), a few below. Its
    // output is the reference of the GPU sorts.
    bar.step(label + "std::sort");
    timing_config once;
    once.warmup_runs = 0;
    once.min_runs = 1;
    once.max_runs = n >= 10000000 ? 1 : 5;
    std::vector<key> expected(n);
    row cpu_shape = shape;
    cpu_shape.backend = "cpu";
    cpu_shape.threads = 1;
    rep.add(cpu_shape, "std::sort", role::baseline,
            measure_with_setup([&] { std::copy(input.begin(), input.end(), expected.begin()); },
                               [&] { std::sort(expected.begin(), expected.end()); }, once));

    bar.step(label + "corank bitonic_sort_host");
    key* pinned = nullptr;
    cuda_check(cudaMallocHost(&pinned, std::max<std::size_t>(n, 1) * sizeof(key)),
               "cudaMallocHost");
    std::vector<double> h2d, kernel, d2h, total;
    const auto host_run = [&] {
      std::copy(input.begin(), input.end(), pinned);
      cuda::transfer_timings t;
      cuda_check(cuda::bitonic_sort_host(pinned, n, corank::less{}, &t), "bitonic_sort_host");
      h2d.push_back(t.h2d_ms), kernel.push_back(t.kernel_ms), d2h.push_back(t.d2h_ms);
      total.push_back(double(t.h2d_ms) + t.kernel_ms + t.d2h_ms);
      return total.back();
    };
    measure_reported(host_run, config.timing);
    // measure_reported kept the timed runs only; drop the warm-up runs from the parts too.
    const std::size_t warmups = std::size_t(config.timing.warmup_runs);
    for (auto* parts : {&h2d, &kernel, &d2h, &total})
      parts->erase(parts->begin(), parts->begin() + std::ptrdiff_t(warmups));
    const bool host_ok = std::equal(expected.begin(), expected.end(), pinned);
    cudaFreeHost(pinned);
    rep.add(shape, "corank bitonic (H2D + kernel + D2H)", role::contender, summarize(total),
            host_ok);
    rep.add(shape, "corank bitonic: H2D", role::contender, summarize(h2d), host_ok);
    rep.add(shape, "corank bitonic: kernel", role::contender, summarize(kernel), host_ok);
    rep.add(shape, "corank bitonic: D2H", role::contender, summarize(d2h), host_ok);

    bar.step(label + "corank merge sort (device)");
    const device_vector<key> d_input(input);
    device_vector<key> d_keys(n);
    const device_vector<char> temp(cuda::stable_sort_temp_bytes<key, value>(n));
    const stats merge_ms = measure_device(
        [&] { return cuda::stable_sort(d_keys.data, n, temp.data, temp.size); }, config.timing,
        [&] {
          cudaMemcpyAsync(d_keys.data, d_input.data, n * sizeof(key), cudaMemcpyDeviceToDevice);
        });
    rep.add(shape, "corank merge sort (device)", role::contender, merge_ms,
            d_keys.to_host() == expected);
  }
}

}  // namespace

std::vector<report> run_gpu_sort_bench(const gpu_sort_config& config) {
  std::vector<report> reports;
  if (!config.sizes.empty()) {
    report rep("gpu sort");
    rep.set_meta("keys", "u32 uniform random (pairs: u32 values)");
    whole_array_sorts(config, rep);
    reports.push_back(std::move(rep));
  }
  if (config.segmented_keys) {
    report rep("gpu segmented sort");
    rep.set_meta("keys", "u32 uniform random, " + human_count(config.segmented_keys) + " in all");
    segmented_sorts(config, rep);
    reports.push_back(std::move(rep));
  }
  if (!config.cpu_sizes.empty()) {
    report rep("gpu sort vs std::sort");
    rep.set_meta("keys", "u32 uniform random");
    rep.set_meta("std::sort", "one core, one run from 10M keys up");
    against_std_sort(config, rep);
    reports.push_back(std::move(rep));
  }
  return reports;
}

}  // namespace corank::bench

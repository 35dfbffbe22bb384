// See gpu_sort.hpp. Timing: device events around each sort; in-place sorts get their input restored
// (untimed) before every run; CUB's copy variants read the same input. Temporary storage is
// allocated once, outside the timing, for every implementation.
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/sequence.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cub/device/device_segmented_sort.cuh>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/gpu_sort.hpp"
#include "bench/gpu_sweep.cuh"
#include "bench/gpu_timing.cuh"
#include "bench/progress.hpp"
#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/merge_sort.cuh"
#include "corank/cuda/segmented_sort.cuh"
#include "corank/study/bitonic_sort_host.cuh"

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

/// One whole-array sort problem: the input (kept), the array sorted in place, the outputs of the
/// copying sorts and the reference (the baseline CUB's merge sort).
template <class Key>
struct sort_problem {
  std::size_t n;
  device_vector<Key> input, keys, out, ref;
  device_vector<value> vals_in, vals, vout, vref;
  explicit sort_problem(std::size_t items)
      : n(items), input(n), keys(n), out(n), ref(n), vals_in(n), vals(n), vout(n), vref(n) {
    thrust::sequence(thrust::device, vals_in.data, vals_in.data + n, value(0));
  }
};

class sort_sweep {
 public:
  sort_sweep(const gpu_sort_config& config, progress& bar) : config_(config), bar_(bar) {}

  template <class Key, class Compare>
  report run(Compare comp) {
    report rep(std::string("gpu sort ") + key_type_name<Key>());
    rep.set_meta("keys", std::string(key_type_name<Key>()) +
                             " keys of the group's shape (tools/support/data/shapes.hpp);"
                             " pairs: u32 values (input positions)");
    rep.set_meta("cub", cub_meta());
    rep.set_meta("timing",
                 "CUDA events around each call; in-place sorts get their input restored untimed;"
                 " CUB's temporary storage allocated once");
    for (std::size_t n : config_.sizes) {
      sort_problem<Key> p(n);
      bool copied = false;
      for (data::key_shape shape : config_.shapes) {
        const std::string label =
            rep.experiment() + " " + data::name(shape) + " " + human_count(n) + ": ";
        bar_.step(label + "generating input");
        const auto host = data::generate_shape<Key>(n, shape, std::uint64_t(shape) * 1000 + n);
        cuda_check(cudaMemcpy(p.input.data, host.data(), n * sizeof(Key), cudaMemcpyHostToDevice),
                   "input to device");
        if (!copied) {
          rep.add(sort_shape("", n, sizeof(Key)), "device copy", role::copy,
                  measure_device(
                      [&] {
                        return cudaMemcpyAsync(p.out.data, p.input.data, n * sizeof(Key),
                                               cudaMemcpyDeviceToDevice);
                      },
                      config_.timing));
          copied = true;
        }
        const bool u32_uniform =
            std::is_same_v<Key, std::uint32_t> && shape == data::key_shape::uniform;
        contenders(rep, p, data::name(shape), 0, comp, u32_uniform);
        if (u32_uniform) contenders(rep, p, "unaligned", 1, comp, false);
      }
    }
    return rep;
  }

 private:
  /// Every contender on the problem, keys then pairs; `skew` elements off each pointer (1: the
  /// arrays misaligned for vector loads), the input then one element shorter.
  template <class Key, class Compare>
  void contenders(report& rep, sort_problem<Key>& p, const std::string& shape_name,
                  std::size_t skew, Compare comp, bool bitonic) {
    const std::size_t n = p.n - skew;
    const Key* input = p.input.data + skew;
    Key *keys = p.keys.data + skew, *out = p.out.data + skew, *ref = p.ref.data + skew;
    const value* vals_in = p.vals_in.data + skew;
    value *vals = p.vals.data + skew, *vout = p.vout.data + skew, *vref = p.vref.data + skew;
    const std::string label = rep.experiment() + " " + shape_name + " " + human_count(p.n) + ": ";
    const auto restore = [&] {
      cuda_check(cudaMemcpyAsync(keys, input, n * sizeof(Key), cudaMemcpyDeviceToDevice),
                 "restore");
      cuda_check(cudaMemcpyAsync(vals, vals_in, n * sizeof(value), cudaMemcpyDeviceToDevice),
                 "restore");
    };
    // Times `run` (in place: input restored before each run) and checks `result` (and `vresult`
    // for pairs) against the reference, byte for byte; null: the reference itself.
    const auto time = [&](const row& shape, const std::string& name, role kind,
                          const device_run& run, bool in_place, const Key* result,
                          const value* vresult) {
      bar_.step(label + shape.group + " " + name);
      if (result) poison(const_cast<Key*>(result), n * sizeof(Key));
      const stats t =
          measure_device(run, config_.timing, in_place ? std::function<void()>(restore) : nullptr);
      cuda_check(cudaDeviceSynchronize(), name.c_str());
      const bool ok = !result || (same_bytes(result, ref, n * sizeof(Key)) &&
                                  (!vresult || same_bytes(vresult, vref, n * sizeof(value))));
      rep.add(shape, name, kind, t, ok);
    };
    const device_vector<char> temp(cuda::stable_sort_temp_bytes<Key, value>(n));

    const row keys_shape = sort_shape(shape_name + " keys", p.n, sizeof(Key));
    for_each_cub([&](auto build, bool baseline) {
      using peers = cub_peers<decltype(build)::value>;
      time(keys_shape, cub_name(peers::version()) + " DeviceMergeSort",
           baseline ? role::baseline : role::contender,
           peers::merge_sort_keys(input, baseline ? ref : out, n, comp), false,
           baseline ? nullptr : out, nullptr);
      if constexpr (!std::is_same_v<Key, data::record>)
        if (baseline)
          time(keys_shape, cub_name(peers::version()) + " DeviceRadixSort", role::contender,
               peers::radix_sort_keys(input, out, n), false, out, nullptr);
    });
    time(
        keys_shape, "corank stable_sort", role::contender,
        [&] { return cuda::stable_sort(keys, n, comp); }, true, keys, nullptr);
    time(
        keys_shape, "corank stable_sort (caller's buffer)", role::contender,
        [&] { return cuda::stable_sort(keys, n, temp.data, temp.size, comp); }, true, keys,
        nullptr);
    if (bitonic)
      time(
          keys_shape, "corank bitonic_sort", role::contender,
          [&] { return cuda::bitonic_sort(keys, n, comp); }, true, keys, nullptr);

    const row pairs_shape = sort_shape(shape_name + " pairs", p.n, sizeof(Key) + sizeof(value));
    for_each_cub([&](auto build, bool baseline) {
      using peers = cub_peers<decltype(build)::value>;
      time(pairs_shape, cub_name(peers::version()) + " DeviceMergeSort",
           baseline ? role::baseline : role::contender,
           peers::merge_sort_pairs(input, vals_in, baseline ? ref : out, baseline ? vref : vout, n,
                                   comp),
           false, baseline ? nullptr : out, vout);
      if constexpr (!std::is_same_v<Key, data::record>)
        if (baseline)
          time(pairs_shape, cub_name(peers::version()) + " DeviceRadixSort", role::contender,
               peers::radix_sort_pairs(input, vals_in, out, vout, n), false, out, vout);
    });
    time(
        pairs_shape, "corank stable_sort_by_key", role::contender,
        [&] { return cuda::stable_sort_by_key(keys, vals, n, comp); }, true, keys, vals);
    time(
        pairs_shape, "corank stable_sort_by_key (caller's buffer)", role::contender,
        [&] { return cuda::stable_sort_by_key(keys, vals, n, temp.data, temp.size, comp); }, true,
        keys, vals);
    // The bitonic sort is not stable: equal keys may carry their values in any order, so its
    // keys alone are checked.
    if (bitonic)
      time(
          pairs_shape, "corank bitonic_sort_by_key", role::contender,
          [&] { return cuda::bitonic_sort_by_key(keys, vals, n, comp); }, true, keys, nullptr);
  }

  const gpu_sort_config& config_;
  progress& bar_;
};

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
      study::cuda::transfer_timings t;
      cuda_check(study::cuda::bitonic_sort_host(pinned, n, corank::less{}, &t),
                 "bitonic_sort_host");
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
    progress bar(int(config.sizes.size() * config.shapes.size() * config.key_types.size() * 10),
                 config.show_progress);
    sort_sweep sweep(config, bar);
    for (const std::string& type : config.key_types) {
      reports.push_back(
          with_key_type(type, [&](auto key, auto comp) { return sweep.run<decltype(key)>(comp); }));
    }
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

// See gpu_segmented_sort.hpp. Timing: device events around each call (plain calls: corank's
// temporary storage comes from its own stream-ordered allocations inside the timing, CUB's is
// allocated once outside it); corank sorts in place and gets its input restored (untimed) before
// every run; CUB's copy variants read the same input.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/gpu_segmented_sort.hpp"
#include "bench/gpu_sweep.cuh"
#include "bench/gpu_timing.cuh"
#include "bench/progress.hpp"
#include "corank/cuda/merge_sort.cuh"
#include "corank/cuda/segmented_sort.cuh"

namespace corank::bench {

std::vector<std::size_t> default_segment_lengths() {
  std::vector<std::size_t> lengths;
  for (std::size_t l = 1; l <= 64; ++l) lengths.push_back(l);
  for (int k = 7; k <= 20; ++k)
    for (std::size_t d : {std::size_t(0), std::size_t(1), std::size_t(2)})
      lengths.push_back((std::size_t(1) << k) - 1 + d);
  return lengths;
}

namespace {

using key = std::uint32_t;
using value = std::uint32_t;
using offset = std::int64_t;
struct merge_windows_only : cuda::tuning::stable_segmented_policy<sizeof(key), 0> {
  static constexpr unsigned rank_sort_max = 0;
};

/// Segment lengths of a mixed distribution, `total` keys in all (the last one cut to fit).
std::vector<std::size_t> mixed_lengths(const std::string& kind, std::size_t total,
                                       std::mt19937_64& rng) {
  std::vector<std::size_t> sizes;
  std::uniform_real_distribution<double> u(0, 1);
  std::size_t sum = 0;
  while (sum < total) {
    std::size_t s = 0;
    if (kind == "uniform 1..64")
      s = 1 + rng() % 64;
    else if (kind == "uniform 1..4096")
      s = 1 + rng() % 4096;
    else if (kind == "log-uniform 1..4096")
      s = std::size_t(std::exp(u(rng) * std::log(4097.0)));
    else if (kind == "power law (alpha 1.5)")
      s = std::min<std::size_t>(total, std::size_t(std::pow(1 - u(rng), -1 / 0.5)));
    else if (kind == "one of half the keys among 1..8")
      s = sizes.size() == 1000 ? total / 2 : 1 + rng() % 8;
    else  // "half empty, others 1..200"
      s = rng() % 2 ? 0 : 1 + rng() % 200;
    s = std::max<std::size_t>(s, kind.rfind("half empty", 0) == 0 ? 0 : 1);
    s = std::min(s, total - sum);
    sizes.push_back(s), sum += s;
  }
  return sizes;
}

std::vector<offset> offsets_of(const std::vector<std::size_t>& sizes) {
  std::vector<offset> o(1, 0);
  o.reserve(sizes.size() + 1);
  for (std::size_t s : sizes) o.push_back(o.back() + offset(s));
  return o;
}

struct sweep {
  const gpu_segmented_sort_config& config;
  report& rep;
  const device_vector<key>& input;
  const device_vector<value>& input_vals;
  device_vector<key> keys, out_keys;
  device_vector<value> vals, out_vals;

  sweep(const gpu_segmented_sort_config& c, report& r, const device_vector<key>& in,
        const device_vector<value>& in_vals)
      : config(c),
        rep(r),
        input(in),
        input_vals(in_vals),
        keys(c.total_keys),
        out_keys(c.total_keys),
        vals(c.total_keys),
        out_vals(c.total_keys) {}

  void restore(bool with_values) {
    const std::size_t n = config.total_keys;
    cudaMemcpyAsync(keys.data, input.data, n * sizeof(key), cudaMemcpyDeviceToDevice);
    if (with_values)
      cudaMemcpyAsync(vals.data, input_vals.data, n * sizeof(value), cudaMemcpyDeviceToDevice);
  }

  /// Prints the rows of the last shape as one line on stderr (a long sweep cut short keeps them).
  void print_last(std::size_t first_row) const {
    std::string line;
    for (std::size_t i = first_row; i < rep.rows().size(); ++i) {
      const row& r = rep.rows()[i];
      char ms[64];
      std::snprintf(ms, sizeof ms, " %.4f%s", r.time.median_ms, r.verified ? "" : " (WRONG)");
      line += (i == first_row ? r.group + ":" : ",") + " " + r.contender + ms;
    }
    std::fprintf(stderr, "%s\n", line.c_str());
  }

  /// One shape: the CUBs first (the first one's output is the reference), then corank's sorts.
  void run(const std::string& group, const std::vector<offset>& offsets, bool equal, bool pairs) {
    const std::size_t n = config.total_keys, segments = offsets.size() - 1;
    const std::size_t first_row = rep.rows().size();
    const device_vector<offset> d_offsets(offsets);
    const offset* begins = d_offsets.data;
    const row shape = problem_shape((pairs ? "pairs, " : "keys, ") + group, "gpu", n, n,
                                    2 * n * (sizeof(key) + (pairs ? sizeof(value) : 0)));
    device_vector<key> cub_out(n);
    device_vector<value> cub_vals(n);
    for_each_cub([&](auto build, bool baseline) {
      using peers = cub_peers<decltype(build)::value>;
      const std::string cub = cub_name(peers::version());
      key* out = baseline ? out_keys.data : cub_out.data;
      if (!baseline) poison(out, n * sizeof(key));
      const device_run sort =
          pairs ? peers::segmented_sort_pairs(input.data, input_vals.data, out,
                                              baseline ? out_vals.data : cub_vals.data, n, begins,
                                              segments)
                : peers::segmented_sort_keys(input.data, out, n, begins, segments);
      const stats ms = measure_device(sort, config.timing);
      rep.add(shape,
              cub + (pairs ? " DeviceSegmentedSort::SortPairs" : " DeviceSegmentedSort::SortKeys"),
              baseline ? role::baseline : role::contender, ms,
              baseline || same_bytes(out, out_keys.data, n * sizeof(key)));
      // Equal lengths from 127 keys up (below, a block per segment of a few keys takes 0.1 to 1
      // s a call), the newest CUB only.
      if (baseline && equal && !pairs && n / segments >= 127) {
        poison(cub_out.data, n * sizeof(key));
        const stats radix_ms = measure_device(
            peers::segmented_radix_sort_keys(input.data, cub_out.data, n, begins, segments),
            config.timing);
        rep.add(shape, cub + " DeviceSegmentedRadixSort::SortKeys", role::contender, radix_ms,
                same_bytes(cub_out.data, out_keys.data, n * sizeof(key)));
      }
    });
    const auto corank = [&](const std::string& name, const std::function<cudaError_t()>& call) {
      const stats ms = measure_device(call, config.timing, [&] { restore(pairs); });
      // Pairs: the keys must match; CUB's segmented sort of pairs is not stable, so values are
      // checked to travel with their keys only through the keys (u32 keys, values = keys' input
      // positions would need a host pass; the test suite checks that).
      rep.add(shape, name, role::contender, ms,
              same_bytes(keys.data, out_keys.data, n * sizeof(key)));
    };
    if (pairs) {
      corank("corank stable_sort_segments_by_key", [&] {
        return cuda::stable_sort_segments_by_key(keys.data, vals.data, n, begins, segments);
      });
      corank("corank sort_segments_by_key",
             [&] { return cuda::sort_segments_by_key(keys.data, vals.data, n, begins, segments); });
    } else {
      corank("corank stable_sort_segments",
             [&] { return cuda::stable_sort_segments(keys.data, n, begins, segments); });
      corank("corank sort_segments",
             [&] { return cuda::sort_segments(keys.data, n, begins, segments); });
      // The stable sort without its rank-sorted short windows (every window merges), to show
      // what they bring.
      corank("corank stable_sort_segments (merge windows only)", [&] {
        return cuda::detail::stable_sort_segments_impl<key, cuda::block::no_value, offset, less,
                                                       merge_windows_only>(
            {}, keys.data, nullptr, n, begins, segments, less{}, cudaStream_t(0));
      });
    }
    print_last(first_row);
  }
};

}  // namespace

report run_gpu_segmented_sort_bench(const gpu_segmented_sort_config& config) {
  report rep("gpu segmented sort sweep");
  const std::size_t n = config.total_keys;
  rep.set_meta("keys",
               "u32 uniform random, " + human_count(n) + " in all per shape; offsets int64");
  rep.set_meta("timing", "CUDA events per plain call (corank allocates its temporary inside)");
  rep.set_meta("cub", cub_meta());
  const std::vector<std::size_t> lengths =
      config.lengths.empty() ? default_segment_lengths() : config.lengths;
  const std::vector<std::string> kinds = {"uniform 1..64",
                                          "uniform 1..4096",
                                          "log-uniform 1..4096",
                                          "power law (alpha 1.5)",
                                          "one of half the keys among 1..8",
                                          "half empty, others 1..200"};
  const std::vector<std::size_t> pair_lengths = {2, 16, 33, 100, 1000, 5000, 100000};
  const int shapes =
      int(lengths.size() + (config.mixed ? kinds.size() : 0) +
          (config.pairs ? pair_lengths.size() + kinds.size() : 0) + config.single_sizes.size());
  progress bar(shapes, config.show_progress);
  const device_vector<key> input(data::generate_shape<key>(n, data::key_shape::uniform, 7));
  std::vector<value> positions(n);
  for (std::size_t i = 0; i < n; ++i) positions[i] = value(i);
  const device_vector<value> input_vals(positions);
  sweep s(config, rep, input, input_vals);
  const auto equal_offsets = [&](std::size_t length) {
    std::vector<offset> o((n + length - 1) / length + 1);
    for (std::size_t i = 0; i + 1 < o.size(); ++i) o[i] = offset(i * length);
    o.back() = offset(n);
    return o;
  };
  for (std::size_t length : lengths) {
    bar.step("segmented sort, length " + std::to_string(length));
    s.run("length " + std::to_string(length), equal_offsets(length), true, false);
  }
  std::mt19937_64 rng(11);
  if (config.mixed)
    for (const std::string& kind : kinds) {
      bar.step("segmented sort, " + kind);
      s.run(kind, offsets_of(mixed_lengths(kind, n, rng)), false, false);
    }
  if (config.pairs) {
    for (std::size_t length : pair_lengths) {
      bar.step("segmented sort pairs, length " + std::to_string(length));
      s.run("length " + std::to_string(length), equal_offsets(length), true, true);
    }
    for (const std::string& kind : kinds) {
      bar.step("segmented sort pairs, " + kind);
      s.run(kind, offsets_of(mixed_lengths(kind, n, rng)), false, true);
    }
  }
  // One segment of m keys against the whole-array stable sort of m keys.
  for (std::size_t m : config.single_sizes) {
    if (m > n) continue;
    bar.step("one segment of " + human_count(m));
    const row shape =
        problem_shape("one segment of " + human_count(m), "gpu", m, m, 2 * m * sizeof(key));
    const device_vector<offset> d_offsets(std::vector<offset>{0, offset(m)});
    const auto restore = [&] {
      cudaMemcpyAsync(s.keys.data, input.data, m * sizeof(key), cudaMemcpyDeviceToDevice);
    };
    rep.add(
        shape, "corank stable_sort (whole array)", role::baseline,
        measure_device([&] { return cuda::stable_sort(s.keys.data, m); }, config.timing, restore),
        true);
    cuda_check(cudaMemcpy(s.out_keys.data, s.keys.data, m * sizeof(key), cudaMemcpyDeviceToDevice),
               "copy");
    for (int stable = 1; stable >= 0; --stable) {
      const stats ms = measure_device(
          [&] {
            return stable ? cuda::stable_sort_segments(s.keys.data, m, d_offsets.data, 1)
                          : cuda::sort_segments(s.keys.data, m, d_offsets.data, 1);
          },
          config.timing, restore);
      rep.add(shape, stable ? "corank stable_sort_segments" : "corank sort_segments",
              role::contender, ms, same_bytes(s.keys.data, s.out_keys.data, m * sizeof(key)));
    }
    s.print_last(rep.rows().size() - 3);
  }
  return rep;
}

}  // namespace corank::bench

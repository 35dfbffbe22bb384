// See gpu_segmented_scan.hpp. Timing: device events around each call (the spmv rows: around the
// study's whole iteration count).
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>

#include <cmath>
#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <optional>
#include <string>
#include <vector>

#include "bench/gpu_segmented_scan.hpp"
#include "bench/gpu_sweep.cuh"
#include "bench/gpu_timing.cuh"
#include "bench/progress.hpp"
#include "corank/cuda/segmented_scan.cuh"
#include "corank/study/segmented_scan.cuh"
#include "support/data/matrix_like.hpp"
#include "support/data/shapes.hpp"

namespace corank::bench {
namespace {

using corank::study::cuda::segmented_scan_algorithm;
using offset_t = std::int32_t;

std::uint64_t next(std::uint64_t& x) {
  x ^= x << 13, x ^= x >> 7, x ^= x << 17;
  return x;
}

/// Adds the copy row: `bytes` copied device to device (GB/s count them read and written).
void add_device_copy(report& rep, std::size_t bytes, const timing_config& cfg) {
  device_vector<char> a(bytes), b(bytes);
  rep.add(
      problem_shape("", "gpu", bytes / sizeof(float), bytes / sizeof(float), 2 * bytes),
      "device copy", role::copy,
      measure_device(
          [&] { return cudaMemcpyAsync(b.data, a.data, bytes, cudaMemcpyDeviceToDevice); }, cfg));
}

/// Max-norm error of got against want, relative to the largest |want|.
double relative_error(const std::vector<float>& got, const std::vector<double>& want) {
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    err = std::max(err, std::abs(double(got[i]) - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  return err / (scale > 0 ? scale : 1.0);
}

struct multiply {
  __host__ __device__ float operator()(const thrust::tuple<float, float>& t) const {
    return thrust::get<0>(t) * thrust::get<1>(t);
  }
};

/// cub::DeviceScan::InclusiveScanByKey with its temporary storage kept between calls.
template <class ValueIt>
struct cub_scan_by_key {
  const offset_t* keys;
  ValueIt in;
  float* out;
  std::size_t n;
  std::size_t temp_bytes = 0;
  cub_scan_by_key(const offset_t* k, ValueIt i, float* o, std::size_t count)
      : keys(k), in(i), out(o), n(count) {
    cuda_check(cub::DeviceScan::InclusiveScanByKey(nullptr, temp_bytes, keys, in, out,
                                                   ::cuda::std::plus<>{}, n),
               "cub temp size");
  }
  cudaError_t operator()(device_vector<char>& storage) {
    return cub::DeviceScan::InclusiveScanByKey(storage.data, temp_bytes, keys, in, out,
                                               ::cuda::std::plus<>{}, n);
  }
};

/// corank's kernels: the production one, and the study's two when asked; named for the segmented
/// scan and for the sparse-matrix iteration (where a segment is a row).
struct kernel_choice {
  std::optional<segmented_scan_algorithm> studied;  ///< none: the production kernel
  const char* scan_name;
  const char* spmv_name;
};

std::vector<kernel_choice> algorithms(bool studied) {
  std::vector<kernel_choice> all = {
      {std::nullopt, "corank single-pass", "corank fused"},
      {segmented_scan_algorithm::warp_per_segment, "warp per segment", "warp per row"},
      {segmented_scan_algorithm::thread_per_segment, "thread per segment", "thread per row"}};
  if (!studied) all.resize(1);
  return all;
}

}  // namespace

namespace {

/// One case of the sweep on the values `in`: its segments (offsets of type Offset), every
/// contender, each output checked byte for byte against the baseline's (the values are small
/// integers, so every order of the additions gives the same floats).
template <class Offset>
void scan_case(const gpu_scan_bench_config& config, const segment_case& c, const float* in,
               float* out, float* ref, progress& bar, report& rep) {
  const std::size_t n = config.n;
  const std::string group =
      data::segment_shape_name(c.shape, c.length) + (c.wide_offsets ? ", i64" : "");
  const std::string label = "gpu segmented scan, " + group + ": ";
  bar.step(label + "generating segments");
  const std::vector<Offset> offsets =
      data::generate_segments<Offset>(n, c.shape, c.length, std::uint64_t(c.length) + 7);
  const std::size_t p = offsets.size() - 1;
  const device_vector<Offset> d_off(offsets);
  // InclusiveScanByKey's key per element: its segment's index (the number of segment ends at or
  // before it).
  device_vector<Offset> keys(n);
  thrust::upper_bound(thrust::device, d_off.data + 1, d_off.data + p + 1,
                      thrust::counting_iterator<Offset>(0),
                      thrust::counting_iterator<Offset>(Offset(n)), keys.data);
  const row shape =
      problem_shape(group, "gpu", n, n, 2 * n * sizeof(float) + (p + 1) * sizeof(Offset));
  const auto time = [&](const std::string& name, role kind, const device_run& run, float* dest) {
    bar.step(label + name);
    poison(dest, n * sizeof(float));
    const stats t = measure_device(run, config.sweep_timing);
    cuda_check(cudaDeviceSynchronize(), name.c_str());
    rep.add(shape, name, kind, t, dest == ref || same_bytes(dest, ref, n * sizeof(float)));
  };
  for_each_cub([&](auto build, bool baseline) {
    using peers = cub_peers<decltype(build)::value>;
    const std::string cub = cub_name(peers::version());
    time(cub + " InclusiveScanByKey", baseline ? role::baseline : role::contender,
         peers::scan_by_key(keys.data, in, baseline ? ref : out, n), baseline ? ref : out);
    if (device_run segmented = peers::segmented_sum(in, out, d_off.data, p))
      time(cub + " DeviceSegmentedScan", role::contender, segmented, out);
  });
  time(
      "corank segmented_inclusive_scan", role::contender,
      [&] { return cuda::segmented_inclusive_scan(in, n, d_off.data, p, out); }, out);
  const std::size_t temp_bytes = cuda::segmented_scan_temp_bytes<float>(n);
  const device_vector<char> temp(temp_bytes);
  time(
      "corank segmented_inclusive_scan (caller's buffer)", role::contender,
      [&] {
        return cuda::segmented_inclusive_scan(in, n, d_off.data, p, out, temp.data, temp_bytes);
      },
      out);
  // The study's kernels, where a segment is short enough for a thread or a warp.
  if (config.studied && c.shape == data::segment_shape::uniform && c.length <= 1024 &&
      !c.wide_offsets)
    for (const kernel_choice& k : algorithms(true))
      if (k.studied)
        time(
            k.scan_name, role::contender,
            [&] {
              return study::cuda::segmented_inclusive_scan(*k.studied, in, n, d_off.data, p, out);
            },
            out);
}

}  // namespace

report run_gpu_segmented_scan_bench(const gpu_scan_bench_config& config) {
  report rep("gpu segmented scan");
  rep.set_meta("values", "f32 in {-1, 0, 1} (exact sums: outputs compared byte for byte)");
  rep.set_meta("segments",
               "CSR offsets, int32 (groups ending ', i64': int64); tools/support/data/shapes.hpp");
  rep.set_meta("cub", cub_meta());
  rep.set_meta("timing", "CUDA events around each call; CUB's temporary storage allocated once");
  const std::size_t n = config.n;
  progress bar(int(1 + config.cases.size() * 7), config.show_progress);
  bar.step("gpu segmented scan: device copy");
  add_device_copy(rep, n * sizeof(float), config.sweep_timing);
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = float(int(data::mix(i) % 3) - 1);
  const device_vector<float> d_in(values);
  device_vector<float> d_out(n), d_ref(n);
  for (const segment_case& c : config.cases) {
    if (c.wide_offsets)
      scan_case<std::int64_t>(config, c, d_in.data, d_out.data, d_ref.data, bar, rep);
    else
      scan_case<std::int32_t>(config, c, d_in.data, d_out.data, d_ref.data, bar, rep);
  }
  return rep;
}

report run_gpu_spmv_scan_bench(const gpu_scan_bench_config& config) {
  report rep("gpu spmv-scan");
  rep.set_meta("iteration", "a = segmented scan of a * xbar by row, f32, the study's counts");
  rep.set_meta("matrices", "stand-ins of the study's (corank gen matrix --like NAME)");
  std::vector<std::string> names = config.matrices;
  if (names.empty())
    for (const auto& s : data::study_matrices()) names.push_back(s.name);
  const timing_config& cfg = config.timing;
  progress bar(int(1 + names.size() * (4 + algorithms(config.studied).size())),
               config.show_progress);
  bar.step("gpu spmv-scan: device copy");
  add_device_copy(rep, std::size_t(256) << 20, cfg);
  for (const auto& name : names) {
    const std::string label = "gpu spmv-scan " + name + ": ";
    bar.step(label + "generating the matrix");
    const auto& matrix_shape = data::find_matrix(name);
    const auto m = data::generate_matrix_like(matrix_shape, 1);
    const std::size_t n = m.nnz(), p = m.rows;
    const int iters = matrix_shape.study_iterations;
    std::uint64_t x = 0x2545F4914F6CDD1Dull;
    std::vector<float> xv(m.cols), a(n), xbar(n);
    for (auto& v : xv) v = float(double(next(x) >> 11) / 9007199254740992.0 * 2 - 1);
    std::vector<offset_t> offsets(p + 1), keys(n);
    for (std::size_t r = 0; r <= p; ++r) offsets[r] = offset_t(m.row_offsets[r]);
    for (std::size_t r = 0; r < p; ++r)
      for (auto k = m.row_offsets[r]; k < m.row_offsets[r + 1]; ++k)
        keys[std::size_t(k)] = offset_t(r);
    for (std::size_t k = 0; k < n; ++k) {
      a[k] = float(m.values[k]);
      xbar[k] = xv[std::size_t(m.col_indices[k])];
    }
    // The check: three iterations in double on the host (a two-step pass and a one-step pass
    // where steps are paired).
    constexpr int check_steps = 3;
    std::vector<double> want(a.begin(), a.end());
    for (int step = 0; step < check_steps; ++step)
      for (std::size_t r = 0; r < p; ++r) {
        double acc = 0;
        for (auto k = std::size_t(m.row_offsets[r]); k < std::size_t(m.row_offsets[r + 1]); ++k)
          want[k] = acc = acc + want[k] * double(xbar[k]);
      }
    const device_vector<float> d_a0(a), d_x(xbar);
    device_vector<float> d_a(a), d_b(n);
    const device_vector<offset_t> d_off(offsets), d_keys(keys);
    const row shape = problem_shape(name, "gpu", n, n, 12 * n, iters);

    // CUB: a transform iterator (a * xbar) feeding InclusiveScanByKey, ping-pong buffers.
    bar.step(label + "CUB transform + InclusiveScanByKey");
    auto product = thrust::make_transform_iterator(
        thrust::make_zip_iterator(thrust::make_tuple(d_a.data, d_x.data)), multiply{});
    auto product_b = thrust::make_transform_iterator(
        thrust::make_zip_iterator(thrust::make_tuple(d_b.data, d_x.data)), multiply{});
    cub_scan_by_key<decltype(product)> cub_ab(d_keys.data, product, d_b.data, n);
    cub_scan_by_key<decltype(product)> cub_ba(d_keys.data, product_b, d_a.data, n);
    device_vector<char> temp(std::max(cub_ab.temp_bytes, cub_ba.temp_bytes));
    const stats cub_time = measure_device(
        [&] {
          for (int i = 0; i < iters; ++i) {
            const cudaError_t e = i % 2 ? cub_ba(temp) : cub_ab(temp);
            if (e != cudaSuccess) return e;
          }
          return cudaSuccess;
        },
        cfg);
    rep.add(shape, "CUB transform + InclusiveScanByKey", role::baseline, cub_time);
    const auto restore = [&] {
      cuda_check(cudaMemcpyAsync(d_b.data, d_a0.data, n * sizeof(float), cudaMemcpyDeviceToDevice),
                 "restore");
    };
    // The study's iteration count in one call, and (production kernel only) the same in one call
    // with one step per pass (each step moves the data), and as one call per step, which neither
    // reuses the tiles' heads nor overlaps a step with the one before.
    const auto contender = [&](const std::string& name,
                               std::optional<segmented_scan_algorithm> studied, bool call_per_step,
                               int steps_per_pass = 0) {
      bar.step(label + name);
      cuda::segmented_scan_options opt;
      opt.steps_per_pass = steps_per_pass;
      const auto iterate = [&](int steps) {
        if (studied)
          return study::cuda::scaled_segmented_scan_iterations(*studied, d_b.data, d_x.data, n,
                                                               d_off.data, p, steps);
        if (!call_per_step)
          return cuda::scaled_segmented_scan_iterations(opt, d_b.data, d_x.data, n, d_off.data, p,
                                                        steps);
        for (int i = 0; i < steps; ++i)
          if (const cudaError_t e = cuda::scaled_segmented_inclusive_scan(
                  opt, d_b.data, d_x.data, n, d_off.data, p, d_b.data))
            return e;
        return cudaSuccess;
      };
      restore();
      cuda_check(iterate(check_steps), "check run");
      const bool ok = relative_error(d_b.to_host(), want) < 1e-5;
      const stats time = measure_device([&] { return iterate(iters); }, cfg, restore);
      rep.add(shape, name, role::contender, time, ok);
    };
    for (const kernel_choice& k : algorithms(config.studied))
      contender(k.spmv_name, k.studied, false);
    contender("corank fused, one step per pass", std::nullopt, false, 1);
    contender("corank fused, a call per step", std::nullopt, true);
  }
  return rep;
}

}  // namespace corank::bench

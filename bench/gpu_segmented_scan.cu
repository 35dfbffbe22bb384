// See gpu_segmented_scan.hpp. Bytes counted: ours reads values (and xbar) and the offsets and
// writes values; CUB's scan-by-key also reads a 4-byte key per element.
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>

#include <cmath>
#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "corank/cuda/segmented_scan.cuh"
#include "data/matrix_like.hpp"
#include "gpu_segmented_scan.hpp"
#include "gpu_timing.cuh"

namespace corank::bench {
namespace {

/// A device array filled from, and read back to, the host.
template <class T>
struct device_array : device_vector<T> {
  using device_vector<T>::device_vector;
  explicit device_array(const std::vector<T>& host) : device_vector<T>(host.size()) {
    cuda_check(cudaMemcpy(this->data, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
               "copy to device");
  }
  std::vector<T> to_host() const {
    std::vector<T> h(this->size);
    cuda_check(cudaMemcpy(h.data(), this->data, h.size() * sizeof(T), cudaMemcpyDeviceToHost),
               "copy to host");
    return h;
  }
};

using corank::cuda::segmented_scan_algorithm;
using offset_t = std::int32_t;

struct row {
  std::string group, impl;
  std::size_t n;
  int iterations;
  double ms, bytes, reference_ms;  // reference: CUB (segmented) or the bandwidth floor (spmv)
  bool correct;
};

std::uint64_t next(std::uint64_t& x) {
  x ^= x << 13, x ^= x >> 7, x ^= x << 17;
  return x;
}

double copy_gbps(std::size_t bytes, int repeats) {
  device_array<char> a(bytes), b(bytes);
  const double ms = median_ms(
      [&] { return cudaMemcpyAsync(b.data, a.data, bytes, cudaMemcpyDeviceToDevice); }, repeats);
  return 2.0 * double(bytes) / ms / 1e6;
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
  device_array<char> temp{0};
  std::size_t temp_bytes = 0;
  cub_scan_by_key(const offset_t* k, ValueIt i, float* o, std::size_t count)
      : keys(k), in(i), out(o), n(count) {
    cuda_check(cub::DeviceScan::InclusiveScanByKey(nullptr, temp_bytes, keys, in, out,
                                                   ::cuda::std::plus<>{}, n),
               "cub temp size");
  }
  cudaError_t operator()(device_array<char>& storage) {
    return cub::DeviceScan::InclusiveScanByKey(storage.data, temp_bytes, keys, in, out,
                                               ::cuda::std::plus<>{}, n);
  }
};

void print(const std::vector<row>& rows, const char* reference_name, const std::string& title,
           double copy, std::ostream& out, const std::string& json_path) {
  out << title << "\n";
  out << std::left << std::setw(17) << "input" << std::setw(22) << "impl" << std::right
      << std::setw(6) << "iters" << std::setw(11) << "ms" << std::setw(11) << "ms/iter"
      << std::setw(8) << "GB/s" << std::setw(7) << "%copy" << std::setw(9) << reference_name
      << "  ok\n";
  std::ostringstream json;
  json << "{\"copy_gbps\": " << copy << ", \"results\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const row& r = rows[i];
    const double per_iter = r.ms / r.iterations, gbps = r.bytes / per_iter / 1e6;
    out << std::left << std::setw(17) << r.group << std::setw(22) << r.impl << std::right
        << std::setw(6) << r.iterations << std::fixed << std::setprecision(4) << std::setw(11)
        << r.ms << std::setw(11) << per_iter << std::setprecision(0) << std::setw(8) << gbps
        << std::setw(6) << 100 * gbps / copy << "%" << std::setprecision(2) << std::setw(9)
        << r.reference_ms / r.ms << "  " << (r.correct ? "yes" : "NO") << "\n";
    json << (i ? ", " : "") << "{\"input\": \"" << r.group << "\", \"impl\": \"" << r.impl
         << "\", \"n\": " << r.n << ", \"iterations\": " << r.iterations
         << ", \"ms\": " << std::setprecision(6) << r.ms << ", \"bytes_per_iteration\": " << r.bytes
         << ", \"gbps\": " << gbps << ", \"correct\": " << (r.correct ? "true" : "false") << "}";
  }
  json << "]}\n";
  if (!json_path.empty()) std::ofstream(json_path) << json.str();
}

const std::vector<std::pair<segmented_scan_algorithm, const char*>>& algorithms(bool studied) {
  static const std::vector<std::pair<segmented_scan_algorithm, const char*>> all = {
      {segmented_scan_algorithm::automatic, "corank single-pass"},
      {segmented_scan_algorithm::warp_per_segment, "warp per segment"},
      {segmented_scan_algorithm::thread_per_segment, "thread per segment"}};
  static const std::vector<std::pair<segmented_scan_algorithm, const char*>> ours = {all[0]};
  return studied ? all : ours;
}

}  // namespace

int run_gpu_segmented_scan_bench(const gpu_scan_bench_config& config, std::ostream& out) {
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  const std::size_t n = config.n;
  const double copy = copy_gbps(n * sizeof(float), config.repeats);
  std::vector<row> rows;
  bool all_ok = true;
  std::vector<float> values(n);
  std::uint64_t x = 88172645463325252ull;
  for (auto& v : values) v = float(double(next(x) >> 11) / 9007199254740992.0 * 2 - 1);
  device_array<float> d_in(values), d_out(n), d_cub(n);
  for (double mean : config.mean_lengths) {
    // Lengths uniform in [1, 2 mean - 1]: mean `mean`.
    std::vector<offset_t> offsets{0};
    std::vector<offset_t> keys(n);
    const auto span = std::uint64_t(std::max(1.0, 2 * mean - 1));
    for (std::size_t pos = 0; pos < n;) {
      const std::size_t len = std::min<std::size_t>(n - pos, 1 + next(x) % span);
      std::fill(keys.begin() + std::ptrdiff_t(pos), keys.begin() + std::ptrdiff_t(pos + len),
                offset_t(offsets.size() - 1));
      pos += len;
      offsets.push_back(offset_t(pos));
    }
    const std::size_t p = offsets.size() - 1;
    device_array<offset_t> d_off(offsets), d_keys(keys);
    cub_scan_by_key<const float*> cub(d_keys.data, d_in.data, d_cub.data, n);
    device_array<char> temp(cub.temp_bytes);
    const double cub_ms = median_ms([&] { return cub(temp); }, config.repeats);
    const auto want = d_cub.to_host();
    std::vector<double> want_d(want.begin(), want.end());
    const std::string group = "mean len " + std::to_string(int(mean));
    rows.push_back(
        {group, "copy (D2D)", n, 1, 2.0 * n * 4 / copy / 1e6, 2.0 * n * 4, cub_ms, true});
    rows.push_back({group, "CUB ScanByKey", n, 1, cub_ms, 12.0 * n, cub_ms, true});
    for (const auto& [alg, name] : algorithms(config.studied)) {
      cuda::segmented_scan_options opt;
      opt.algorithm = alg;
      cuda::segmented_scan_workspace ws;
      opt.workspace = &ws;
      cuda_check(cudaMemset(d_out.data, 0xA5, n * 4), "poison");
      const double ms = median_ms(
          [&] {
            return cuda::segmented_inclusive_scan(opt, d_in.data, d_out.data, n, d_off.data, p);
          },
          alg == segmented_scan_algorithm::automatic ? config.repeats : 3);
      const bool ok = relative_error(d_out.to_host(), want_d) < 1e-5;
      all_ok = all_ok && ok;
      rows.push_back({group, name, n, 1, ms, 8.0 * n + 4.0 * (p + 1), cub_ms, ok});
    }
    // Without a workspace: the look-back state is allocated and cleared in the stream each call.
    const double ms = median_ms(
        [&] { return cuda::segmented_inclusive_scan(d_in.data, d_out.data, n, d_off.data, p); },
        config.repeats);
    rows.push_back(
        {group, "corank (no workspace)", n, 1, ms, 8.0 * n + 4.0 * (p + 1), cub_ms, true});
  }
  print(rows, "xCUB",
        "Segmented inclusive scan, f32, int32 offsets, " + std::to_string(n) + " values, " +
            prop.name +
            "; median of event-timed runs; GB/s counts bytes read + written "
            "(ours: values + offsets; CUB: values + keys)",
        copy, out, config.json_path);
  return all_ok ? 0 : 1;
}

int run_gpu_spmv_scan_bench(const gpu_scan_bench_config& config, std::ostream& out) {
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  const double copy = copy_gbps(std::size_t(256) << 20, config.repeats);
  std::vector<row> rows;
  bool all_ok = true;
  std::vector<std::string> names = config.matrices;
  if (names.empty())
    for (const auto& s : data::study_matrices()) names.push_back(s.name);
  for (const auto& name : names) {
    const auto& shape = data::find_matrix(name);
    const auto m = data::generate_matrix_like(shape, 1);
    const std::size_t n = m.nnz(), p = m.rows;
    const int iters = shape.study_iterations;
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
    // One iteration in double on the host: the check.
    std::vector<double> want(n);
    for (std::size_t r = 0; r < p; ++r) {
      double acc = 0;
      for (auto k = std::size_t(m.row_offsets[r]); k < std::size_t(m.row_offsets[r + 1]); ++k)
        want[k] = acc = acc + double(a[k]) * double(xbar[k]);
    }
    device_array<float> d_a(a), d_x(xbar), d_b(n);
    device_array<offset_t> d_off(offsets), d_keys(keys);
    const double floor_ms = 12.0 * n / copy / 1e6 * iters;
    rows.push_back({name, "12 B/elem floor", n, iters, floor_ms, 12.0 * n, floor_ms, true});
    // CUB: a transform iterator (a * xbar) feeding InclusiveScanByKey, ping-pong buffers.
    auto product = thrust::make_transform_iterator(
        thrust::make_zip_iterator(thrust::make_tuple(d_a.data, d_x.data)), multiply{});
    auto product_b = thrust::make_transform_iterator(
        thrust::make_zip_iterator(thrust::make_tuple(d_b.data, d_x.data)), multiply{});
    cub_scan_by_key<decltype(product)> cub_ab(d_keys.data, product, d_b.data, n);
    cub_scan_by_key<decltype(product)> cub_ba(d_keys.data, product_b, d_a.data, n);
    device_array<char> temp(std::max(cub_ab.temp_bytes, cub_ba.temp_bytes));
    const double cub_ms = median_ms(
        [&] {
          for (int i = 0; i < iters; ++i) {
            const cudaError_t e = i % 2 ? cub_ba(temp) : cub_ab(temp);
            if (e != cudaSuccess) return e;
          }
          return cudaSuccess;
        },
        3);
    rows.push_back({name, "CUB transform+ByKey", n, iters, cub_ms, 16.0 * n, floor_ms, true});
    for (const auto& [alg, label] : algorithms(config.studied)) {
      cuda::segmented_scan_options opt;
      opt.algorithm = alg;
      cuda::segmented_scan_workspace ws;
      opt.workspace = &ws;
      cuda_check(cudaMemcpy(d_b.data, a.data(), n * 4, cudaMemcpyHostToDevice), "copy");
      cuda_check(cuda::scaled_segmented_inclusive_scan(opt, d_b.data, d_x.data, d_b.data, n,
                                                       d_off.data, p),
                 "check run");
      const bool ok = relative_error(d_b.to_host(), want) < 1e-5;
      all_ok = all_ok && ok;
      const double ms = median_ms(
          [&] {
            for (int i = 0; i < iters; ++i) {
              const cudaError_t e = cuda::scaled_segmented_inclusive_scan(
                  opt, d_b.data, d_x.data, d_b.data, n, d_off.data, p);
              if (e != cudaSuccess) return e;
            }
            return cudaSuccess;
          },
          alg == segmented_scan_algorithm::automatic ? 5 : 3);
      rows.push_back(
          {name, std::string(label) + (alg == segmented_scan_algorithm::automatic ? " fused" : ""),
           n, iters, ms, 12.0 * n + 4.0 * (p + 1), floor_ms, ok});
    }
  }
  print(
      rows, "xfloor",
      std::string(
          "Sparse-matrix iteration a = scan(a * xbar), f32, stand-ins of the study's matrices, ") +
          prop.name +
          "; ms for the study's iteration count; GB/s per iteration (fused: 12 B/elem " +
          "+ offsets; CUB: 16 B/elem); xfloor = floor time / time",
      copy, out, config.json_path);
  return all_ok ? 0 : 1;
}

}  // namespace corank::bench

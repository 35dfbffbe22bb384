// corank spmv-scan: the study's iteration on a Matrix Market file,
//   repeat N times: a_l <- sum from the head of l's row to l of a_l' * x[col_l'],
// with a starting as the matrix's values. xbar_l = x[col_l] is flattened once, so every iteration
// is one fused pass over contiguous memory (multiply and segmented scan, in place).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/gpu.hpp"
#include "backend/gpu_scan.hpp"
#include "backend/spmv_scan.hpp"
#include "cli/commands.hpp"
#include "corank/cuda/tuning/segmented_scan.cuh"
#include "io/array_file.hpp"
#include "io/matrix_market.hpp"

namespace corank::cli {
namespace {

struct spmv_scan_args {
  std::string matrix, x_path, x_format = "text", backend = "auto";
  std::uint64_t x_seed = 1;
  int iterations = 1, threads = 0, steps_per_pass = 0;
};

void run_spmv_scan(const spmv_scan_args& args) {
  if (args.iterations < 1) throw std::invalid_argument("--iters must be at least 1");
  constexpr int most_steps = cuda::tuning::segmented_scan_iteration::most_steps_per_pass;
  if (args.steps_per_pass < 0 || args.steps_per_pass > most_steps)
    throw std::invalid_argument("--steps-per-pass must be 0 (tuned) to " +
                                std::to_string(most_steps));
  const auto t_read = std::chrono::steady_clock::now();
  const io::csr_matrix m = io::read_matrix_market(args.matrix);
  const double read_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_read).count();
  std::vector<float> x;
  if (!args.x_path.empty()) {
    x = io::read_array<float>(args.x_path, io::parse_file_format(args.x_format));
    if (x.size() != m.cols)
      throw io::file_error("'" + args.x_path + "' holds " + std::to_string(x.size()) +
                           " values; the matrix has " + std::to_string(m.cols) + " columns");
  } else {
    std::mt19937_64 rng(args.x_seed);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    x.resize(m.cols);
    for (float& v : x) v = d(rng);
  }
  const std::size_t n = m.nnz();
  std::vector<float> a0(m.values.begin(), m.values.end()), xbar(n);
  for (std::size_t l = 0; l < n; ++l) xbar[l] = x[std::size_t(m.col_indices[l])];

  const auto kind = backend::resolve_backend(args.backend);
  std::vector<float> a = a0;
  const double ms =
      kind == backend::backend_kind::gpu
          ? backend::gpu_spmv_scan(a.data(), xbar.data(), m.row_offsets.data(), n, m.rows,
                                   args.iterations, args.steps_per_pass)
          : backend::cpu_spmv_scan(a.data(), xbar.data(), m.row_offsets.data(), n, m.rows,
                                   args.iterations, args.threads, args.steps_per_pass);
  const auto want = backend::reference_spmv_scan(a0, xbar, m.row_offsets, args.iterations);
  const double error = backend::relative_l2_error(a, want);
  const double bytes = 12.0 * double(n) + double(sizeof(std::int32_t)) * double(m.rows + 1);

  std::printf("matrix %s: %zu x %zu, %zu non-zeros (read in %.2f s); backend %s\n",
              args.matrix.c_str(), m.rows, m.cols, n, read_s,
              kind == backend::backend_kind::gpu ? "gpu" : "cpu");
  std::printf("running time for %d iterations: %.4f ms\n", args.iterations, ms);
  std::printf(
      "per iteration: %.4f ms, %.1f GB/s effective (12 bytes per element + 32-bit row offsets, "
      "as if every iteration moved the data)\n",
      ms / args.iterations, bytes * args.iterations / ms / 1e6);
  if (std::isfinite(error))
    std::printf("relative error vs CPU double reference (L2 norm, ||a - ref|| / ||ref||): %.3e\n",
                error);
  else
    std::printf(
        "relative error: the double reference left the float range (values grow or shrink "
        "geometrically over %d iterations); use fewer --iters to check\n",
        args.iterations);
}

}  // namespace

void add_spmv_scan_command(CLI::App& app) {
  auto args = std::make_shared<spmv_scan_args>();
  CLI::App* cmd = app.add_subcommand(
      "spmv-scan", "The study's iteration: a = segmented scan of a * x[col] per row, repeated");
  cmd->add_option("--matrix", args->matrix, "Matrix Market file (coordinate)")->required();
  cmd->add_option("--iters", args->iterations, "Iterations")->capture_default_str();
  auto* x_file = cmd->add_option("--x", args->x_path, "x, one value per column (see --x-format)");
  cmd->add_option("--x-format", args->x_format, "binary|text")->capture_default_str();
  cmd->add_option("--x-random", args->x_seed, "x uniform in [-1, 1) from this seed (default)")
      ->excludes(x_file);
  cmd->add_option("-b,--backend", args->backend, "cpu|gpu|auto")->capture_default_str();
  cmd->add_option("--threads", args->threads, "CPU threads (0: all)")->capture_default_str();
  cmd->add_option("--steps-per-pass", args->steps_per_pass,
                  "iterations done on each tile while it is in shared memory (GPU) or on each "
                  "block while it is in cache (CPU); 1: each iteration moves the data, k: k "
                  "iterations share a pass, 0: tuned")
      ->capture_default_str();
  cmd->callback([args] { run_spmv_scan(*args); });
}

}  // namespace corank::cli

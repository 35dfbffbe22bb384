// corank spmv-scan: the study's iteration on a Matrix Market file,
//   repeat N times: a_l <- sum from the head of l's row to l of a_l' * x[col_l'],
// with a starting as the matrix's values. xbar_l = x[col_l] is flattened once, so every iteration
// is one fused pass over contiguous memory (multiply and segmented scan, in place).
#include <CLI/CLI.hpp>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/progress.hpp"
#include "cli/commands.hpp"
#include "corank/segmented_scan_contract.hpp"
#include "support/backend/gpu.hpp"
#include "support/backend/gpu_scan.hpp"
#include "support/backend/spmv_scan.hpp"
#include "support/io/array_file.hpp"
#include "support/io/matrix_market.hpp"

namespace corank::cli {
namespace {

struct spmv_scan_args {
  std::string matrix, x_path, x_format = "text", backend = "auto";
  std::uint64_t x_seed = 1;
  int iterations = 1, threads = 0, steps_per_pass = 0;
  bool no_reference = false, quiet = false, progress = false;
};

/// x_j uniform in [-1, 1), a function of the seed and j alone (splitmix64): only the columns the
/// matrix uses are drawn, so a matrix with 2^31 columns and one entry costs nothing.
float random_x(std::uint64_t seed, std::uint64_t column) {
  std::uint64_t z = seed + (column + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return float(double(z >> 40) * 0x1p-24 * 2.0 - 1.0);
}

void run_spmv_scan(const spmv_scan_args& args) {
  if (args.iterations < 1) throw std::invalid_argument("--iters must be at least 1");
  constexpr int most_steps = corank::segmented_scan_most_steps_per_pass;
  if (args.steps_per_pass < 0 || args.steps_per_pass > most_steps)
    throw std::invalid_argument("--steps-per-pass must be 0 (tuned) to " +
                                std::to_string(most_steps));
  const io::file_format x_format = io::parse_file_format(args.x_format);
  const auto kind = backend::resolve_backend(args.backend);
  if (check_options_only) return;

  const int reference_steps = args.no_reference ? 0 : std::min(args.iterations, 20);
  bench::progress progress(2 + !args.x_path.empty() + reference_steps,
                           show_progress(args.quiet, args.progress));
  progress.step("reading " + args.matrix);
  const auto t_read = std::chrono::steady_clock::now();
  io::matrix_market_limits limits;
  limits.max_abs_value = FLT_MAX;  // the iteration runs in f32
  limits.max_abs_value_reason = "the f32 range of spmv-scan (3.4e38)";
  const io::csr_matrix m = io::read_matrix_market(args.matrix, limits);
  const double read_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_read).count();
  const std::size_t n = m.nnz();
  std::vector<float> a0, xbar;
  io::resize_for(a0, n, "the values of " + args.matrix);
  io::resize_for(xbar, n, "x per non-zero of " + args.matrix);
  for (std::size_t l = 0; l < n; ++l) a0[l] = float(m.values[l]);
  if (!args.x_path.empty()) {
    progress.step("reading " + args.x_path);
    const std::vector<float> x = io::read_array<float>(args.x_path, x_format);
    if (x.size() != m.cols)
      throw io::file_error("'" + args.x_path + "' holds " + std::to_string(x.size()) +
                           " values; the matrix has " + std::to_string(m.cols) + " columns");
    for (std::size_t j = 0; j < x.size(); ++j)
      if (!std::isfinite(x[j]))
        throw io::file_error("'" + args.x_path + "': element " + std::to_string(j) +
                             " is infinite (x must be finite)");
    for (std::size_t l = 0; l < n; ++l) xbar[l] = x[std::size_t(m.col_indices[l])];
  } else {
    for (std::size_t l = 0; l < n; ++l) xbar[l] = random_x(args.x_seed, m.col_indices[l]);
  }

  progress.step(std::to_string(args.iterations) + " iterations on the " +
                std::string(backend::to_string(kind)));
  std::vector<float> a = a0;
  const double ms =
      kind == backend::backend_kind::gpu
          ? backend::gpu_spmv_scan(a.data(), xbar.data(), m.row_offsets.data(), n, m.rows,
                                   args.iterations, args.steps_per_pass)
          : backend::cpu_spmv_scan(a.data(), xbar.data(), m.row_offsets.data(), n, m.rows,
                                   args.iterations, args.threads, args.steps_per_pass);
  double error = 0;
  if (!args.no_reference) {
    int shown = 0;
    const auto want =
        backend::reference_spmv_scan(a0, xbar, m.row_offsets, args.iterations, [&](int it) {
          if (it * reference_steps >= shown * args.iterations && shown < reference_steps)
            ++shown, progress.step("double reference: iteration " + std::to_string(it + 1) + "/" +
                                   std::to_string(args.iterations));
        });
    error = backend::relative_l2_error(a, want);
  }
  const double bytes = 12.0 * double(n) + double(sizeof(std::int32_t)) * double(m.rows + 1);

  std::printf("matrix %s: %zu x %zu, %zu non-zeros (read in %.2f s); backend %s\n",
              args.matrix.c_str(), m.rows, m.cols, n, read_s,
              kind == backend::backend_kind::gpu ? "gpu" : "cpu");
  if (m.duplicates_summed)
    std::printf("%zu duplicate entries were summed into the first of their row and column\n",
                m.duplicates_summed);
  std::printf("running time for %d iterations: %.4f ms\n", args.iterations, ms);
  std::printf(
      "per iteration: %.6f ms, %.1f GB/s effective (12 bytes per element + 32-bit row offsets, "
      "as if every iteration moved the data)\n",
      ms / args.iterations, bytes * args.iterations / ms / 1e6);
  if (args.no_reference)
    std::printf("relative error: not checked (--no-reference)\n");
  else if (std::isfinite(error))
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
  cmd->add_option("--matrix", args->matrix,
                  "Matrix Market file (coordinate; .mtx or .mtx.gz; duplicate entries are "
                  "summed; values must fit in f32, tinier ones read as 0 or subnormal)")
      ->required();
  cmd->add_option("--iters", args->iterations, "Iterations")->capture_default_str();
  auto* x_file = cmd->add_option("--x", args->x_path, "x, one value per column (see --x-format)");
  cmd->add_option("--x-format", args->x_format, "binary|text")->capture_default_str();
  cmd->add_option("--x-random", args->x_seed,
                  "x uniform in [-1, 1), x_j drawn from this seed and j (default)")
      ->check(non_negative())
      ->excludes(x_file);
  cmd->add_option("-b,--backend", args->backend, "cpu|gpu|auto")->capture_default_str();
  cmd->add_option("--threads", args->threads, "CPU threads (0: all)")
      ->check(non_negative())
      ->capture_default_str();
  cmd->add_option("--steps-per-pass", args->steps_per_pass,
                  "iterations done on each tile while it is in shared memory (GPU) or on each "
                  "block while it is in cache (CPU); 1: each iteration moves the data, k: k "
                  "iterations share a pass, 0: tuned")
      ->capture_default_str();
  cmd->add_flag("--no-reference", args->no_reference,
                "Skip the check against the sequential double-precision reference (slow on big "
                "matrices and many iterations)");
  add_progress_options(cmd, args->quiet, args->progress);
  cmd->callback([args] { run_spmv_scan(*args); });
}

}  // namespace corank::cli

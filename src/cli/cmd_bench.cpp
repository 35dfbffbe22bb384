// corank bench <experiment>: corank side by side with its peers, as a table (stdout), JSON, CSV.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/gpu.hpp"
#include "backend/spmv_scan.hpp"
#include "cli/commands.hpp"
#include "data/matrix_like.hpp"
#include "gpu_merge.hpp"
#include "gpu_segmented_scan.hpp"
#include "gpu_sort.hpp"
#include "merge_bench.hpp"
#include "sort_bench.hpp"

namespace corank::cli {
namespace {

struct bench_args {
  std::string backend = "auto";
  bool quick = false;
  std::vector<std::string> sizes;  // "1000", "10K", "100M", ...
  int threads = 0;
  std::string json_path, csv_path;
  bool quiet = false;
};

/// "1000", "10K", "1.5M", "1G" -> items.
std::size_t parse_size(const std::string& text) {
  const auto bad = [&](const char* why) {
    return std::invalid_argument("bad size '" + text + "' (" + why + ")");
  };
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    throw bad("a number, optionally with K, M or G");
  }
  double scale = 1;
  const std::string suffix = text.substr(used);
  if (suffix == "K" || suffix == "k")
    scale = 1e3;
  else if (suffix == "M" || suffix == "m")
    scale = 1e6;
  else if (suffix == "G" || suffix == "g")
    scale = 1e9;
  else if (!suffix.empty())
    throw bad("a number, optionally with K, M or G");
  if (value < 0) throw bad("negative");
  return static_cast<std::size_t>(value * scale + 0.5);
}

std::vector<std::size_t> sizes_or(const bench_args& args, std::vector<std::size_t> fallback) {
  if (args.sizes.empty()) return fallback;
  std::vector<std::size_t> sizes;
  for (const std::string& s : args.sizes) sizes.push_back(parse_size(s));
  return sizes;
}

bench::run_config cpu_config(const bench_args& args, std::vector<std::size_t> default_sizes) {
  bench::run_config config;
  config.sizes = sizes_or(args, std::move(default_sizes));
  config.threads = args.threads;
  if (args.quick) config.timing.target_seconds = 0.1, config.timing.max_runs = 15;
  config.show_progress = !args.quiet;
  return config;
}

/// The GPU benchmarks print their own tables; CSV is written for the CPU ones only.
void warn_if_csv(const bench_args& args) {
  if (!args.csv_path.empty()) std::fprintf(stderr, "corank: --csv is CPU-only for now\n");
}

/// Prints the table and writes the files asked for; fails when an output was wrong.
void finish(const bench::report& rep, const bench_args& args) {
  rep.print_table(std::cout);
  if (!args.json_path.empty()) rep.write_json(args.json_path);
  if (!args.csv_path.empty()) rep.write_csv(args.csv_path);
  if (!rep.all_verified())
    throw std::runtime_error("some outputs did not match the reference (marked in the table)");
}

void run_merge_bench(const bench_args& args) {
  if (backend::resolve_backend(args.backend) == backend::backend_kind::gpu) {
    bench::gpu_merge_config config;
    config.sizes = sizes_or(args, args.quick ? std::vector<std::size_t>{1000000, 10000000}
                                             : bench::default_merge_sizes(false));
    config.pairs = config.studied = !args.quick;
    config.json_path = args.json_path;
    warn_if_csv(args);
    if (bench::run_gpu_merge_bench(config, std::cout) != 0)
      throw std::runtime_error("the GPU merge benchmark failed (see the table)");
    return;
  }
  finish(bench::run_merge_bench(cpu_config(args, bench::default_merge_sizes(args.quick)),
                                bench::cpu_merge_contenders()),
         args);
}

void run_sort_bench(const bench_args& args) {
  if (backend::resolve_backend(args.backend) == backend::backend_kind::gpu) {
    bench::gpu_sort_config config;
    config.sizes = sizes_or(args, args.quick ? std::vector<std::size_t>{1000000, 10000000}
                                             : bench::default_sort_sizes(false));
    config.json_path = args.json_path;
    warn_if_csv(args);
    if (bench::run_gpu_sort_bench(config, std::cout) != 0)
      throw std::runtime_error("the GPU sort benchmark failed (see the table)");
    return;
  }
  finish(bench::run_sort_bench(cpu_config(args, bench::default_sort_sizes(args.quick)),
                               bench::cpu_sort_contenders()),
         args);
}

/// The study's iteration on stand-ins of its matrices: the GPU table (fused pass, the study's two
/// kernels, CUB's formulation, the 12-byte floor), then the CPU rows (fused OpenMP pass).
void run_spmv_scan_bench(const bench_args& args) {
  const auto kind = backend::resolve_backend(args.backend);
  std::vector<std::string> names;
  for (const auto& s : data::study_matrices())
    if (!args.quick || std::string(s.name) == "cant" || std::string(s.name) == "webbase-1M")
      names.push_back(s.name);
  bool ok = true;
  if (kind == backend::backend_kind::gpu) {
    bench::gpu_scan_bench_config config;
    config.matrices = names;
    config.json_path = args.json_path;
    ok = bench::run_gpu_spmv_scan_bench(config, std::cout) == 0;
    if (args.backend == "gpu") {
      if (!ok) throw std::runtime_error("the GPU spmv-scan benchmark failed (see the table)");
      return;
    }
  }
  std::printf(
      "\nCPU: fused OpenMP pass (corank::cpu::segmented_inclusive_scan of a * xbar, in "
      "place), %s threads; error: relative L2 vs the double reference\n",
      args.threads ? std::to_string(args.threads).c_str() : "all");
  std::printf("%-16s %10s %6s %11s %11s %8s %10s\n", "matrix", "nnz", "iters", "ms", "ms/iter",
              "GB/s", "error");
  for (const auto& name : names) {
    const auto& shape = data::find_matrix(name);
    const auto m = data::generate_matrix_like(shape, 1);
    const std::size_t n = m.nnz();
    std::vector<float> a0(m.values.begin(), m.values.end()), xbar(n);
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> x(m.cols);
    for (float& v : x) v = d(rng);
    for (std::size_t l = 0; l < n; ++l) xbar[l] = x[std::size_t(m.col_indices[l])];
    std::vector<float> a = a0;
    const int iters = shape.study_iterations;
    const double ms = backend::cpu_spmv_scan(a.data(), xbar.data(), m.row_offsets.data(), n, m.rows,
                                             iters, args.threads);
    const double err =
        backend::relative_l2_error(a, backend::reference_spmv_scan(a0, xbar, m.row_offsets, iters));
    std::printf("%-16s %10zu %6d %11.3f %11.4f %8.1f %10.2e\n", name.c_str(), n, iters, ms,
                ms / iters, (12.0 * n + 8.0 * (m.rows + 1)) * iters / ms / 1e6, err);
  }
  if (!ok) throw std::runtime_error("the GPU spmv-scan benchmark failed (see the table)");
}

/// 100M f32 values by mean segment length: corank vs CUB's scan-by-key (GPU).
void run_segmented_scan_bench(const bench_args& args) {
  bench::gpu_scan_bench_config config;
  if (!args.sizes.empty()) config.n = parse_size(args.sizes.front());
  if (args.quick) config.n = 10000000;
  config.json_path = args.json_path;
  if (bench::run_gpu_segmented_scan_bench(config, std::cout) != 0)
    throw std::runtime_error("the GPU segmented-scan benchmark failed (see the table)");
}

CLI::App* add_experiment(CLI::App& bench, const std::string& name, const std::string& what,
                         const std::shared_ptr<bench_args>& args) {
  CLI::App* cmd = bench.add_subcommand(name, what);
  cmd->add_option("-b,--backend", args->backend, "cpu|gpu|auto")->capture_default_str();
  cmd->add_flag("--quick", args->quick, "Small sizes, a few seconds");
  cmd->add_option("--sizes", args->sizes, "Sizes (items per input), e.g. 1K 10M 100M")
      ->delimiter(',');
  cmd->add_option("--threads", args->threads, "CPU threads (0: OMP_NUM_THREADS or all cores)")
      ->capture_default_str();
  cmd->add_option("--json", args->json_path, "Write the results as JSON to this file");
  cmd->add_option("--csv", args->csv_path, "Write the results as CSV to this file");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress on stderr");
  return cmd;
}

}  // namespace

void add_bench_command(CLI::App& app) {
  CLI::App* bench = app.add_subcommand("bench", "Benchmarks: corank side by side with its peers");
  bench->require_subcommand(1);
  auto merge_args = std::make_shared<bench_args>();
  add_experiment(*bench, "merge", "Merge two sorted u32 arrays (uniform random keys)", merge_args)
      ->callback([merge_args] { run_merge_bench(*merge_args); });
  auto spmv_args = std::make_shared<bench_args>();
  add_experiment(*bench, "spmv-scan",
                 "The study's iteration on stand-ins of its 15 matrices (GPU table, CPU rows)",
                 spmv_args)
      ->callback([spmv_args] { run_spmv_scan_bench(*spmv_args); });
  auto scan_args = std::make_shared<bench_args>();
  add_experiment(*bench, "segmented-scan",
                 "GPU segmented scan of 100M f32 by mean segment length vs CUB scan-by-key",
                 scan_args)
      ->callback([scan_args] { run_segmented_scan_bench(*scan_args); });
  auto sort_args = std::make_shared<bench_args>();
  add_experiment(*bench, "sort", "Sort u32 keys (uniform random)", sort_args)
      ->callback([sort_args] { run_sort_bench(*sort_args); });
}

}  // namespace corank::cli

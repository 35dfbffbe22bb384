// corank bench <experiment>: corank side by side with its peers, as tables (stdout), JSON, CSV.
// `corank bench all` runs every experiment (tools/bench/suite.hpp); the others run one.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/gpu_segmented_sort.hpp"
#include "bench/merge_bench.hpp"
#include "bench/sort_bench.hpp"
#include "bench/spmv_bench.hpp"
#include "bench/suite.hpp"
#include "bench/toolbox_bench.hpp"
#include "cli/commands.hpp"
#include "support/backend/gpu.hpp"
#include "support/data/matrix_like.hpp"
#include "support/data/shapes.hpp"
#include "support/io/output_file.hpp"

namespace corank::cli {
namespace {

struct bench_args {
  std::string backend = "auto";
  bool quick = false;
  std::vector<std::string> sizes;  // "1000", "10K", "100M", ...
  std::vector<std::string> matrices;
  int threads = 0;
  int min_runs = 0;  // CPU experiments and the toolbox: at least this many timed runs
  std::string json_path, csv_path;
  bool quiet = false;
  std::string tuning_path;  // merge, GPU: a table from `corank tune merge` for automatic
  std::vector<std::string> types, only;  // CPU sort and merge: item types, contender names
  std::vector<std::string> shapes;       // GPU sort: the sweep's input shapes (empty: all)
  bool sweep_only = false;               // GPU sort: no segmented sorts, no std::sort chart
};

std::vector<std::size_t> sizes_or(const bench_args& args, std::vector<std::size_t> fallback) {
  if (args.sizes.empty()) return fallback;
  return parse_sizes(args.sizes);
}

/// The --json and --csv files, opened before the experiment runs: a missing or unwritable folder
/// fails at once, not after an hour of measuring.
struct bench_outputs {
  std::unique_ptr<io::output_file> json, csv;

  explicit bench_outputs(const bench_args& args) {
    if (!args.json_path.empty()) json = std::make_unique<io::output_file>(args.json_path);
    if (!args.csv_path.empty()) csv = std::make_unique<io::output_file>(args.csv_path);
  }
  void write(const std::vector<bench::report>& reports,
             const std::map<std::string, std::string>& run = {}) {
    if (json) {
      json->write(bench::json_document(reports, run));
      json->commit();
    }
    if (csv) {
      csv->write(bench::csv_table(reports));
      csv->commit();
    }
  }
};

/// Checks what every experiment takes before it runs (sizes, backend); true when the run should
/// go on (not check_options_only).
bool options_ok(const bench_args& args) {
  if (!args.sizes.empty()) parse_sizes(args.sizes);
  backend::resolve_backend(args.backend);
  return !check_options_only;
}

bool on_gpu(const bench_args& args) {
  return backend::resolve_backend(args.backend) == backend::backend_kind::gpu;
}

bench::run_config cpu_config(const bench_args& args, std::vector<std::size_t> default_sizes) {
  bench::run_config config = bench::cpu_run_config(args.quick, args.threads, !args.quiet);
  config.sizes = sizes_or(args, std::move(default_sizes));
  config.types = args.types;
  config.only = args.only;
  bench::require_runs(config.timing, args.min_runs);
  return config;
}

/// Prints the tables and writes the files asked for; fails when an output was wrong.
void finish(const std::vector<bench::report>& reports, bench_outputs& outputs) {
  bool verified = true;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    if (i) std::cout << "\n";
    reports[i].print_table(std::cout);
    verified = verified && reports[i].all_verified();
  }
  outputs.write(reports);
  if (!verified)
    throw std::runtime_error("some outputs did not match the reference (marked in the table)");
}

void run_merge_bench(const bench_args& args) {
  if (!options_ok(args)) return;
  bench_outputs outputs(args);
  if (on_gpu(args)) {
    bench::gpu_merge_config config = bench::gpu_merge_defaults(args.quick);
    config.sizes = sizes_or(args, config.sizes);
    config.pairs = config.studied = !args.quick;
    config.show_progress = !args.quiet;
    std::optional<cuda::merge_tuning> tuning;
    if (!args.tuning_path.empty()) tuning = cuda::load_merge_tuning(args.tuning_path);
    config.tuning = tuning ? &*tuning : nullptr;
    return finish(bench::run_gpu_merge_bench(config), outputs);
  }
  finish(bench::run_cpu_merge_benches(cpu_config(args, bench::default_merge_sizes(args.quick)),
                                      args.quick),
         outputs);
}

/// The co-rank toolbox (sorted search, set operations, join, load-balancing search, k-way merge)
/// against the std:: ways (CPU) or thrust and CUB (GPU).
void run_toolbox_bench(const bench_args& args) {
  if (!options_ok(args)) return;
  bench_outputs outputs(args);
  if (on_gpu(args)) {
    bench::gpu_toolbox_config config = bench::gpu_toolbox_defaults(args.quick);
    config.sizes = sizes_or(args, config.sizes);
    config.show_progress = !args.quiet;
    bench::require_runs(config.timing, args.min_runs);
    return finish({bench::run_gpu_toolbox_bench(config)}, outputs);
  }
  finish({bench::run_cpu_toolbox_bench(cpu_config(args, bench::default_toolbox_sizes(args.quick)))},
         outputs);
}

/// --types of bench sort: the CPU's item types, or the GPU sweep's key types.
const std::string cpu_sort_types = "u32,u64,pairs", gpu_sort_types = "u32,u64,f32,f64,record16";

void run_sort_bench(const bench_args& args) {
  std::vector<data::key_shape> shapes;  // named ones checked before any work
  for (const std::string& s : args.shapes) shapes.push_back(data::key_shape_named(s));
  if (!options_ok(args)) return;
  const bool gpu = on_gpu(args);
  const auto known = CLI::detail::split(gpu ? gpu_sort_types : cpu_sort_types, ',');
  for (const std::string& t : args.types)
    if (std::find(known.begin(), known.end(), t) == known.end())
      throw std::invalid_argument("bench sort --types " + t + ": the " + (gpu ? "GPU" : "CPU") +
                                  " sorts take " + (gpu ? gpu_sort_types : cpu_sort_types));
  bench_outputs outputs(args);
  if (gpu) {
    bench::gpu_sort_config config = bench::gpu_sort_defaults(args.quick);
    config.sizes = sizes_or(args, config.sizes);
    if (!args.types.empty()) config.key_types = args.types;
    if (!shapes.empty()) config.shapes = shapes;
    if (args.sweep_only) config.segmented_keys = 0, config.cpu_sizes.clear();
    config.show_progress = !args.quiet;
    return finish(bench::run_gpu_sort_bench(config), outputs);
  }
  finish(bench::run_cpu_sort_benches(cpu_config(args, bench::default_sort_sizes(args.quick)),
                                     args.quick),
         outputs);
}

/// The study's iteration on stand-ins of its matrices: the GPU report, then (unless the GPU was
/// asked for by name) the CPU one.
void run_spmv_scan_bench(const bench_args& args) {
  if (!args.sizes.empty())
    throw std::invalid_argument(
        "--sizes does not apply to bench spmv-scan: its sizes are the matrices' (choose them with "
        "--matrices)");
  for (const std::string& name : args.matrices) data::find_matrix(name);
  if (!options_ok(args)) return;
  bench_outputs outputs(args);
  std::vector<std::string> names =
      args.matrices.empty() ? bench::default_spmv_matrices(args.quick) : args.matrices;
  std::vector<bench::report> reports;
  if (on_gpu(args)) {
    bench::gpu_scan_bench_config config = bench::gpu_scan_defaults(args.quick);
    config.matrices = names;
    config.show_progress = !args.quiet;
    reports.push_back(bench::run_gpu_spmv_scan_bench(config));
  }
  if (args.backend != "gpu")
    reports.push_back(bench::run_cpu_spmv_scan_bench(cpu_config(args, {}), names));
  finish(reports, outputs);
}

/// 100M f32 values by mean segment length: corank vs CUB's scan-by-key (GPU only).
void run_segmented_scan_bench(const bench_args& args) {
  const std::string gpu_only =
      "bench segmented-scan runs on the GPU only (corank's segmented scan against CUB's "
      "scan-by-key; no CPU version)";
  if (args.backend == "cpu") throw std::invalid_argument(gpu_only + ": use --backend gpu");
  if (args.sizes.size() > 1)
    throw std::invalid_argument("bench segmented-scan takes one size (--sizes N: the items)");
  if (!args.sizes.empty()) parse_sizes(args.sizes);
  if (backend::resolve_backend(args.backend) != backend::backend_kind::gpu)
    throw std::runtime_error(gpu_only + "; no usable GPU here: " + backend::query_gpu().name);
  if (check_options_only) return;
  bench_outputs outputs(args);
  bench::gpu_scan_bench_config config = bench::gpu_scan_defaults(args.quick);
  if (!args.sizes.empty()) config.n = parse_size(args.sizes.front());
  config.show_progress = !args.quiet;
  finish({bench::run_gpu_segmented_scan_bench(config)}, outputs);
}

/// u32 keys by segment length and on mixed distributions vs CUB's segmented sorts (GPU only);
/// --sizes: the segment lengths of the sweep; --quick: 2^24 keys, a few lengths, no pairs.
void run_segmented_sort_bench(const bench_args& args) {
  const std::string gpu_only =
      "bench segmented-sort runs on the GPU only (corank's segmented sorts against CUB's)";
  if (args.backend == "cpu") throw std::invalid_argument(gpu_only + ": use --backend gpu");
  if (!args.sizes.empty()) parse_sizes(args.sizes);
  if (backend::resolve_backend(args.backend) != backend::backend_kind::gpu)
    throw std::runtime_error(gpu_only + "; no usable GPU here: " + backend::query_gpu().name);
  if (check_options_only) return;
  bench_outputs outputs(args);
  bench::gpu_segmented_sort_config config;
  if (args.quick) {
    config.total_keys = std::size_t(1) << 24;
    config.lengths = {1, 2, 5, 16, 17, 33, 100, 1024, 1025, 4097, 100000};
    config.pairs = false;
    config.single_sizes = {1000000};
  }
  if (!args.sizes.empty()) config.lengths = parse_sizes(args.sizes);
  config.show_progress = !args.quiet;
  finish({bench::run_gpu_segmented_sort_bench(config)}, outputs);
}

/// Every experiment; one JSON document with the machine, the versions and every row.
void run_all(const bench_args& args) {
  for (const std::string& name : args.matrices) data::find_matrix(name);
  if (!options_ok(args)) return;
  bench_outputs outputs(args);
  bench::suite_config config;
  config.gpu = args.backend != "cpu" && on_gpu(args);
  config.quick = args.quick;
  config.sizes = sizes_or(args, {});
  config.matrices = args.matrices;
  config.threads = args.threads;
  config.min_runs = args.min_runs;
  config.show_progress = !args.quiet;
  const auto start = std::chrono::steady_clock::now();
  const bench::suite_result result = bench::run_suite(config, std::cout);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::map<std::string, std::string> run = {
      {"command", "corank bench all --backend " + args.backend + (args.quick ? " --quick" : "")},
      {"gpu_experiments", config.gpu ? "ran"
                                     : "skipped (" + args.backend + " backend" +
                                           (args.backend == "auto" ? ", no usable GPU" : "") + ")"},
      {"wall_seconds", std::to_string(seconds)}};
  std::string failures;
  for (const std::string& f : result.failures) failures += (failures.empty() ? "" : "; ") + f;
  if (!failures.empty()) run["failures"] = failures;
  outputs.write(result.reports, run);
  if (!args.quiet)
    std::fprintf(stderr, "corank bench all: %zu experiments in %.1f s%s\n", result.reports.size(),
                 seconds, config.gpu ? "" : " (CPU only)");
  if (!failures.empty()) throw std::runtime_error("bench all: " + failures);
}

CLI::App* add_experiment(CLI::App& bench, const std::string& name, const std::string& what,
                         const std::shared_ptr<bench_args>& args) {
  CLI::App* cmd = bench.add_subcommand(name, what);
  cmd->add_option("-b,--backend", args->backend, "cpu|gpu|auto")->capture_default_str();
  cmd->add_flag("--quick", args->quick, "Small sizes, a few seconds");
  cmd->add_option("--sizes", args->sizes, "Sizes (items per input), e.g. 1K 10M 100M")
      ->delimiter(',');
  cmd->add_option("--threads", args->threads, "CPU threads (0: OMP_NUM_THREADS or all cores)")
      ->check(non_negative())
      ->capture_default_str();
  cmd->add_option("--min-runs", args->min_runs,
                  "CPU and toolbox: at least this many timed runs per measurement (the median is "
                  "reported; default: as many as fit 0.4 s, at least 3)")
      ->check(non_negative());
  cmd->add_option("--json", args->json_path, "Write the results as JSON to this file");
  cmd->add_option("--csv", args->csv_path, "Write the results as CSV to this file");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress on stderr");
  return cmd;
}

/// CPU sort and merge: --types (which item types) and --only (which contenders).
CLI::App* add_cpu_choices(CLI::App* cmd, const std::shared_ptr<bench_args>& args,
                          const std::string& types) {
  cmd->add_option("--types", args->types,
                  "CPU: item types to run, of " + types + " (default: all; --quick: u32)")
      ->delimiter(',')
      ->check(CLI::IsMember(CLI::detail::split(types, ',')));
  cmd->add_option("--only", args->only,
                  "CPU: only the contenders whose name contains one of these (memcpy always)")
      ->delimiter(',');
  return cmd;
}

void add_matrices_option(CLI::App* cmd, const std::shared_ptr<bench_args>& args) {
  cmd->add_option("--matrices", args->matrices,
                  "Stand-ins of these study matrices (default: all; --quick: cant, webbase-1M)")
      ->delimiter(',');
}

}  // namespace

void add_bench_command(CLI::App& app) {
  CLI::App* bench = app.add_subcommand("bench", "Benchmarks: corank side by side with its peers");
  bench->require_subcommand(1);
  auto merge_args = std::make_shared<bench_args>();
  add_cpu_choices(add_experiment(*bench, "merge",
                                 "Merge two sorted u32 arrays (uniform random keys)", merge_args),
                  merge_args, "u32,pairs")
      ->callback([merge_args] { run_merge_bench(*merge_args); })
      ->add_option("--tuning", merge_args->tuning_path,
                   "GPU: a tuning file from `corank tune merge` for the automatic kernel");
  auto spmv_args = std::make_shared<bench_args>();
  CLI::App* spmv =
      add_experiment(*bench, "spmv-scan",
                     "The study's iteration on stand-ins of its 15 matrices (GPU, CPU)", spmv_args);
  add_matrices_option(spmv, spmv_args);
  spmv->callback([spmv_args] { run_spmv_scan_bench(*spmv_args); });
  auto scan_args = std::make_shared<bench_args>();
  add_experiment(*bench, "segmented-scan",
                 "GPU segmented scan of 100M f32 by mean segment length vs CUB scan-by-key",
                 scan_args)
      ->callback([scan_args] { run_segmented_scan_bench(*scan_args); });
  auto segsort_args = std::make_shared<bench_args>();
  add_experiment(*bench, "segmented-sort",
                 "GPU segmented sort of 64M u32 keys by segment length and on mixed "
                 "distributions vs CUB (--sizes: the lengths)",
                 segsort_args)
      ->callback([segsort_args] { run_segmented_sort_bench(*segsort_args); });
  auto sort_args = std::make_shared<bench_args>();
  CLI::App* sort = add_experiment(*bench, "sort", "Sort u32 keys (uniform random)", sort_args);
  add_cpu_choices(sort, sort_args, cpu_sort_types + ",f32,f64,record16");
  sort->get_option("--types")->description(
      "CPU: item types, of " + cpu_sort_types + " (default: all; --quick: u32); " +
      "GPU: the sweep's key types, keys and pairs each, of " + gpu_sort_types);
  sort->add_option("--shapes", sort_args->shapes,
                   "GPU: the sweep's input shapes (default all: uniform,presorted,reverse,"
                   "nearly-sorted,few-distinct,all-equal,zipf)")
      ->delimiter(',');
  sort->add_flag("--sweep-only", sort_args->sweep_only,
                 "GPU: the whole-array sweep alone (no segmented sorts, no std::sort chart)");
  sort->callback([sort_args] { run_sort_bench(*sort_args); });
  auto toolbox_args = std::make_shared<bench_args>();
  CLI::App* toolbox = add_experiment(
      *bench, "toolbox",
      "The co-rank toolbox on sorted u32 keys: sorted search, set operations, inner join, "
      "load-balancing search, k-way merge of 64 runs (CPU: vs the std:: ways; GPU: vs thrust/CUB)",
      toolbox_args);
  toolbox
      ->add_option("--only", toolbox_args->only,
                   "CPU: only the contenders whose name contains one of these (memcpy always)")
      ->delimiter(',');
  toolbox->callback([toolbox_args] { run_toolbox_bench(*toolbox_args); });
  auto all_args = std::make_shared<bench_args>();
  CLI::App* all = add_experiment(
      *bench, "all",
      "Every experiment in one run (GPU ones with --backend gpu, or auto and a GPU), one JSON "
      "document; --sizes replaces the merge and sort sizes",
      all_args);
  add_matrices_option(all, all_args);
  all->callback([all_args] { run_all(*all_args); });
}

}  // namespace corank::cli

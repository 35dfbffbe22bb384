// corank tune merge: sweep the GPU merge kernels' parameters on this GPU, print the best per size,
// optionally save them as a tuning file for `corank merge/bench merge --tuning FILE`.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/gpu_merge_tune.hpp"
#include "cli/commands.hpp"
#include "corank/cuda/tuning/merge_table.hpp"
#include "support/backend/gpu.hpp"
#include "support/io/output_file.hpp"

namespace corank::cli {
namespace {

struct tune_args {
  std::vector<std::string> sizes = {"1K", "10K", "100K", "1M", "10M", "100M"};
  std::vector<std::string> kernels = {"automatic", "basic", "tiled", "circular"};
  std::string save_path;
  int repeats = 0;
  bool quiet = false;
};

void run_tune_merge(const tune_args& args) {
  bench::gpu_merge_tune_config config;
  config.sizes = parse_sizes(args.sizes);
  for (const std::string& name : args.kernels) {
    const auto kernel = cuda::parse_merge_algorithm(name);
    if (!kernel)
      throw std::invalid_argument("unknown kernel '" + name +
                                  "' (expected automatic, basic, tiled or circular)");
    config.kernels.push_back(*kernel);
  }
  config.repeats = args.repeats;
  config.progress = !args.quiet;
  if (check_options_only) return;
  const backend::gpu_info gpu = backend::query_gpu();
  if (!gpu.available) throw std::runtime_error("corank tune merge needs a CUDA GPU: " + gpu.name);
  // Open the file first: a bad path should not cost a sweep.
  std::unique_ptr<io::output_file> file;
  if (!args.save_path.empty()) file = std::make_unique<io::output_file>(args.save_path);
  const cuda::merge_tuning table = bench::run_gpu_merge_tune(config, std::cout);
  if (file) {
    std::ostringstream text;
    write_merge_tuning(
        text, table,
        "written by corank tune merge on " + gpu.name +
            "\nuse: corank merge|bench merge --tuning FILE, or merge_options::tuning");
    file->write(text.str());
    file->commit();
    std::cout << "saved " << table.entries().size() << " entries to " << args.save_path << "\n";
  }
}

}  // namespace

void add_tune_command(CLI::App& app) {
  CLI::App* tune = app.add_subcommand("tune", "Measure the best kernel parameters on this GPU");
  tune->require_subcommand(1);
  auto args = std::make_shared<tune_args>();
  CLI::App* merge = tune->add_subcommand(
      "merge", "Sweep blocks, threads per block and tile size of each GPU merge kernel by size");
  merge->add_option("--sizes", args->sizes, "Items per input, e.g. 1M,10M,100M")
      ->delimiter(',')
      ->capture_default_str();
  merge->add_option("--kernels", args->kernels, "Kernels to sweep: automatic,basic,tiled,circular")
      ->delimiter(',')
      ->capture_default_str();
  merge->add_option("--save", args->save_path,
                    "Write the best configurations as a tuning file (for --tuning FILE)");
  merge->add_option("--repeats", args->repeats, "Timed runs per configuration (0: by size)")
      ->check(non_negative())
      ->capture_default_str();
  merge->add_flag("-q,--quiet", args->quiet, "No progress on stderr");
  merge->callback([args] { run_tune_merge(*args); });
}

}  // namespace corank::cli

// corank merge A B -o C: merge two sorted files of keys.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/backend/gpu.hpp"
#include "support/backend/gpu_merge.hpp"
#include "cli/commands.hpp"
#include "corank/cpu/merge.hpp"
#include "support/io/array_file.hpp"
#include "support/io/element_type.hpp"
#include "support/io/output_file.hpp"
#include "bench/progress.hpp"

namespace corank::cli {
namespace {

struct merge_args : key_file_options {
  std::string input_a, input_b, output, tuning_path;
  std::optional<cuda::merge_tuning> tuning;  // read from tuning_path before the inputs
};

template <class T>
std::vector<T> read_sorted(const std::string& path, io::file_format format) {
  std::vector<T> keys = io::read_array<T>(path, format);
  if (const std::size_t i = io::first_unsorted(keys.data(), keys.size()); i != keys.size())
    throw std::runtime_error("'" + path + "' is not sorted: element " + std::to_string(i) +
                             " is smaller than element " + std::to_string(i - 1) +
                             " (merge needs ascending inputs; is --type right?)");
  return keys;
}

template <class T>
void run_merge(const merge_args& args, io::file_format format, backend::backend_kind where) {
  io::check_readable(args.input_a);
  io::check_readable(args.input_b);
  io::output_file out(args.output);  // a bad output fails now, not after the work
  bench::progress progress(4, show_progress(args.quiet, args.progress));
  progress.step("reading " + args.input_a);
  const std::vector<T> a = read_sorted<T>(args.input_a, format);
  progress.step("reading " + args.input_b);
  const std::vector<T> b = read_sorted<T>(args.input_b, format);
  std::vector<T> merged;
  io::resize_for(merged, a.size() + b.size(), "the merged output");

  progress.step("merging on the " + std::string(backend::to_string(where)));
  double ms = 0;
  if (where == backend::backend_kind::gpu) {
    ms = backend::gpu_merge(a.data(), a.size(), b.data(), b.size(), merged.data(),
                            args.tuning ? &*args.tuning : nullptr);
  } else {
    cpu::options opt;
    opt.threads = args.threads;
    const auto start = std::chrono::steady_clock::now();
    cpu::merge(a.begin(), a.end(), b.begin(), b.end(), merged.begin(), corank::less{}, opt);
    ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  progress.step("writing " + args.output);
  io::write_array(out, merged.data(), merged.size(), format);
  out.commit();
  std::fprintf(out.is_stdout() ? stderr : stdout,
               "merged %zu + %zu %s keys on the %s in %.3f ms -> %s\n", a.size(), b.size(),
               args.type.c_str(), std::string(backend::to_string(where)).c_str(), ms,
               args.output.c_str());
}

}  // namespace

void add_merge_command(CLI::App& app) {
  auto args = std::make_shared<merge_args>();
  CLI::App* cmd = app.add_subcommand("merge", "Merge two sorted files of keys into one (stable)");
  cmd->add_option("A", args->input_a, "First sorted input (a file or a pipe)")->required();
  cmd->add_option("B", args->input_b, "Second sorted input (a file or a pipe)")->required();
  cmd->add_option("-o,--output", args->output, "Output file (written atomically)")->required();
  add_key_file_options(cmd, *args);
  cmd->add_option("--tuning", args->tuning_path,
                  "GPU: a tuning file from `corank tune merge` for the automatic kernel");
  cmd->callback([args] {
    const io::file_format format = io::parse_file_format(args->format);
    const io::element_type type = io::parse_element_type(args->type);
    const backend::backend_kind where = backend::resolve_backend(args->backend);
    if (check_options_only) return;
    if (!args->tuning_path.empty()) args->tuning = cuda::load_merge_tuning(args->tuning_path);
    io::dispatch(type,
                 [&](auto tag) { run_merge<typename decltype(tag)::type>(*args, format, where); });
  });
}

}  // namespace corank::cli

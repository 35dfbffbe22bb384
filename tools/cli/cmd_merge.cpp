// corank merge A B [C ...] -o OUT: merge sorted files of keys (stable: ties in input order).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/progress.hpp"
#include "cli/commands.hpp"
#include "cli/sorted_input.hpp"
#include "cli/timed_run.hpp"
#include "corank/cpu/merge.hpp"
#include "corank/cpu/multiway_merge.hpp"
#include "support/backend/gpu.hpp"
#include "support/backend/gpu_merge.hpp"
#include "support/backend/gpu_toolbox.hpp"
#include "support/io/array_file.hpp"
#include "support/io/element_type.hpp"
#include "support/io/output_file.hpp"

namespace corank::cli {
namespace {

struct merge_args : key_file_options {
  std::vector<std::string> inputs;
  std::string output, tuning_path;
  std::optional<cuda::merge_tuning> tuning;  // read from tuning_path before the inputs
};

/// More than two inputs: one k-way merge of them all (a tree of co-rank merge passes).
template <class T>
void run_multiway_merge(const merge_args& args, io::file_format format,
                        backend::backend_kind where) {
  for (const std::string& input : args.inputs) io::check_readable(input);
  io::output_file out(args.output);
  bench::progress progress(int(args.inputs.size()) + 2, show_progress(args.quiet, args.progress));
  std::vector<T> keys;
  std::vector<std::uint64_t> offsets{0};
  for (const std::string& input : args.inputs) {
    progress.step("reading " + input);
    const std::vector<T> run = read_sorted<T>(input, format, "merge");
    keys.insert(keys.end(), run.begin(), run.end());
    offsets.push_back(keys.size());
  }
  std::vector<T> merged;
  io::resize_for(merged, keys.size(), "the merged output");
  const std::size_t runs = args.inputs.size();
  progress.step("merging " + std::to_string(runs) + " inputs on the " +
                std::string(backend::to_string(where)));
  const double ms = timed_run(
      where, args.threads,
      [&] { return backend::gpu_multiway_merge(keys.data(), offsets.data(), runs, merged.data()); },
      [&](const cpu::options& opt) {
        cpu::multiway_merge(keys.data(), offsets.data(), runs, merged.data(), corank::less{}, opt);
      });
  progress.step("writing " + args.output);
  io::write_array(out, merged.data(), merged.size(), format);
  out.commit();
  std::fprintf(out.is_stdout() ? stderr : stdout,
               "merged %zu inputs of %zu %s keys in all on the %s in %.3f ms -> %s\n", runs,
               keys.size(), args.type.c_str(), std::string(backend::to_string(where)).c_str(), ms,
               args.output.c_str());
}

template <class T>
void run_merge(const merge_args& args, io::file_format format, backend::backend_kind where) {
  if (args.inputs.size() > 2) return run_multiway_merge<T>(args, format, where);
  const std::string &input_a = args.inputs[0], &input_b = args.inputs[1];
  io::check_readable(input_a);
  io::check_readable(input_b);
  io::output_file out(args.output);  // a bad output fails now, not after the work
  bench::progress progress(4, show_progress(args.quiet, args.progress));
  progress.step("reading " + input_a);
  const std::vector<T> a = read_sorted<T>(input_a, format, "merge");
  progress.step("reading " + input_b);
  const std::vector<T> b = read_sorted<T>(input_b, format, "merge");
  std::vector<T> merged;
  io::resize_for(merged, a.size() + b.size(), "the merged output");

  progress.step("merging on the " + std::string(backend::to_string(where)));
  const double ms = timed_run(
      where, args.threads,
      [&] {
        return backend::gpu_merge(a.data(), a.size(), b.data(), b.size(), merged.data(),
                                  args.tuning ? &*args.tuning : nullptr);
      },
      [&](const cpu::options& opt) {
        cpu::merge(a.begin(), a.end(), b.begin(), b.end(), merged.begin(), corank::less{}, opt);
      });
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
  CLI::App* cmd = app.add_subcommand(
      "merge", "Merge sorted files of keys into one (stable: ties in input order)");
  cmd->add_option("INPUTS", args->inputs,
                  "Sorted inputs, two or more (files or pipes; more than two: one k-way merge)")
      ->required()
      ->expected(2, -1);
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

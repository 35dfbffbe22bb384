// corank sort IN -o OUT: stable sort of a file of keys.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/progress.hpp"
#include "cli/commands.hpp"
#include "cli/timed_run.hpp"
#include "corank/cpu/sort.hpp"
#include "support/backend/gpu.hpp"
#include "support/backend/gpu_sort.hpp"
#include "support/io/array_file.hpp"
#include "support/io/element_type.hpp"
#include "support/io/output_file.hpp"

namespace corank::cli {
namespace {

struct sort_args : key_file_options {
  std::string input, output, algo = "auto";
};

backend::gpu_sort_algorithm parse_algorithm(const std::string& name) {
  if (name == "merge") return backend::gpu_sort_algorithm::merge;
  if (name == "bitonic") return backend::gpu_sort_algorithm::bitonic;
  if (name == "auto") return backend::gpu_sort_algorithm::automatic;
  throw std::invalid_argument("unknown algorithm '" + name + "' (merge|bitonic|auto)");
}

template <class T>
void run_sort(const sort_args& args, io::file_format format, backend::gpu_sort_algorithm algo,
              backend::backend_kind where) {
  io::check_readable(args.input);
  io::output_file out(args.output);  // a bad output fails now, not after the work
  bench::progress progress(3, show_progress(args.quiet, args.progress));
  progress.step("reading " + args.input);
  std::vector<T> keys = io::read_array<T>(args.input, format);

  progress.step("sorting on the " + std::string(backend::to_string(where)));
  const double ms = timed_run(
      where, args.threads, [&] { return backend::gpu_sort(keys.data(), keys.size(), algo); },
      [&](const cpu::options& opt) {
        cpu::stable_sort(keys.begin(), keys.end(), corank::less{}, opt);
      });
  progress.step("writing " + args.output);
  io::write_array(out, keys.data(), keys.size(), format);
  out.commit();
  std::fprintf(out.is_stdout() ? stderr : stdout, "sorted %zu %s keys on the %s in %.3f ms -> %s\n",
               keys.size(), args.type.c_str(), std::string(backend::to_string(where)).c_str(), ms,
               args.output.c_str());
}

}  // namespace

void add_sort_command(CLI::App& app) {
  auto args = std::make_shared<sort_args>();
  CLI::App* cmd = app.add_subcommand("sort", "Sort a file of keys ascending (stable)");
  cmd->add_option("IN", args->input, "Input file of keys (a file or a pipe)")->required();
  cmd->add_option("-o,--output", args->output, "Output file (written atomically)")->required();
  cmd->add_option("-a,--algo", args->algo, "merge|bitonic|auto (bitonic: GPU only)")
      ->capture_default_str();
  add_key_file_options(cmd, *args);
  cmd->callback([args] {
    const io::file_format format = io::parse_file_format(args->format);
    const io::element_type type = io::parse_element_type(args->type);
    const backend::gpu_sort_algorithm algo = parse_algorithm(args->algo);
    const backend::backend_kind where = backend::resolve_backend(args->backend);
    if (where == backend::backend_kind::cpu && algo == backend::gpu_sort_algorithm::bitonic)
      throw std::invalid_argument(
          "--algo bitonic runs on the GPU only (use --algo merge on the cpu)");
    if (check_options_only) return;
    io::dispatch(type, [&](auto tag) {
      run_sort<typename decltype(tag)::type>(*args, format, algo, where);
    });
  });
}

}  // namespace corank::cli

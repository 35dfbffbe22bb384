// corank search HAYSTACK NEEDLES -o OUT: the lower (or --upper) bound of every needle in a sorted
// haystack, as u64 indices.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/progress.hpp"
#include "cli/commands.hpp"
#include "cli/sorted_input.hpp"
#include "cli/timed_run.hpp"
#include "corank/cpu/sorted_search.hpp"
#include "support/backend/gpu.hpp"
#include "support/backend/gpu_toolbox.hpp"
#include "support/io/array_file.hpp"
#include "support/io/element_type.hpp"
#include "support/io/output_file.hpp"

namespace corank::cli {
namespace {

struct search_args : key_file_options {
  std::string haystack, needles, output;
  bool upper = false;
};

template <class T>
void run_search(const search_args& args, io::file_format format, backend::backend_kind where) {
  io::check_readable(args.haystack);
  io::check_readable(args.needles);
  io::output_file out(args.output);
  bench::progress progress(4, show_progress(args.quiet, args.progress));
  progress.step("reading " + args.haystack);
  const std::vector<T> hay = read_sorted<T>(args.haystack, format, "search");
  progress.step("reading " + args.needles);
  const std::vector<T> needles = io::read_array<T>(args.needles, format);
  const bool sorted = io::first_unsorted(needles.data(), needles.size()) == needles.size();
  std::vector<std::uint64_t> index;
  io::resize_for(index, needles.size(), "the indices");
  progress.step("searching on the " + std::string(backend::to_string(where)));
  const double ms = timed_run(
      where, args.threads,
      [&] {
        return backend::gpu_search(hay.data(), hay.size(), needles.data(), needles.size(), sorted,
                                   args.upper, index.data());
      },
      [&](const cpu::options& opt) {
        const auto h0 = hay.begin(), h1 = hay.end();
        const auto n0 = needles.begin(), n1 = needles.end();
        const auto i0 = index.begin();
        const corank::less less;
        if (sorted)
          args.upper ? cpu::sorted_upper_bound(h0, h1, n0, n1, i0, less, opt)
                     : cpu::sorted_lower_bound(h0, h1, n0, n1, i0, less, opt);
        else
          args.upper ? cpu::upper_bound(h0, h1, n0, n1, i0, less, opt)
                     : cpu::lower_bound(h0, h1, n0, n1, i0, less, opt);
      });
  progress.step("writing " + args.output);
  io::write_array(out, index.data(), index.size(), format);
  out.commit();
  std::fprintf(out.is_stdout() ? stderr : stdout,
               "%s bounds of %zu %s needles (%s) in %zu keys on the %s in %.3f ms -> %s (u64)\n",
               args.upper ? "upper" : "lower", needles.size(), args.type.c_str(),
               sorted ? "sorted: one merge-path pass"
                      : "any order: sorted first or a binary search each, by size",
               hay.size(), std::string(backend::to_string(where)).c_str(), ms, args.output.c_str());
}

}  // namespace

void add_search_command(CLI::App& app) {
  auto args = std::make_shared<search_args>();
  CLI::App* cmd = app.add_subcommand(
      "search", "Lower (or upper) bound of every needle in a sorted haystack, as u64 indices");
  cmd->add_option("HAYSTACK", args->haystack, "Sorted keys searched in")->required();
  cmd->add_option("NEEDLES", args->needles, "Keys searched for (any order; sorted is faster)")
      ->required();
  cmd->add_option("-o,--output", args->output, "Output file of u64 indices (written atomically)")
      ->required();
  cmd->add_flag("--upper", args->upper, "Upper bounds (first key greater) instead of lower");
  add_key_file_options(cmd, *args);
  cmd->callback([args] {
    const io::file_format format = io::parse_file_format(args->format);
    const io::element_type type = io::parse_element_type(args->type);
    const backend::backend_kind where = backend::resolve_backend(args->backend);
    if (check_options_only) return;
    io::dispatch(type,
                 [&](auto tag) { run_search<typename decltype(tag)::type>(*args, format, where); });
  });
}

}  // namespace corank::cli

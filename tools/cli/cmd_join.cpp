// corank join {inner,left,full} A B -o PAIRS: the index pairs of equal keys of two sorted files,
// written as u64 pairs (i, j) one after the other; a missing side (outer joins) is 2^64 - 1.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/progress.hpp"
#include "cli/commands.hpp"
#include "cli/sorted_pair_command.hpp"
#include "cli/timed_run.hpp"
#include "corank/cpu/join.hpp"
#include "support/backend/gpu.hpp"
#include "support/backend/gpu_toolbox.hpp"
#include "support/io/array_file.hpp"
#include "support/io/output_file.hpp"

namespace corank::cli {
namespace {

template <class T>
void run_join(join_kind kind, const std::string& name, const sorted_pair_args& args,
              io::file_format format, backend::backend_kind where) {
  sorted_pair_run<T> run(args, format, "join " + name);
  const std::vector<T>& a = run.a;
  const std::vector<T>& b = run.b;
  io::output_file& out = run.out;
  bench::progress& progress = run.progress;
  progress.step(name + " join on the " + std::string(backend::to_string(where)));
  std::vector<std::size_t> pair_a, pair_b;
  const double ms = timed_run(
      where, args.threads,
      [&] {
        return backend::gpu_join(kind, a.data(), a.size(), b.data(), b.size(), pair_a, pair_b);
      },
      [&](const cpu::options& opt) {
        cpu::join_result r =
            cpu::join(kind, a.begin(), a.end(), b.begin(), b.end(), corank::less{}, opt);
        pair_a = std::move(r.a), pair_b = std::move(r.b);
      });
  progress.step("writing " + args.output);
  std::vector<std::uint64_t> pairs;
  io::resize_for(pairs, 2 * pair_a.size(), "the pairs");
  for (std::size_t k = 0; k < pair_a.size(); ++k)
    pairs[2 * k] = pair_a[k], pairs[2 * k + 1] = pair_b[k];
  io::write_array(out, pairs.data(), pairs.size(), format);
  out.commit();
  std::fprintf(out.is_stdout() ? stderr : stdout,
               "%s join of %zu and %zu %s keys: %zu pairs on the %s in %.3f ms -> %s (u64 pairs)\n",
               name.c_str(), a.size(), b.size(), args.type.c_str(), pair_a.size(),
               std::string(backend::to_string(where)).c_str(), ms, args.output.c_str());
}

}  // namespace

void add_join_command(CLI::App& app) {
  CLI::App* join = app.add_subcommand(
      "join", "Index pairs of equal keys of two sorted files (u64 pairs i, j; 2^64 - 1: none)");
  const sorted_pair_kind<join_kind> kinds[] = {
      {"inner", join_kind::inner, "Every pair (i, j) with A[i] == B[j], by i, then j"},
      {"left", join_kind::left_outer, "As inner, and each i without a match as (i, none)"},
      {"full", join_kind::full_outer, "As left, then each j without a match as (none, j)"},
  };
  add_sorted_pair_subcommands(
      join, kinds, "Output file of u64 pairs (written atomically)",
      [](auto tag, const auto&... args) { run_join<typename decltype(tag)::type>(args...); });
}

}  // namespace corank::cli

// corank set {union,intersection,difference,symmetric-difference} A B -o C: a set operation on two
// sorted files of keys, with std::set_*'s multiset semantics.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/progress.hpp"
#include "cli/commands.hpp"
#include "cli/sorted_pair_command.hpp"
#include "cli/timed_run.hpp"
#include "corank/cpu/set_operations.hpp"
#include "support/backend/gpu.hpp"
#include "support/backend/gpu_toolbox.hpp"
#include "support/io/array_file.hpp"
#include "support/io/output_file.hpp"

namespace corank::cli {
namespace {

template <class T>
void run_set(set_op op, const std::string& name, const sorted_pair_args& args,
             io::file_format format, backend::backend_kind where) {
  sorted_pair_run<T> run(args, format, "set " + name);
  const std::vector<T>& a = run.a;
  const std::vector<T>& b = run.b;
  io::output_file& out = run.out;
  bench::progress& progress = run.progress;
  std::vector<T> result;
  io::resize_for(result, set_operation_max_outputs(op, a.size(), b.size()), "the output");
  progress.step(name + " on the " + std::string(backend::to_string(where)));
  std::size_t count = 0;
  const double ms = timed_run(
      where, args.threads,
      [&] {
        return backend::gpu_set_operation(op, a.data(), a.size(), b.data(), b.size(), result.data(),
                                          &count);
      },
      [&](const cpu::options& opt) {
        count = std::size_t(cpu::set_operation(op, a.begin(), a.end(), b.begin(), b.end(),
                                               result.begin(), corank::less{}, opt) -
                            result.begin());
      });
  progress.step("writing " + args.output);
  io::write_array(out, result.data(), count, format);
  out.commit();
  std::fprintf(out.is_stdout() ? stderr : stdout,
               "%s of %zu and %zu %s keys: %zu keys on the %s in %.3f ms -> %s\n", name.c_str(),
               a.size(), b.size(), args.type.c_str(), count,
               std::string(backend::to_string(where)).c_str(), ms, args.output.c_str());
}

}  // namespace

void add_set_command(CLI::App& app) {
  CLI::App* set = app.add_subcommand(
      "set", "Set operations on two sorted files of keys (multisets, as std::set_*)");
  const sorted_pair_kind<set_op> operations[] = {
      {"union", set_op::unite, "Keys in A or B (a key p times in A, q in B: max(p, q) times)"},
      {"intersection", set_op::intersect, "Keys in both (min(p, q) times)"},
      {"difference", set_op::difference, "Keys of A not in B (max(p - q, 0) times)"},
      {"symmetric-difference", set_op::symmetric_difference,
       "Keys in exactly one of them (|p - q| times)"},
  };
  add_sorted_pair_subcommands(
      set, operations, "Output file (written atomically)",
      [](auto tag, const auto&... args) { run_set<typename decltype(tag)::type>(args...); });
}

}  // namespace corank::cli

// corank gen: make test data.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "support/data/generate.hpp"
#include "support/data/matrix_like.hpp"
#include "support/io/array_file.hpp"
#include "support/io/element_type.hpp"
#include "support/io/matrix_market.hpp"
#include "support/io/output_file.hpp"

namespace corank::cli {
namespace {

struct gen_args {
  std::string output, type = "u32", format = "binary", dist = "uniform", order = "sorted";
  std::string count = "1000";
  std::uint64_t seed = 1;
};

/// corank gen matrix --like NAME -o FILE.mtx: a stand-in of one of the study's matrices.
void add_gen_matrix_command(CLI::App& gen) {
  struct matrix_args {
    std::string like, output;
    std::uint64_t seed = 1;
    bool pattern = false;
  };
  auto args = std::make_shared<matrix_args>();
  std::string names;
  for (const auto& s : data::study_matrices())
    names += std::string(names.empty() ? "" : ", ") + s.name;
  CLI::App* cmd = gen.add_subcommand(
      "matrix",
      "A Matrix Market file shaped like one of the study's matrices (rows, columns, "
      "non-zeros as published; a resembling row-length distribution)");
  cmd->add_option("--like", args->like, names)->required();
  cmd->add_option("-o,--output", args->output, "Output .mtx file (written atomically)")->required();
  cmd->add_option("-s,--seed", args->seed, "Random seed")
      ->check(non_negative())
      ->capture_default_str();
  cmd->add_flag("--pattern", args->pattern, "Write a pattern matrix (no values)");
  cmd->callback([args] {
    const auto& shape = data::find_matrix(args->like);
    if (check_options_only) return;
    io::output_file out(args->output);
    const auto m = data::generate_matrix_like(shape, args->seed);
    io::write_matrix_market(out, m, args->pattern,
                            std::string("corank stand-in for ") + shape.name + " (" + shape.kind +
                                "), seed " + std::to_string(args->seed));
    out.commit();
    std::fprintf(out.is_stdout() ? stderr : stdout,
                 "wrote %s: %zu x %zu, %zu non-zeros, like %s (%s) to %s\n",
                 args->pattern ? "pattern" : "real", m.rows, m.cols, m.nnz(), shape.name,
                 shape.kind, args->output.c_str());
  });
}

}  // namespace

void add_gen_command(CLI::App& app) {
  auto args = std::make_shared<gen_args>();
  CLI::App* cmd = app.add_subcommand("gen", "Generate an array of keys (or: gen matrix)");
  cmd->add_option("-o,--output", args->output, "Output file (written atomically)");
  cmd->add_option("-n,--count", args->count, "Number of keys, e.g. 1000, 10K, 1.5M")
      ->capture_default_str();
  cmd->add_option("-t,--type", args->type, "u32|i32|u64|i64|f32|f64")->capture_default_str();
  cmd->add_option("-f,--format", args->format, "binary|text")->capture_default_str();
  cmd->add_option("-d,--dist", args->dist,
                  "uniform|equal|few|low|high (a 'low' file lies entirely before a 'high' one)")
      ->capture_default_str();
  cmd->add_option("--order", args->order, "sorted|unsorted|reversed")->capture_default_str();
  cmd->add_option("-s,--seed", args->seed, "Random seed")
      ->check(non_negative())
      ->capture_default_str();
  add_gen_matrix_command(*cmd);
  cmd->callback([args, cmd] {
    if (cmd->got_subcommand("matrix")) return;
    if (cmd->count("--output") == 0) throw CLI::RequiredError("--output");
    const std::size_t count = parse_count(args->count);
    const auto format = io::parse_file_format(args->format);
    const auto dist = data::parse_distribution(args->dist);
    const auto ord = data::parse_order(args->order);
    const auto type = io::parse_element_type(args->type);
    if (check_options_only) return;
    io::check_memory(double(count) * double(io::size_of(type)),
                     std::to_string(count) + " " + args->type + " keys");
    io::output_file out(args->output);
    io::dispatch(type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const auto keys = data::generate_keys<T>(count, dist, ord, args->seed);
      io::write_array(out, keys.data(), keys.size(), format);
    });
    out.commit();
    std::fprintf(out.is_stdout() ? stderr : stdout, "wrote %zu %s keys (%s, %s) to %s\n", count,
                 args->type.c_str(), args->dist.c_str(), args->order.c_str(), args->output.c_str());
  });
}

}  // namespace corank::cli

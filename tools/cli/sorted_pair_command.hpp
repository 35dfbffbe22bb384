// The shape the commands on two sorted key files share (set, join): `corank CMD KIND A B -o OUT`,
// one subcommand per kind, and the reading of A and B.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "bench/progress.hpp"
#include "cli/commands.hpp"
#include "cli/sorted_input.hpp"
#include "support/backend/gpu.hpp"
#include "support/io/array_file.hpp"
#include "support/io/element_type.hpp"

namespace corank::cli {

/// A B -o OUTPUT and the key-file options.
struct sorted_pair_args : key_file_options {
  std::string input_a, input_b, output;
};

/// One subcommand: its name, the kind of the operation it runs, its help.
template <class Kind>
struct sorted_pair_kind {
  const char* name;
  Kind kind;
  const char* help;
};

/// One subcommand of `parent` per kind, each taking A, B, -o (`output_help`) and the key-file
/// options; once they are checked, run(tag, kind, name, args, format, where) with the tag of the
/// key type (io::dispatch).
template <class Kind, std::size_t N, class Run>
void add_sorted_pair_subcommands(CLI::App* parent, const sorted_pair_kind<Kind> (&kinds)[N],
                                 const char* output_help, Run run) {
  parent->require_subcommand(1);
  for (const sorted_pair_kind<Kind>& k : kinds) {
    auto args = std::make_shared<sorted_pair_args>();
    CLI::App* cmd = parent->add_subcommand(k.name, k.help);
    cmd->add_option("A", args->input_a, "First sorted input (a file or a pipe)")->required();
    cmd->add_option("B", args->input_b, "Second sorted input (a file or a pipe)")->required();
    cmd->add_option("-o,--output", args->output, output_help)->required();
    add_key_file_options(cmd, *args);
    const Kind kind = k.kind;
    const std::string name = k.name;
    cmd->callback([args, kind, name, run] {
      const io::file_format format = io::parse_file_format(args->format);
      const io::element_type type = io::parse_element_type(args->type);
      const backend::backend_kind where = backend::resolve_backend(args->backend);
      if (check_options_only) return;
      io::dispatch(type, [&](auto tag) { run(tag, kind, name, *args, format, where); });
    });
  }
}

/// A and B, each read as a step of `progress` and refused unless sorted (`command` names the
/// caller in the refusal).
template <class T>
struct sorted_pair {
  std::vector<T> a, b;
};
template <class T>
sorted_pair<T> read_sorted_pair(const sorted_pair_args& args, io::file_format format,
                                const std::string& command, bench::progress& progress) {
  sorted_pair<T> in;
  progress.step("reading " + args.input_a);
  in.a = read_sorted<T>(args.input_a, format, command);
  progress.step("reading " + args.input_b);
  in.b = read_sorted<T>(args.input_b, format, command);
  return in;
}

}  // namespace corank::cli

// The shape the commands on two sorted key files share (set, join): `corank CMD KIND A B -o OUT`,
// one subcommand per kind, and a run's setup (inputs checked and read, output opened, progress).
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
#include "support/io/output_file.hpp"

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

/// What a command on A and B works with, set up in this order: both inputs checked readable and
/// the output opened (a bad one fails before the work), progress over four steps (two reads, the
/// work, the write), A and B read, each refused unless sorted (`command` names the caller).
template <class T>
struct sorted_pair_run {
  sorted_pair_run(const sorted_pair_args& args, io::file_format format, const std::string& command)
      : out((io::check_readable(args.input_a), io::check_readable(args.input_b), args.output)),
        progress(4, show_progress(args.quiet, args.progress)),
        a(read_step(args.input_a, format, command)),
        b(read_step(args.input_b, format, command)) {}

  io::output_file out;
  bench::progress progress;
  const std::vector<T> a, b;

 private:
  std::vector<T> read_step(const std::string& path, io::file_format format,
                           const std::string& command) {
    progress.step("reading " + path);
    return read_sorted<T>(path, format, command);
  }
};

}  // namespace corank::cli

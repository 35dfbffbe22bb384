// Each CLI subcommand lives in its own file and registers itself on the app.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace corank::bench {
class progress;
}

namespace corank::cli {

/// Runs the tool on `argv`: parses, runs the subcommand, reports errors on stderr; returns the
/// exit status (0: done; 1: an error, said on stderr; CLI11's codes for usage errors).
int run(int argc, const char* const* argv);

/// When set, the commands check their options and return before touching any file or device:
/// the argument fuzzer (tests/fuzz/fuzz_cli_args.cpp) runs the tool this way.
extern bool check_options_only;

/// The version the tool prints (--version, `corank info`): the CMake project's.
const char* version();

/// The options every key-file command shares: --type, --format, --backend, --threads, and how
/// progress shows.
struct key_file_options {
  std::string type = "u32", format = "binary", backend = "auto";
  int threads = 0;
  bool quiet = false, progress = false;
};
void add_key_file_options(CLI::App* cmd, key_file_options& opts);

/// -q/--quiet and --progress on `cmd`: progress on stderr while a long run works, shown on a
/// terminal unless --quiet, and anywhere (one line per step) with --progress.
void add_progress_options(CLI::App* cmd, bool& quiet, bool& progress);
bool show_progress(bool quiet, bool progress);

/// Refuses a negative value for an unsigned or count option ("--threads -3", "--seed -1"),
/// which would otherwise wrap or mean "all".
CLI::Validator non_negative();

/// "1000", "10K", "1.5M", "1G" -> items (powers of ten; a whole number, at least 1);
/// std::invalid_argument("bad size ...") otherwise.
std::size_t parse_size(const std::string& text);
std::vector<std::size_t> parse_sizes(const std::vector<std::string>& texts);
/// The same for a count that may be 0 (gen -n): std::invalid_argument("bad count ...").
std::size_t parse_count(const std::string& text);

void add_merge_command(CLI::App& app);
void add_gen_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_spmv_scan_command(CLI::App& app);
void add_sort_command(CLI::App& app);
void add_tune_command(CLI::App& app);
void add_search_command(CLI::App& app);
void add_set_command(CLI::App& app);
void add_join_command(CLI::App& app);

}  // namespace corank::cli

// The tool's application: every subcommand, --version, and the top-level error handling (a clear
// message and a non-zero exit for every failure, including out of memory and a standard output
// that could not be written).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include "cli/commands.hpp"

namespace corank::cli {

bool check_options_only = false;

const char* version() { return CORANK_CLI_VERSION; }

CLI::Validator non_negative() {
  return CLI::Validator(
      [](std::string& value) {
        const std::size_t first = value.find_first_not_of(" \t");
        return first != std::string::npos && value[first] == '-'
                   ? "must not be negative (got " + value + ")"
                   : std::string();
      },
      "NON-NEGATIVE");
}

void add_progress_options(CLI::App* cmd, bool& quiet, bool& progress) {
  cmd->add_flag("-q,--quiet", quiet, "No progress on stderr");
  cmd->add_flag("--progress", progress,
                "Progress on stderr even when it is not a terminal (one line per step)");
}

bool show_progress(bool quiet, bool progress) {
  return !quiet && (progress || ::isatty(STDERR_FILENO));
}

int run(int argc, const char* const* argv) {
  CLI::App app{std::string("corank ") + version() +
               ": co-rank (merge-path) parallel merge, sort and segmented scan"};
  app.set_version_flag("--version", std::string("corank ") + version());
  app.require_subcommand(1);
  app.footer(
      "Outputs (-o, --json, --csv) are checked before the work and written to a temporary file\n"
      "renamed into place (devices, FIFOs and /dev/stdout directly); an interrupted run leaves\n"
      "no partial output. Inputs may be pipes; Matrix Market files may be .mtx.gz.");
  add_merge_command(app);
  add_gen_command(app);
  add_info_command(app);
  add_bench_command(app);
  add_spmv_scan_command(app);
  add_sort_command(app);
  add_tune_command(app);
  add_search_command(app);
  add_set_command(app);
  add_join_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "corank: error: out of memory (try smaller inputs, or a machine with more)\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corank: error: %s\n", e.what());
    return 1;
  }
  // Results on stdout count too: a full disk or a closed pipe there is a failure.
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
    std::fprintf(stderr, "corank: error: cannot write the standard output: %s\n",
                 std::strerror(errno ? errno : EIO));
    return 1;
  }
  return 0;
}

}  // namespace corank::cli

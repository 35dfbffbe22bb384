// corank: the command-line tool.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "cli/commands.hpp"
#include "corank/config.hpp"

int main(int argc, char** argv) {
  CLI::App app{"corank " CORANK_VERSION_STRING
               ": co-rank (merge-path) parallel merge, sort and segmented scan"};
  app.require_subcommand(1);
  corank::cli::add_merge_command(app);
  corank::cli::add_gen_command(app);
  corank::cli::add_info_command(app);
  corank::cli::add_bench_command(app);
  corank::cli::add_spmv_scan_command(app);
  corank::cli::add_sort_command(app);
  corank::cli::add_tune_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corank: error: %s\n", e.what());
    return 1;
  }
  return 0;
}

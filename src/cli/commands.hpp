// Each CLI subcommand lives in its own file and registers itself on the app.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace corank::cli {

/// The options every key-file command shares: --type, --format, --backend, --threads.
struct key_file_options {
  std::string type = "u32", format = "binary", backend = "auto";
  int threads = 0;
};
void add_key_file_options(CLI::App* cmd, key_file_options& opts);

void add_merge_command(CLI::App& app);
void add_gen_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_spmv_scan_command(CLI::App& app);
void add_sort_command(CLI::App& app);

}  // namespace corank::cli

// Each CLI subcommand lives in its own file and registers itself on the app.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

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

/// "1000", "10K", "1.5M", "1G" -> items; std::invalid_argument("bad size ...") otherwise.
std::size_t parse_size(const std::string& text);
std::vector<std::size_t> parse_sizes(const std::vector<std::string>& texts);

void add_merge_command(CLI::App& app);
void add_gen_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_spmv_scan_command(CLI::App& app);
void add_sort_command(CLI::App& app);
void add_tune_command(CLI::App& app);

}  // namespace corank::cli

// Each CLI subcommand lives in its own file and registers itself on the app.
#pragma once

namespace CLI {
class App;
}

namespace corank::cli {

void add_merge_command(CLI::App& app);
void add_gen_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_spmv_scan_command(CLI::App& app);

}  // namespace corank::cli

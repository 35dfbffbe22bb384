// The options shared by the commands that read and write files of keys.
#include <CLI/CLI.hpp>

#include "cli/commands.hpp"

namespace corank::cli {

void add_key_file_options(CLI::App* cmd, key_file_options& opts) {
  cmd->add_option("-t,--type", opts.type, "Key type: u32|i32|u64|i64|f32|f64")
      ->capture_default_str();
  cmd->add_option("-f,--format", opts.format, "File format: binary (raw) | text (one per line)")
      ->capture_default_str();
  cmd->add_option("-b,--backend", opts.backend, "cpu|gpu|auto")->capture_default_str();
  cmd->add_option("--threads", opts.threads, "CPU threads (0: OMP_NUM_THREADS or all cores)")
      ->check(non_negative())
      ->capture_default_str();
  add_progress_options(cmd, opts.quiet, opts.progress);
}

}  // namespace corank::cli

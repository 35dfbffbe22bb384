// libFuzzer target: the command line. The input is split at newlines into arguments after
// "corank"; the tool runs with check_options_only, so every command parses and checks its options
// and stops before any file or device work. No argument list may crash, hang or reach undefined
// behaviour; a bad one must end in an exit status (CLI11's usage errors, or 1 with a message).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli/commands.hpp"

// Help texts and error messages come by the thousand: run with -close_fd_mask=3 (libFuzzer keeps
// its own output and the sanitizers' reports).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  corank::cli::check_options_only = true;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"corank"};
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current += char(data[i]);
    }
  }
  args.push_back(current);
  if (args.size() > 64) return 0;
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);
  corank::cli::run(int(args.size()), argv.data());
  return 0;
}

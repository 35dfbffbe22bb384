// The CLI test fixture: runs the built `corank` binary (CORANK_CLI) in a fresh folder per test.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/temp_dir_test.hpp"

namespace fs = std::filesystem;

namespace corank::test {

struct result {
  int exit_code;
  std::string output;  // stdout and stderr together
};

/// Runs `command` through /bin/sh; captures its stdout (add "2>&1" for stderr too).
inline result run_shell(const std::string& command) {
  result r{-1, {}};
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buffer;
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    r.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Runs corank with `args`; stdout and stderr together.
inline result run_cli(const std::string& args) {
  return run_shell(std::string(CORANK_CLI) + " " + args + " 2>&1");
}

/// `text` in single quotes for /bin/sh.
inline std::string sh_quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

class Cli : public corank::test::temp_dir_test {
 protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  template <class T>
  void write(const std::string& name, const std::vector<T>& values) {
    std::ofstream(path(name), std::ios::binary)
        .write(reinterpret_cast<const char*>(values.data()),
               std::streamsize(values.size() * sizeof(T)));
  }

  void write_text(const std::string& name, const std::string& text) {
    std::ofstream(path(name)) << text;
  }

  // Only the files we created: no output and no leftover temporary file.
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  void expect_failure(const std::string& args, const std::string& message) {
    const auto before = files();
    const result r = run_cli(args);
    EXPECT_NE(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos)
        << "expected '" << message << "' in: " << r.output;
    EXPECT_EQ(files(), before) << "a failed run must leave no file behind";
  }

  std::string read_file(const std::string& name) const {
    std::ifstream in(path(name), std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
};

}  // namespace corank::test

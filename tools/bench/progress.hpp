// Progress of a long benchmark on stderr: one line rewritten in place on a terminal, one line per
// step otherwise (logs), nothing when disabled. stdout stays clean for the table.
#pragma once

#include <chrono>
#include <string>

namespace corank::bench {

class progress {
 public:
  progress(int total_steps, bool enabled = true);
  ~progress();  // clears the line on a terminal
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;

  /// Announces the step about to run.
  void step(const std::string& what);

 private:
  int total_, done_ = 0;
  bool enabled_, terminal_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace corank::bench

// One row source of a benchmark: a named implementation on a backend that times itself on a
// problem. Experiments hold lists of these, so a backend adds rows by adding contenders.
#pragma once

#include <functional>
#include <string>

#include "report.hpp"
#include "timing.hpp"

namespace corank::bench {

template <class Problem>
struct contender {
  std::string name;
  std::string backend = "cpu";
  role kind = role::contender;
  /// Runs the implementation on `problem` (warm-up + timed runs), leaving its output where the
  /// problem says, so the runner can check it.
  std::function<stats(const Problem&, const timing_config&)> measure;
};

}  // namespace corank::bench

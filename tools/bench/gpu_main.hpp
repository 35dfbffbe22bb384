// Shared by the standalone GPU benchmark binaries: print the reports, write the JSON.
#pragma once

#include <iostream>
#include <string>
#include <vector>

#include "bench/report.hpp"

namespace corank::bench {

/// Prints each report's table, writes them all to `json_path` (if any); the exit code: 0 when
/// every output was verified, else 1.
inline int print_reports(const std::vector<report>& reports, const std::string& json_path) {
  bool ok = true;
  for (const report& rep : reports) {
    rep.print_table(std::cout);
    std::cout << "\n";
    ok = ok && rep.all_verified();
  }
  if (!json_path.empty()) write_json(json_path, reports);
  return ok ? 0 : 1;
}

}  // namespace corank::bench

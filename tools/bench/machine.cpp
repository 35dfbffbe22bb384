#include "bench/machine.hpp"

#include <unistd.h>

#include <fstream>
#include <thread>

#include "corank/config.hpp"
#include "corank/cpu/options.hpp"

namespace corank::bench {
namespace {

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "unknown";
}

std::string compiler() {
#if defined(__clang__)
  return "Clang " __clang_version__;
#elif defined(__GNUC__)
  return "GCC " __VERSION__;
#else
  return "unknown";
#endif
}

}  // namespace

std::string cuda_version_string(int encoded) {
  if (encoded <= 0) return "";
  return std::to_string(encoded / 1000) + "." + std::to_string(encoded % 1000 / 10);
}

machine_info describe_machine() {
  machine_info m;
  char host[256] = {};
  m.host = gethostname(host, sizeof host - 1) == 0 ? host : "unknown";
  m.cpu_model = cpu_model();
  m.cores = static_cast<int>(std::thread::hardware_concurrency());
  m.omp_threads = cpu::detail::max_threads();
  m.compiler = compiler();
  m.corank_version = CORANK_VERSION_STRING;
  m.gpu = backend::query_gpu();
  return m;
}

}  // namespace corank::bench

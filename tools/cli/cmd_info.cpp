// corank info: version, backends, GPU.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/commands.hpp"
#include "corank/cpu/options.hpp"
#include "support/backend/gpu.hpp"

namespace corank::cli {

void add_info_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("info", "Version, backends compiled in, GPU found or not");
  cmd->callback([] {
    const backend::gpu_info gpu = backend::query_gpu();
    std::printf("corank %s\n", version());
    std::printf("cpu backend : OpenMP, %d threads\n", cpu::detail::max_threads());
    std::printf("cuda backend: %s\n", gpu.compiled ? "compiled in" : "not compiled in");
    if (gpu.available)
      std::printf("gpu         : %s (sm_%d, %d SMs, %.1f GiB)\n", gpu.name.c_str(),
                  gpu.compute_capability, gpu.multiprocessors,
                  double(gpu.memory_bytes) / (1u << 30));
    else
      std::printf("gpu         : none (%s)\n", gpu.name.c_str());
  });
}

}  // namespace corank::cli

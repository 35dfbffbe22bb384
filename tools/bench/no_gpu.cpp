// The GPU benchmark entry points of a corank built without CUDA.
#include <stdexcept>

#include "bench/gpu_merge.hpp"
#include "bench/gpu_merge_tune.hpp"
#include "bench/gpu_segmented_scan.hpp"
#include "bench/gpu_segmented_sort.hpp"
#include "bench/gpu_sort.hpp"
#include "bench/gpu_toolbox.hpp"

namespace corank::bench {
namespace {

[[noreturn]] void no_cuda() {
  throw std::runtime_error("this corank was built without the CUDA backend");
}

}  // namespace

std::vector<report> run_gpu_merge_bench(const gpu_merge_config&) { no_cuda(); }
cuda::merge_tuning run_gpu_merge_tune(const gpu_merge_tune_config&, std::ostream&) { no_cuda(); }
report run_gpu_segmented_scan_bench(const gpu_scan_bench_config&) { no_cuda(); }
report run_gpu_spmv_scan_bench(const gpu_scan_bench_config&) { no_cuda(); }
std::vector<report> run_gpu_sort_bench(const gpu_sort_config&) { no_cuda(); }
report run_gpu_segmented_sort_bench(const gpu_segmented_sort_config&) { no_cuda(); }
report run_gpu_toolbox_bench(const gpu_toolbox_config&) { no_cuda(); }

}  // namespace corank::bench

#include "bench/spmv_bench.hpp"

#include <algorithm>
#include <random>

#include "bench/copy_bandwidth.hpp"
#include "bench/progress.hpp"
#include "corank/cpu/options.hpp"
#include "support/backend/spmv_scan.hpp"
#include "support/data/matrix_like.hpp"

namespace corank::bench {
namespace {

/// One pass of the iteration on one thread, in float like the parallel one.
void sequential_pass(float* a, const float* xbar, const std::int64_t* offsets, std::size_t rows) {
  for (std::size_t r = 0; r < rows; ++r) {
    float acc = 0;
    for (auto l = std::size_t(offsets[r]); l < std::size_t(offsets[r + 1]); ++l)
      a[l] = acc = acc + a[l] * xbar[l];
  }
}

}  // namespace

std::vector<std::string> default_spmv_matrices(bool quick) {
  if (quick) return {"cant", "webbase-1M"};
  std::vector<std::string> names;
  for (const auto& s : data::study_matrices()) names.push_back(s.name);
  return names;
}

report run_cpu_spmv_scan_bench(const run_config& config, const std::vector<std::string>& matrices) {
  const int threads = config.threads > 0 ? config.threads : cpu::detail::max_threads();
  report rep("cpu spmv-scan");
  rep.set_meta("iteration", "a = segmented scan of a * xbar by row, f32, the study's counts");
  rep.set_meta("threads", std::to_string(threads));
  progress bar(int(1 + 4 * matrices.size()), config.show_progress);

  bar.step("cpu spmv-scan: memcpy");
  {
    const std::size_t bytes = std::size_t(128) << 20;
    std::vector<char> from(bytes, 1), to(bytes);
    rep.add(problem_shape("", "cpu", bytes / sizeof(float), bytes / sizeof(float), 2 * bytes, 1,
                          threads),
            "memcpy", role::copy,
            measure_host_copy(to.data(), from.data(), bytes, threads, config.timing));
  }
  for (const std::string& name : matrices) {
    const std::string label = "cpu spmv-scan " + name + ": ";
    bar.step(label + "generating the matrix");
    const auto& matrix_shape = data::find_matrix(name);
    const auto m = data::generate_matrix_like(matrix_shape, config.seed);
    const std::size_t n = m.nnz();
    const int iterations = matrix_shape.study_iterations;
    std::vector<float> a0(m.values.begin(), m.values.end()), xbar(n), a(n);
    std::mt19937_64 rng(config.seed);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> x(m.cols);
    for (float& v : x) v = d(rng);
    for (std::size_t l = 0; l < n; ++l) xbar[l] = x[std::size_t(m.col_indices[l])];
    const auto want = backend::reference_spmv_scan(a0, xbar, m.row_offsets, iterations);

    // `run` does all the iterations.
    const auto add = [&](const std::string& contender, role kind, int run_threads,
                         const std::function<void()>& run) {
      bar.step(label + contender);
      // 12 bytes per element: read a and xbar, write a.
      const row shape = problem_shape(name, "cpu", n, n, 12 * n, iterations, run_threads);
      const stats time = measure_with_setup([&] { std::copy(a0.begin(), a0.end(), a.begin()); },
                                            run, config.timing);
      rep.add(shape, contender, kind, time, backend::relative_l2_error(a, want) < 1e-4);
    };
    add("sequential pass", role::baseline, 1, [&] {
      for (int it = 0; it < iterations; ++it)
        sequential_pass(a.data(), xbar.data(), m.row_offsets.data(), m.rows);
    });
    // The library's iteration: several steps on each block in cache, then one step per pass.
    for (const int steps_per_pass : {0, 1})
      add(steps_per_pass ? "corank::cpu fused, one step per pass" : "corank::cpu fused pass",
          role::contender, threads, [&] {
            backend::cpu_spmv_scan(a.data(), xbar.data(), m.row_offsets.data(), n, m.rows,
                                   iterations, threads, steps_per_pass);
          });
  }
  return rep;
}

}  // namespace corank::bench

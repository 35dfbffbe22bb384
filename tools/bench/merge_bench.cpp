#include "bench/merge_bench.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "bench/copy_bandwidth.hpp"
#include "corank/cpu/merge.hpp"
#include "support/data/generate.hpp"
#include "bench/gnu_parallel.hpp"
#include "bench/progress.hpp"

namespace corank::bench {
namespace {

std::vector<std::uint32_t> sorted_uniform(std::size_t n, std::uint64_t seed, int threads) {
  auto keys = data::generate_keys<std::uint32_t>(n, data::distribution::uniform,
                                                 data::order::unsorted, seed);
  gnu_parallel_sort(keys.data(), keys.data() + keys.size(), threads);
  return keys;
}

}  // namespace

std::vector<std::size_t> default_merge_sizes(bool quick) {
  // Quick still reaches 10M per input, where the parallel merges pull away (a second or two).
  if (quick) return {1000, 10000, 100000, 1000000, 10000000};
  return {1000, 10000, 100000, 1000000, 10000000, 100000000};
}

std::vector<merge_contender> cpu_merge_contenders() {
  using P = merge_problem;
  return {
      {"memcpy", "cpu", role::copy, 0,
       [](const P& p, const timing_config& cfg) {
         // Reads and writes as many bytes as the merge: the output's size, once each way.
         return measure_host_copy(p.out, p.expected, (p.m + p.n) * sizeof(std::uint32_t), p.threads,
                                  cfg);
       }},
      {"std::merge", "cpu", role::baseline, 1,
       [](const P& p, const timing_config& cfg) {
         return measure([&] { std::merge(p.a, p.a + p.m, p.b, p.b + p.n, p.out); }, cfg);
       }},
      {"__gnu_parallel::merge", "cpu", role::contender, 0,
       [](const P& p, const timing_config& cfg) {
         return measure([&] { gnu_parallel_merge(p.a, p.m, p.b, p.n, p.out, p.threads); }, cfg);
       }},
      {"corank::cpu::merge", "cpu", role::contender, 0,
       [](const P& p, const timing_config& cfg) {
         cpu::options opt;
         opt.threads = p.threads;
         return measure(
             [&] { cpu::merge(p.a, p.a + p.m, p.b, p.b + p.n, p.out, corank::less{}, opt); }, cfg);
       }},
  };
}

report run_merge_bench(const run_config& config, const std::vector<merge_contender>& contenders) {
  const int threads = config.threads > 0 ? config.threads : cpu::detail::max_threads();
  report rep("cpu merge");
  rep.set_meta("keys", "u32 uniform random, sorted");
  rep.set_meta("threads", std::to_string(threads));
  progress bar(static_cast<int>(config.sizes.size() * (contenders.size() + 1)),
               config.show_progress);
  for (const std::size_t n : config.sizes) {
    bar.step("merge " + human_count(n) + " per input: generating inputs");
    const auto a = sorted_uniform(n, config.seed * 2, threads);
    const auto b = sorted_uniform(n, config.seed * 2 + 1, threads);
    std::vector<std::uint32_t> expected(2 * n), out(2 * n);
    std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin());
    const merge_problem problem{a.data(), n, b.data(), n, out.data(), threads, expected.data()};
    row shape;
    shape.size = n;
    shape.items = 2 * n;
    shape.bytes = 2 * (2 * n) * sizeof(std::uint32_t);  // inputs read once, output written once
    shape.threads = threads;
    run_contenders(contenders, problem, shape, config.timing,
                   "merge " + human_count(n) + " per input", bar, rep, [&](const merge_contender&) {
                     const bool ok = out == expected;
                     std::fill(out.begin(), out.end(), 0xDEADBEEFu);  // poison for the next
                     return ok;
                   });
  }
  return rep;
}

}  // namespace corank::bench

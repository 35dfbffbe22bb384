#include "bench/sort_bench.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "bench/copy_bandwidth.hpp"
#include "corank/cpu/sort.hpp"
#include "support/data/generate.hpp"
#include "bench/gnu_parallel.hpp"
#include "bench/progress.hpp"

namespace corank::bench {
namespace {

/// Times `sort(keys, keys + n)`, restoring the unsorted input before every run (untimed).
template <class Sort>
stats measure_sort(const sort_problem& p, const timing_config& cfg, Sort&& sort) {
  return measure_with_setup([&] { std::memcpy(p.keys, p.input, p.n * sizeof(std::uint32_t)); },
                            [&] { sort(p.keys, p.keys + p.n); }, cfg);
}

}  // namespace

std::vector<std::size_t> default_sort_sizes(bool quick) {
  if (quick) return {1000, 10000, 100000, 1000000};
  return {1000, 10000, 100000, 1000000, 10000000, 20000000};
}

std::vector<sort_contender> cpu_sort_contenders() {
  using P = sort_problem;
  using key = std::uint32_t;
  return {
      {"memcpy", "cpu", role::copy, 0,
       [](const P& p, const timing_config& cfg) {
         // The bytes one read and one write of every key move; leaves the input in place.
         return measure_host_copy(p.keys, p.input, p.n * sizeof(key), p.threads, cfg);
       }},
      {"std::sort", "cpu", role::baseline, 1,
       [](const P& p, const timing_config& cfg) {
         return measure_sort(p, cfg, [](key* f, key* l) { std::sort(f, l); });
       }},
      {"std::stable_sort", "cpu", role::contender, 1,
       [](const P& p, const timing_config& cfg) {
         return measure_sort(p, cfg, [](key* f, key* l) { std::stable_sort(f, l); });
       }},
      {"__gnu_parallel multiway mergesort", "cpu", role::contender, 0,
       [](const P& p, const timing_config& cfg) {
         return measure_sort(p, cfg, [&](key* f, key* l) { gnu_parallel_sort(f, l, p.threads); });
       }},
      {"corank::cpu::stable_sort", "cpu", role::contender, 0,
       [](const P& p, const timing_config& cfg) {
         cpu::options opt;
         opt.threads = p.threads;
         return measure_sort(p, cfg,
                             [&](key* f, key* l) { cpu::stable_sort(f, l, corank::less{}, opt); });
       }},
  };
}

report run_sort_bench(const run_config& config, const std::vector<sort_contender>& contenders) {
  const int threads = config.threads > 0 ? config.threads : cpu::detail::max_threads();
  report rep("cpu sort");
  rep.set_meta("keys", "u32 uniform random");
  rep.set_meta("threads", std::to_string(threads));
  progress bar(static_cast<int>(config.sizes.size() * (contenders.size() + 1)),
               config.show_progress);
  for (const std::size_t n : config.sizes) {
    bar.step("sort " + human_count(n) + ": generating input");
    const auto input = data::generate_keys<std::uint32_t>(n, data::distribution::uniform,
                                                          data::order::unsorted, config.seed);
    auto expected = input;
    gnu_parallel_sort(expected.data(), expected.data() + n, threads);
    std::vector<std::uint32_t> keys(n);
    const sort_problem problem{input.data(), keys.data(), n, threads};
    row shape;
    shape.size = n;
    shape.items = n;
    shape.bytes = 2 * n * sizeof(std::uint32_t);  // every key read once and written once
    shape.threads = threads;
    run_contenders(contenders, problem, shape, config.timing, "sort " + human_count(n), bar, rep,
                   [&](const sort_contender& c) {
                     // The copy leaves the unsorted input: check that it copied it.
                     const bool ok = c.kind == role::copy
                                         ? std::equal(keys.begin(), keys.end(), input.begin())
                                         : keys == expected;
                     std::fill(keys.begin(), keys.end(), 0xDEADBEEFu);
                     return ok;
                   });
  }
  return rep;
}

}  // namespace corank::bench

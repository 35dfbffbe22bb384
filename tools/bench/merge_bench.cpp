#include "bench/merge_bench.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "bench/copy_bandwidth.hpp"
#include "bench/gnu_parallel.hpp"
#include "bench/progress.hpp"
#include "corank/cpu/merge.hpp"
#include "support/data/generate.hpp"

namespace corank::bench {
namespace {

std::vector<std::uint32_t> sorted_uniform(std::size_t n, std::uint64_t seed, int threads) {
  auto keys = data::generate_keys<std::uint32_t>(n, data::distribution::uniform,
                                                 data::order::unsorted, seed);
  gnu_parallel_sort(keys.data(), keys.data() + keys.size(), threads);
  return keys;
}

/// Sorted inputs: keys alone, or keys with values recording their input and position.
template <class T>
std::vector<T> sorted_input(std::size_t n, std::uint64_t seed, int threads, std::uint32_t side) {
  const auto keys = sorted_uniform(n, seed, threads);
  if constexpr (std::is_same_v<T, key_value32>) {
    std::vector<key_value32> pairs(n);
    for (std::size_t i = 0; i < n; ++i) pairs[i] = {keys[i], std::uint32_t(i) | side << 31};
    return pairs;
  } else {
    return keys;
  }
}

template <class T>
merge_contender_of<T> copy_contender() {
  return {"memcpy", "cpu", role::copy, 0,
          [](const merge_problem_of<T>& p, const timing_config& cfg) {
            // Reads and writes as many bytes as the merge: the output's size, once each way.
            return measure_host_copy(p.out, p.expected, (p.m + p.n) * sizeof(T), p.threads, cfg);
          }};
}

template <class T>
merge_contender_of<T> std_merge_contender(std::string name) {
  return {std::move(name), "cpu", role::baseline, 1,
          [](const merge_problem_of<T>& p, const timing_config& cfg) {
            return measure([&] { std::merge(p.a, p.a + p.m, p.b, p.b + p.n, p.out); }, cfg);
          }};
}

template <class T>
merge_contender_of<T> gnu_contender(std::string name) {
  return {std::move(name), "cpu", role::contender, 0,
          [](const merge_problem_of<T>& p, const timing_config& cfg) {
            return measure([&] { gnu_parallel_merge(p.a, p.m, p.b, p.n, p.out, p.threads); }, cfg);
          }};
}

template <class T>
merge_contender_of<T> corank_contender(std::string name) {
  return {std::move(name), "cpu", role::contender, 0,
          [](const merge_problem_of<T>& p, const timing_config& cfg) {
            cpu::options opt;
            opt.threads = p.threads;
            return measure(
                [&] { cpu::merge(p.a, p.a + p.m, p.b, p.b + p.n, p.out, corank::less{}, opt); },
                cfg);
          }};
}

}  // namespace

std::vector<std::size_t> default_merge_sizes(bool quick) {
  // Quick still reaches 10M per input, where the parallel merges pull away (a second or two).
  if (quick) return {1000, 10000, 100000, 1000000, 10000000};
  return {1000, 10000, 100000, 1000000, 10000000, 100000000};
}

std::vector<merge_contender> cpu_merge_contenders() {
  using T = std::uint32_t;
  std::vector<merge_contender> list{copy_contender<T>(), std_merge_contender<T>("std::merge"),
                                    gnu_contender<T>("__gnu_parallel::merge")};
  if (have_tbb())
    list.push_back({"std::merge(std::execution::par)", "cpu", role::contender, 0,
                    [](const merge_problem& p, const timing_config& cfg) {
                      return measure([&] { std_par_merge(p.a, p.m, p.b, p.n, p.out, p.threads); },
                                     cfg);
                    }});
  list.push_back(corank_contender<T>("corank::cpu::merge"));
  return list;
}

std::vector<merge_contender_of<key_value32>> cpu_pair_merge_contenders() {
  using T = key_value32;
  using P = merge_problem_of<T>;
  return {
      copy_contender<T>(),
      std_merge_contender<T>("std::merge (structs)"),
      gnu_contender<T>("__gnu_parallel::merge (structs)"),
      corank_contender<T>("corank::cpu::merge (structs)"),
      {"corank::cpu::merge_by_key (separate arrays)", "cpu", role::contender, 0,
       [](const P& p, const timing_config& cfg) {
         cpu::options opt;
         opt.threads = p.threads;
         const auto split = [](const T* in, std::size_t n) {
           std::vector<std::uint32_t> k(n), v(n);
           for (std::size_t i = 0; i < n; ++i) k[i] = in[i].key, v[i] = in[i].value;
           return std::pair{k, v};
         };
         // Named pairs, not structured bindings: C++17 lambdas cannot capture those (clang).
         const auto a = split(p.a, p.m);
         const auto b = split(p.b, p.n);
         std::vector<std::uint32_t> keys(p.m + p.n), values(p.m + p.n);
         const stats time = measure(
             [&] {
               cpu::merge_by_key(a.first.data(), a.first.data() + p.m, a.second.data(),
                                 b.first.data(), b.first.data() + p.n, b.second.data(), keys.data(),
                                 values.data(), corank::less{}, opt);
             },
             cfg);
         for (std::size_t i = 0; i < p.m + p.n; ++i) p.out[i] = {keys[i], values[i]};  // to check
         return time;
       }},
  };
}

template <class T>
report run_merge_bench(const run_config& config,
                       const std::vector<merge_contender_of<T>>& contenders) {
  constexpr bool pairs = std::is_same_v<T, key_value32>;
  const int threads = config.threads > 0 ? config.threads : cpu::detail::max_threads();
  report rep(pairs ? "cpu merge pairs" : "cpu merge");
  rep.set_meta("keys", pairs ? "u32 keys with u32 values, uniform random, sorted"
                             : "u32 uniform random, sorted");
  rep.set_meta("threads", std::to_string(threads));
  progress bar(static_cast<int>(config.sizes.size() * (contenders.size() + 1)),
               config.show_progress);
  for (const std::size_t n : config.sizes) {
    bar.step("merge " + human_count(n) + " per input: generating inputs");
    const auto a = sorted_input<T>(n, config.seed * 2, threads, 0);
    const auto b = sorted_input<T>(n, config.seed * 2 + 1, threads, 1);
    std::vector<T> expected(2 * n), out(2 * n);
    std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin());
    const merge_problem_of<T> problem{a.data(),   n,       b.data(),       n,
                                      out.data(), threads, expected.data()};
    row shape;
    shape.size = n;
    shape.items = 2 * n;
    shape.bytes = 2 * (2 * n) * sizeof(T);  // inputs read once, output written once
    shape.threads = threads;
    run_contenders(
        contenders, problem, shape, config.timing, "merge " + human_count(n) + " per input", bar,
        rep,
        [&](const merge_contender_of<T>&) {
          const bool ok = out == expected;
          std::memset(out.data(), 0xEF, out.size() * sizeof(T));  // poison for the next
          return ok;
        },
        config.only);
  }
  return rep;
}

std::vector<report> run_cpu_merge_benches(const run_config& config, bool quick) {
  const std::vector<std::string> defaults =
      quick ? std::vector<std::string>{"u32"} : std::vector<std::string>{"u32", "pairs"};
  std::vector<report> reports;
  if (runs_type(config, "u32", defaults))
    reports.push_back(run_merge_bench(config, cpu_merge_contenders()));
  if (runs_type(config, "pairs", defaults))
    reports.push_back(run_merge_bench(config, cpu_pair_merge_contenders()));
  return reports;
}

template report run_merge_bench(const run_config&, const std::vector<merge_contender>&);

}  // namespace corank::bench

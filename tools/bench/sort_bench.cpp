#include "bench/sort_bench.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "bench/copy_bandwidth.hpp"
#include "bench/gnu_parallel.hpp"
#include "bench/progress.hpp"
#include "corank/cpu/sort.hpp"
#include "support/data/generate.hpp"

namespace corank::bench {
namespace {

/// Times `sort(keys, keys + n)`, restoring the unsorted input before every run (untimed).
template <class T, class Sort>
stats measure_sort(const sort_problem_of<T>& p, const timing_config& cfg, Sort&& sort) {
  return measure_with_setup([&] { std::memcpy(p.keys, p.input, p.n * sizeof(T)); },
                            [&] { sort(p.keys, p.keys + p.n); }, cfg);
}

template <class T>
sort_contender_of<T> copy_contender() {
  return {"memcpy", "cpu", role::copy, 0,
          [](const sort_problem_of<T>& p, const timing_config& cfg) {
            // The bytes one read and one write of every item move; leaves the input in place.
            return measure_host_copy(p.keys, p.input, p.n * sizeof(T), p.threads, cfg);
          }};
}

template <class T>
sort_contender_of<T> corank_sort_contender(std::string name) {
  return {std::move(name), "cpu", role::contender, 0,
          [](const sort_problem_of<T>& p, const timing_config& cfg) {
            cpu::options opt;
            opt.threads = p.threads;
            return measure_sort(p, cfg,
                                [&](T* f, T* l) { cpu::stable_sort(f, l, corank::less{}, opt); });
          }};
}

/// A contender `name` that sorts with `sort(first, last, threads)`, when `built_in`.
template <class T, class Sort>
void add_if(std::vector<sort_contender_of<T>>& list, bool built_in, std::string name, int threads,
            Sort sort) {
  if (!built_in) return;
  list.push_back({std::move(name), "cpu", role::contender, threads,
                  [sort](const sort_problem_of<T>& p, const timing_config& cfg) {
                    return measure_sort(p, cfg, [&](T* f, T* l) { sort(f, l, p.threads); });
                  }});
}

template <class T>
std::vector<T> sorted_copy(const std::vector<T>& input, int threads) {
  std::vector<T> expected = input;
  gnu_parallel_sort(expected.data(), expected.data() + expected.size(), threads);
  return expected;
}

std::vector<key_value32> sorted_copy(const std::vector<key_value32>& input, int threads) {
  std::vector<key_value32> expected = input;
  gnu_parallel_stable_sort(expected.data(), expected.data() + expected.size(), threads);
  return expected;
}

template <class T>
std::vector<T> random_input(std::size_t n, std::uint64_t seed) {
  return data::generate_keys<T>(n, data::distribution::uniform, data::order::unsorted, seed);
}
template <>
std::vector<key_value32> random_input<key_value32>(std::size_t n, std::uint64_t seed) {
  const auto keys = random_input<std::uint32_t>(n, seed);
  std::vector<key_value32> pairs(n);
  for (std::size_t i = 0; i < n; ++i) pairs[i] = {keys[i], std::uint32_t(i)};
  return pairs;
}

template <class T>
const char* items_name() {
  if constexpr (std::is_same_v<T, key_value32>)
    return "u32 keys with u32 values, uniform random";
  else
    return sizeof(T) == 4 ? "u32 uniform random" : "u64 uniform random";
}

}  // namespace

std::vector<std::size_t> default_sort_sizes(bool quick) {
  if (quick) return {1000, 10000, 100000, 1000000};
  return {1000, 10000, 100000, 1000000, 10000000, 20000000};
}

template <class T>
std::vector<sort_contender_of<T>> cpu_sort_contenders_of() {
  using P = sort_problem_of<T>;
  std::vector<sort_contender_of<T>> list{
      copy_contender<T>(),
      {"std::sort", "cpu", role::baseline, 1,
       [](const P& p, const timing_config& cfg) {
         return measure_sort(p, cfg, [](T* f, T* l) { std::sort(f, l); });
       }},
      {"std::stable_sort", "cpu", role::contender, 1,
       [](const P& p, const timing_config& cfg) {
         return measure_sort(p, cfg, [](T* f, T* l) { std::stable_sort(f, l); });
       }},
      {"__gnu_parallel multiway mergesort", "cpu", role::contender, 0,
       [](const P& p, const timing_config& cfg) {
         return measure_sort(p, cfg, [&](T* f, T* l) { gnu_parallel_sort(f, l, p.threads); });
       }},
  };
  add_if(list, have_tbb(), "tbb::parallel_sort", 0, tbb_parallel_sort<T>);
  add_if(list, have_tbb(), "std::sort(std::execution::par)", 0, std_par_sort<T>);
  add_if(list, have_boost_sort(), "boost::sort::block_indirect_sort", 0,
         boost_block_indirect_sort<T>);
  add_if(list, have_ips4o(), "ips4o::parallel::sort", 0, ips4o_parallel_sort<T>);
  add_if(list, have_vqsort(), "hwy::VQSort (1 thread)", 1, [](T* f, T* l, int) { vqsort(f, l); });
  list.push_back(corank_sort_contender<T>("corank::cpu::stable_sort"));
  return list;
}

std::vector<sort_contender> cpu_sort_contenders() {
  return cpu_sort_contenders_of<std::uint32_t>();
}

std::vector<sort_contender_of<key_value32>> cpu_pair_sort_contenders() {
  using T = key_value32;
  using P = sort_problem_of<T>;
  std::vector<sort_contender_of<T>> list{
      copy_contender<T>(),
      {"std::stable_sort (structs)", "cpu", role::baseline, 1,
       [](const P& p, const timing_config& cfg) {
         return measure_sort(p, cfg, [](T* f, T* l) { std::stable_sort(f, l); });
       }},
      {"__gnu_parallel stable multiway mergesort (structs)", "cpu", role::contender, 0,
       [](const P& p, const timing_config& cfg) {
         return measure_sort(p, cfg,
                             [&](T* f, T* l) { gnu_parallel_stable_sort(f, l, p.threads); });
       }},
  };
  add_if(list, have_tbb(), "std::stable_sort(std::execution::par) (structs)", 0,
         std_par_stable_sort<T>);
  add_if(list, have_boost_sort(), "boost::sort::parallel_stable_sort (structs)", 0,
         boost_parallel_stable_sort<T>);
  list.push_back(corank_sort_contender<T>("corank::cpu::stable_sort (structs)"));
  list.push_back({"corank::cpu::stable_sort_by_key (separate arrays)", "cpu", role::contender, 0,
                  [](const P& p, const timing_config& cfg) {
                    cpu::options opt;
                    opt.threads = p.threads;
                    std::vector<std::uint32_t> keys(p.n), values(p.n);
                    const stats time = measure_with_setup(
                        [&] {
                          for (std::size_t i = 0; i < p.n; ++i)
                            keys[i] = p.input[i].key, values[i] = p.input[i].value;
                        },
                        [&] {
                          cpu::stable_sort_by_key(keys.data(), keys.data() + p.n, values.data(),
                                                  corank::less{}, opt);
                        },
                        cfg);
                    for (std::size_t i = 0; i < p.n; ++i)
                      p.keys[i] = {keys[i], values[i]};  // to check
                    return time;
                  }});
  return list;
}

template <class T>
report run_sort_bench(const run_config& config,
                      const std::vector<sort_contender_of<T>>& contenders) {
  const int threads = config.threads > 0 ? config.threads : cpu::detail::max_threads();
  constexpr bool pairs = std::is_same_v<T, key_value32>;
  report rep(pairs ? "cpu sort pairs" : sizeof(T) == 4 ? "cpu sort" : "cpu sort u64");
  rep.set_meta("keys", items_name<T>());
  rep.set_meta("threads", std::to_string(threads));
  progress bar(static_cast<int>(config.sizes.size() * (contenders.size() + 1)),
               config.show_progress);
  for (const std::size_t n : config.sizes) {
    bar.step(std::string(rep.experiment()) + " " + human_count(n) + ": generating input");
    const auto input = random_input<T>(n, config.seed);
    const auto expected = sorted_copy(input, threads);
    std::vector<T> keys(n);
    const sort_problem_of<T> problem{input.data(), keys.data(), n, threads};
    row shape;
    shape.size = n;
    shape.items = n;
    shape.bytes = 2 * n * sizeof(T);  // every item read once and written once
    shape.threads = threads;
    run_contenders(
        contenders, problem, shape, config.timing, "sort " + human_count(n), bar, rep,
        [&](const sort_contender_of<T>& c) {
          // The copy leaves the unsorted input: check that it copied it.
          const bool ok = c.kind == role::copy ? std::equal(keys.begin(), keys.end(), input.begin())
                                               : keys == expected;
          std::memset(keys.data(), 0xEF, n * sizeof(T));  // poison for the next
          return ok;
        },
        config.only);
  }
  return rep;
}

std::vector<report> run_cpu_sort_benches(const run_config& config, bool quick) {
  const std::vector<std::string> defaults =
      quick ? std::vector<std::string>{"u32"} : std::vector<std::string>{"u32", "u64", "pairs"};
  std::vector<report> reports;
  if (runs_type(config, "u32", defaults))
    reports.push_back(run_sort_bench(config, cpu_sort_contenders()));
  if (runs_type(config, "u64", defaults))
    reports.push_back(run_sort_bench(config, cpu_sort_contenders_of<std::uint64_t>()));
  if (runs_type(config, "pairs", defaults))
    reports.push_back(run_sort_bench(config, cpu_pair_sort_contenders()));
  return reports;
}

template report run_sort_bench(const run_config&, const std::vector<sort_contender>&);

}  // namespace corank::bench

// corank_cpu_multiway_bench: the CPU k-way merge in one pass against the tree of pairwise passes,
// and the CPU stable sort with and without its k-way last pass (docs/notes/cpu.md, "k-way
// merge"). Uniform random keys, every output checked, median of --reps timed runs after one
// warm-up, all threads of the machine (OMP_NUM_THREADS).
//
//   corank_cpu_multiway_bench merge --sizes 10M,100M --runs 2,4,16,64,1024 --type u32
//   corank_cpu_multiway_bench sort --sizes 10M,100M --type u64
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "corank/cpu/multiway_merge.hpp"
#include "corank/cpu/sort.hpp"
#include "timing.hpp"

namespace {

struct settings {
  std::string what = "merge", type = "u32";
  std::vector<std::size_t> sizes{10'000'000}, runs{2, 4, 16, 64, 1024};
  int reps = 5;
};

std::vector<std::size_t> parse_list(const std::string& text) {
  std::vector<std::size_t> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(at, end - at);
    std::size_t scale = 1;
    if (!item.empty() && (item.back() == 'M' || item.back() == 'K')) {
      scale = item.back() == 'M' ? 1'000'000 : 1'000;
      item.pop_back();
    }
    out.push_back(std::stoull(item) * scale);
    at = end + 1;
  }
  return out;
}

/// Median ms of `reps` runs of f, after one warm-up (the first touch of the outputs).
/// One warm-up (the first touch of the outputs), then exactly `reps` timed runs.
corank::bench::timing_config timing(int reps) {
  corank::bench::timing_config cfg;
  cfg.warmup_runs = 1;
  cfg.min_runs = cfg.max_runs = reps;
  return cfg;
}

template <class T>
std::vector<T> random_keys(std::size_t n, std::uint64_t seed) {
  std::vector<T> keys(n);
#pragma omp parallel
  {
    std::mt19937_64 rng(seed + std::uint64_t(corank::cpu::detail::thread_id()));
#pragma omp for schedule(static)
    for (std::size_t i = 0; i < n; ++i) keys[i] = T(rng());
  }
  return keys;
}

void require(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("wrong output: ") + what);
}

template <class T>
void bench_merge(const settings& s) {
  for (const std::size_t n : s.sizes)
    for (const std::size_t k : s.runs) {
      std::vector<T> keys = random_keys<T>(n, 1);
      std::vector<std::uint64_t> offsets(k + 1);
      for (std::size_t j = 0; j <= k; ++j) offsets[j] = corank::even_split<std::uint64_t>(n, k, j);
      for (std::size_t j = 0; j < k; ++j)
        corank::cpu::stable_sort(keys.begin() + long(offsets[j]),
                                 keys.begin() + long(offsets[j + 1]));
      std::vector<T> want = keys;
      corank::cpu::stable_sort(want.begin(), want.end());
      std::vector<T> out(n);
      // The tree of pairwise passes, one pass of all k runs, and the default (tuning).
      const char* names[3] = {"tree", "one pass", "default"};
      corank::cpu::multiway_options variants[3];
      variants[0].one_pass_most_runs = 1;
      variants[1].one_pass_most_runs = k;
      double ms[3];
      for (int v = 0; v < 3; ++v) {
        const corank::cpu::multiway_options& opt = variants[v];
        ms[v] = corank::bench::measure_with_setup([] {},
                                                  [&] {
                                                    corank::cpu::multiway_merge(
                                                        keys.data(), offsets.data(), k, out.data(),
                                                        corank::less{}, opt);
                                                  },
                                                  timing(s.reps))
                    .median_ms;
        require(out == want, names[v]);
        std::fill(out.begin(), out.end(), T(0));
      }
      std::printf(
          "merge %s n=%zu runs=%zu: tree %.1f ms, one pass %.1f ms (%.2fx), default "
          "(fan-in %zu) %.1f ms (%.2fx)\n",
          s.type.c_str(), n, k, ms[0], ms[1], ms[0] / ms[1],
          corank::cpu::detail::multiway_fan_in(k, variants[2]), ms[2], ms[0] / ms[2]);
      std::fflush(stdout);
    }
}

template <class T>
void bench_sort(const settings& s) {
  for (const std::size_t n : s.sizes) {
    const std::vector<T> keys = random_keys<T>(n, 2);
    std::vector<T> want = keys;
    std::sort(want.begin(), want.end());
    std::vector<T> work(n);
    double ms[2];
    for (const bool multiway : {false, true}) {
      corank::cpu::sort_options opt;
      opt.multiway_from_items = multiway ? 0 : ~std::size_t(0);
      ms[multiway] =
          corank::bench::measure_with_setup(
              [&] { std::copy(keys.begin(), keys.end(), work.begin()); },
              [&] { corank::cpu::stable_sort(work.begin(), work.end(), corank::less{}, opt); },
              timing(s.reps))
              .median_ms;
      require(work == want, multiway ? "sort, k-way" : "sort, pairwise");
    }
    std::printf("stable_sort %s n=%zu: pairwise passes %.1f ms, k-way passes %.1f ms (%.2fx)\n",
                s.type.c_str(), n, ms[0], ms[1], ms[0] / ms[1]);
    std::fflush(stdout);

    // By key, 32-bit values (packed pairs; 32-bit keys take the tagged SIMD order in chunks of
    // sort_tagged_chunk_items, so many chunks even on two threads).
    std::vector<std::uint32_t> values(n), work_values(n), want_values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = std::uint32_t(i);
    want_values = values;
    std::stable_sort(want_values.begin(), want_values.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
    for (const bool multiway : {false, true}) {
      corank::cpu::sort_options opt;
      opt.multiway_from_items = multiway ? 0 : ~std::size_t(0);
      ms[multiway] = corank::bench::measure_with_setup(
                         [&] {
                           std::copy(keys.begin(), keys.end(), work.begin());
                           std::copy(values.begin(), values.end(), work_values.begin());
                         },
                         [&] {
                           corank::cpu::stable_sort_by_key(
                               work.begin(), work.end(), work_values.begin(), corank::less{}, opt);
                         },
                         timing(s.reps))
                         .median_ms;
      require(work == want && work_values == want_values, "sort by key");
    }
    std::printf(
        "stable_sort_by_key %s/u32 n=%zu: pairwise passes %.1f ms, k-way passes %.1f ms "
        "(%.2fx)\n",
        s.type.c_str(), n, ms[0], ms[1], ms[0] / ms[1]);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) try {
  settings s;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "merge" || arg == "sort")
      s.what = arg;
    else if (arg == "--sizes")
      s.sizes = parse_list(value());
    else if (arg == "--runs")
      s.runs = parse_list(value());
    else if (arg == "--type")
      s.type = value();
    else if (arg == "--reps")
      s.reps = std::stoi(value());
    else
      throw std::runtime_error("unknown argument " + arg);
  }
  if (s.type != "u32" && s.type != "u64") throw std::runtime_error("--type: u32 or u64");
  std::printf("threads %d\n", corank::cpu::detail::max_threads());
  if (s.what == "merge")
    s.type == "u32" ? bench_merge<std::uint32_t>(s) : bench_merge<std::uint64_t>(s);
  else
    s.type == "u32" ? bench_sort<std::uint32_t>(s) : bench_sort<std::uint64_t>(s);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "corank_cpu_multiway_bench: %s\n", e.what());
  return 1;
}

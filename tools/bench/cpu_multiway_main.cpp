// corank_cpu_multiway_bench: the CPU k-way merge in one pass against the tree of pairwise passes,
// and the CPU stable sort with and without its k-way last pass (docs/notes/cpu.md, "k-way
// merge"). Uniform random keys, every output checked, median of --reps timed runs after one
// warm-up, on each of --threads (default: all threads of the machine, OMP_NUM_THREADS); --json
// appends one JSON object per row (JSON lines). --only default,pairwise keeps those variants;
// --cache off,on times each with the library's cache of temporary storage off (limit 0: every
// call allocates and first-touches its buffers) and on (cpu/memory.hpp), in that order.
//
//   corank_cpu_multiway_bench merge --sizes 10M,100M --runs 2,4,16,64,1024 --type u32
//   corank_cpu_multiway_bench sort --sizes 10M,100M --type u64 --threads 1,2,4,8,16 --json s.jsonl
//   corank_cpu_multiway_bench sort --sizes 10M --only default --cache off,on
//   corank_cpu_multiway_bench merge_by_key --sizes 50M   (n per input; by key against structs)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/gnu_parallel.hpp"
#include "corank/cpu/memory.hpp"
#include "corank/cpu/multiway_merge.hpp"
#include "corank/cpu/sort.hpp"
#include "timing.hpp"

namespace {

struct settings {
  std::string what = "merge", type = "u32", json;
  std::vector<std::size_t> sizes{10'000'000}, runs{2, 4, 16, 64, 1024}, threads;
  std::vector<std::string> only, cache{"on"};
  int reps = 5;
  bool wanted(const std::string& variant) const {
    return only.empty() || std::find(only.begin(), only.end(), variant) != only.end();
  }
};

std::vector<std::string> parse_names(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

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

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("wrong output: " + what);
}

/// The rows, printed as they come and appended to --json as JSON lines (one object a row: a run
/// cut short by a time limit keeps the rows before).
struct rows {
  std::FILE* json = nullptr;
  explicit rows(const std::string& path) {
    if (!path.empty() && !(json = std::fopen(path.c_str(), "a")))
      throw std::runtime_error("cannot open " + path);
  }
  ~rows() {
    if (json) std::fclose(json);
  }
  rows(const rows&) = delete;
  rows& operator=(const rows&) = delete;
  void add(const char* what, const std::string& type, std::size_t n, std::size_t runs, int threads,
           const char* variant, double ms) {
    std::printf("%-18s %-3s n=%-10zu runs=%-5zu threads=%-3d %-22s %9.2f ms\n", what, type.c_str(),
                n, runs, threads, variant, ms);
    std::fflush(stdout);
    if (!json) return;
    std::fprintf(json,
                 "{\"what\":\"%s\",\"type\":\"%s\",\"n\":%zu,\"runs\":%zu,\"threads\":%d,"
                 "\"variant\":\"%s\",\"median_ms\":%.4f}\n",
                 what, type.c_str(), n, runs, threads, variant, ms);
    std::fflush(json);
  }
};

/// --threads, or all threads of the machine.
std::vector<int> thread_counts(const settings& s) {
  if (s.threads.empty()) return {corank::cpu::detail::max_threads()};
  std::vector<int> out;
  for (const std::size_t t : s.threads) out.push_back(int(t));
  return out;
}

template <class T>
void bench_merge(const settings& s, rows& out_rows) {
  for (const std::size_t n : s.sizes)
    for (const std::size_t k : s.runs) {
      std::vector<T> keys = random_keys<T>(n, 1);
      std::vector<std::uint64_t> offsets(k + 1);
      for (std::size_t j = 0; j <= k; ++j) offsets[j] = corank::even_split<std::uint64_t>(n, k, j);
      std::vector<T> want = keys;
      corank::bench::gnu_parallel_sort(want.data(), want.data() + n, 0);
      for (std::size_t j = 0; j < k; ++j)
        corank::bench::gnu_parallel_sort(keys.data() + offsets[j], keys.data() + offsets[j + 1], 0);
      std::vector<T> out(n);
      for (const int threads : thread_counts(s)) {
        // The tree of pairwise passes, one pass of all k runs, the default (tuning), and passes
        // of at most 8 and 32 runs.
        const char* names[5] = {"tree", "one pass", "default", "passes of 8", "passes of 32"};
        corank::cpu::multiway_options variants[5];
        variants[0].one_pass_most_runs = 1;
        variants[1].one_pass_most_runs = k;
        variants[3].one_pass_most_runs = variants[4].one_pass_most_runs = 1;
        variants[3].most_runs_per_pass = 8;
        variants[4].most_runs_per_pass = 32;
        for (int v = 0; v < 5; ++v) {
          corank::cpu::multiway_options& opt = variants[v];
          opt.threads = threads;
          // Variants that run the same passes as one before are not timed again.
          if (v >= 3 && (k <= 8 || (v == 4 && k <= 32))) continue;
          if (!s.wanted(names[v])) continue;
          const double ms = corank::bench::measure_with_setup(
                                [] {},
                                [&] {
                                  corank::cpu::multiway_merge(keys.data(), offsets.data(), k,
                                                              out.data(), corank::less{}, opt);
                                },
                                timing(s.reps))
                                .median_ms;
          require(out == want, names[v]);
          std::fill(out.begin(), out.end(), T(0));
          out_rows.add("multiway_merge", s.type, n, k, threads, names[v], ms);
        }
      }
    }
}

/// Whether (keys, values) is the stable sort by key of `input` with values 0, 1, ... n - 1
/// beside it: keys in order, each value names an input item with its key, ties in value order,
/// every value once (linear: no reference sort of 100M pairs on one thread).
template <class T>
bool is_stable_sort_by_key(const std::vector<T>& input, const std::vector<T>& keys,
                           const std::vector<std::uint32_t>& values) {
  const std::size_t n = input.size();
  std::vector<unsigned char> seen(n, 0);
  bool ok = true;
#pragma omp parallel for schedule(static) reduction(&& : ok)
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t v = values[i];
    ok = ok && v < n && input[v] == keys[i] &&
         (i == 0 || keys[i - 1] < keys[i] || (keys[i - 1] == keys[i] && values[i - 1] < v));
    if (v < n) seen[v] = 1;  // benign: every writer writes 1
  }
  return ok && std::find(seen.begin(), seen.end(), 0) == seen.end();
}

template <class T>
void bench_sort(const settings& s, rows& out_rows) {
  constexpr std::size_t never = ~std::size_t(0);
  const std::size_t cache_limit_on = corank::cpu::cache_limit();
  for (const std::size_t n : s.sizes) {
    const std::vector<T> keys = random_keys<T>(n, 2);
    std::vector<T> want = keys;
    corank::bench::gnu_parallel_sort(want.data(), want.data() + n, 0);
    std::vector<T> work(n);
    std::vector<std::uint32_t> values(n), work_values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = std::uint32_t(i);
    for (const int threads : thread_counts(s)) {
      // Keys alone (one chunk a thread) and by key with 32-bit values (packed pairs; 32-bit keys
      // take the tagged SIMD order in chunks of sort_tagged_chunk_items, so many chunks even on
      // two threads): pairwise passes, the default (tuning), one pass of all chunks, passes of
      // at most 8 or 32; 32-bit keys by key also in chunks of 2^20 items and of a thread's share.
      struct variant {
        const char* name;
        int passes;  // 0: pairwise, 1: the default, 2: one pass, F > 2: passes of at most F
        std::size_t chunk;
      };
      const std::size_t tuned = corank::cpu::tuning::sort_tagged_chunk_items;
      for (const bool by_key : {false, true}) {
        std::vector<variant> variants{{"pairwise", 0, tuned},
                                      {"default", 1, tuned},
                                      {"one pass", 2, tuned},
                                      {"passes of 8", 8, tuned},
                                      {"passes of 32", 32, tuned}};
        if (by_key && sizeof(T) <= 4)
          for (const int passes : {0, 1}) {
            variants.push_back({passes ? "default, chunks 2^20" : "pairwise, chunks 2^20", passes,
                                std::size_t(1) << 20});
            variants.push_back(
                {passes ? "default, chunk a thread" : "pairwise, chunk a thread", passes, 0});
          }
        for (const variant& v : variants)
          for (const std::string& cache : s.cache) {
            if (!s.wanted(v.name)) continue;
            // Off: limit 0, the cache emptied (each call allocates as before the cache); on: the
            // default limit (the warm-up call fills it).
            corank::cpu::set_cache_limit(cache == "off" ? 0 : cache_limit_on);
            corank::cpu::sort_options opt;
            opt.threads = threads;
            opt.tagged_chunk_items = v.chunk;
            if (v.passes == 0) opt.multiway_from_items = never;
            if (v.passes >= 2) opt.multiway_from_items = opt.multiway_from_chunks = 0;
            if (v.passes == 2) opt.one_pass_most_runs = never;
            if (v.passes > 2) opt.one_pass_most_runs = 1, opt.most_runs_per_pass = v.passes;
            const double ms =
                corank::bench::measure_with_setup(
                    [&] {
                      std::copy(keys.begin(), keys.end(), work.begin());
                      if (by_key) std::copy(values.begin(), values.end(), work_values.begin());
                    },
                    [&] {
                      if (by_key)
                        corank::cpu::stable_sort_by_key(work.begin(), work.end(),
                                                        work_values.begin(), corank::less{}, opt);
                      else
                        corank::cpu::stable_sort(work.begin(), work.end(), corank::less{}, opt);
                    },
                    timing(s.reps))
                    .median_ms;
            require(by_key ? is_stable_sort_by_key(keys, work, work_values) : work == want,
                    std::string(by_key ? "by key, " : "keys alone, ") + v.name);
            out_rows.add(by_key ? "stable_sort_by_key" : "stable_sort", s.type, n, 0, threads,
                         (std::string(v.name) + (cache == "off" ? ", no cache" : "")).c_str(), ms);
          }
      }
    }
  }
}

/// The parallel merge of `whole` (merge_inputs) on `threads` threads, `Streams` interleaved
/// streams per piece: cpu::merge_by_key's path with the stream count as a parameter.
template <int Streams, class Inputs, class Compare>
void merge_in_pieces_with(const Inputs& whole, int threads, Compare comp) {
  namespace detail = corank::cpu::detail;
  namespace tuning = corank::cpu::tuning;
  const std::ptrdiff_t chunks = detail::chunk_count(
      whole.total(), threads, tuning::merge_chunks_per_thread, tuning::merge_min_chunk_items);
  detail::piece_cuts shared;
  detail::region_errors errors;
#pragma omp parallel num_threads(threads)
  detail::merge_in_pieces<Streams>(
      1, chunks, [&](std::ptrdiff_t) { return whole; }, shared, errors, comp);
  errors.rethrow();
}

/// merge_by_key of separate key and value arrays (u32 keys, u32 values, n per input) against the
/// same merge of {key, value} structs, each with 1, 2, 4 and 8 interleaved streams per piece
/// (by key, each stream reads four arrays and writes two; structs: two and one).
void bench_merge_by_key(const settings& s, rows& out_rows) {
  using pair = corank::cpu::detail::key_value<std::uint32_t, std::uint32_t>;
  const corank::cpu::detail::by_pair_key<corank::less> by_key_of_pair{};
  for (const std::size_t n : s.sizes) {
    std::vector<std::uint32_t> ka = random_keys<std::uint32_t>(n, 3),
                               kb = random_keys<std::uint32_t>(n, 4);
    corank::bench::gnu_parallel_sort(ka.data(), ka.data() + n, 0);
    corank::bench::gnu_parallel_sort(kb.data(), kb.data() + n, 0);
    std::vector<std::uint32_t> va(n), vb(n), k_out(2 * n), v_out(2 * n);
    std::vector<pair> pa(n), pb(n), p_out(2 * n), want(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      va[i] = std::uint32_t(i), vb[i] = std::uint32_t(n + i);
      pa[i] = {ka[i], va[i]}, pb[i] = {kb[i], vb[i]};
    }
    std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), want.begin(), by_key_of_pair);
    const corank::cpu::detail::merge_inputs by_key{ka.data(),    va.data(),   std::ptrdiff_t(n),
                                                   kb.data(),    vb.data(),   std::ptrdiff_t(n),
                                                   k_out.data(), v_out.data()};
    const corank::cpu::detail::merge_inputs structs{
        pa.data(),    corank::discard_iterator{}, std::ptrdiff_t(n),
        pb.data(),    corank::discard_iterator{}, std::ptrdiff_t(n),
        p_out.data(), corank::discard_iterator{}};
    for (const int threads : thread_counts(s)) {
      const auto run = [&](const char* name, auto merge, auto check) {
        if (!s.wanted(name)) return;
        const double ms = corank::bench::measure_with_setup([] {}, merge, timing(s.reps)).median_ms;
        require(check(), name);
        out_rows.add("merge_by_key", "u32", 2 * n, 2, threads, name, ms);
      };
      const auto by_key_ok = [&] {
        for (std::size_t i = 0; i < 2 * n; ++i)
          if (k_out[i] != want[i].key || v_out[i] != want[i].value) return false;
        return true;
      };
      const auto structs_ok = [&] {
        for (std::size_t i = 0; i < 2 * n; ++i)
          if (p_out[i].key != want[i].key || p_out[i].value != want[i].value) return false;
        return true;
      };
      const auto variants = [&](auto streams) {
        constexpr int S = decltype(streams)::value;
        const std::string suffix = ", " + std::to_string(S) + " streams";
        run(("by key" + suffix).c_str(),
            [&] { merge_in_pieces_with<S>(by_key, threads, corank::less{}); }, by_key_ok);
        run(("structs" + suffix).c_str(),
            [&] { merge_in_pieces_with<S>(structs, threads, by_key_of_pair); }, structs_ok);
      };
      variants(std::integral_constant<int, 4>{});  // the default first
      variants(std::integral_constant<int, 1>{});
      variants(std::integral_constant<int, 2>{});
      variants(std::integral_constant<int, 8>{});
      variants(std::integral_constant<int, 4>{});  // again: order effects
    }
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
    if (arg == "merge" || arg == "sort" || arg == "merge_by_key")
      s.what = arg;
    else if (arg == "--sizes")
      s.sizes = parse_list(value());
    else if (arg == "--runs")
      s.runs = parse_list(value());
    else if (arg == "--type")
      s.type = value();
    else if (arg == "--reps")
      s.reps = std::stoi(value());
    else if (arg == "--threads")
      s.threads = parse_list(value());
    else if (arg == "--json")
      s.json = value();
    else if (arg == "--only")
      s.only = parse_names(value());
    else if (arg == "--cache")
      s.cache = parse_names(value());
    else
      throw std::runtime_error("unknown argument " + arg);
  }
  if (s.type != "u32" && s.type != "u64") throw std::runtime_error("--type: u32 or u64");
  for (const std::string& c : s.cache)
    if (c != "on" && c != "off") throw std::runtime_error("--cache: off, on or off,on");
  for (const std::size_t t : s.threads)
    if (t == 0 || t > 4096) throw std::runtime_error("--threads: counts from 1 to 4096");
  rows out_rows(s.json);
  std::printf("machine threads %d\n", corank::cpu::detail::max_threads());
  if (s.what == "merge_by_key")
    bench_merge_by_key(s, out_rows);
  else if (s.what == "merge")
    s.type == "u32" ? bench_merge<std::uint32_t>(s, out_rows)
                    : bench_merge<std::uint64_t>(s, out_rows);
  else
    s.type == "u32" ? bench_sort<std::uint32_t>(s, out_rows)
                    : bench_sort<std::uint64_t>(s, out_rows);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "corank_cpu_multiway_bench: %s\n", e.what());
  return 1;
}

#include "bench/toolbox_bench.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>

#include "bench/copy_bandwidth.hpp"
#include "bench/cpu_peers.hpp"
#include "bench/gnu_parallel.hpp"
#include "bench/progress.hpp"
#include "bench/toolbox_inputs.hpp"
#include "corank/cpu/join.hpp"
#include "corank/cpu/load_balance.hpp"
#include "corank/cpu/multiway_merge.hpp"
#include "corank/cpu/set_operations.hpp"
#include "corank/cpu/sorted_search.hpp"

namespace corank::bench {
namespace {

using u32 = std::uint32_t;

/// What the contenders of one size read and write: each leaves its answers in out[0, *count)
/// (the join: in *pairs).
struct toolbox_problem {
  const toolbox_inputs* in;
  int threads;
  u32* out;
  std::size_t* count;
  cpu::join_result* pairs;
};
using toolbox_contender = contender<toolbox_problem>;

cpu::options options_of(const toolbox_problem& p) {
  cpu::options opt;
  opt.threads = p.threads;
  return opt;
}

/// A contender timed by measure(): `run(p)` writes its answers and returns their count.
template <class Run>
toolbox_contender make(std::string name, role kind, int threads, Run run) {
  return {std::move(name), "cpu", kind, threads,
          [run](const toolbox_problem& p, const timing_config& cfg) {
            return measure([&] { *p.count = run(p); }, cfg);
          }};
}

/// One primitive: its contenders (the first the baseline) and the right answers.
struct toolbox_group {
  std::string name;
  std::size_t items = 0, bytes = 0;
  std::vector<u32> expected;
  index_pairs expected_pairs;  // the join's
  bool join = false;           // answers in pairs, not out
  std::vector<toolbox_contender> contenders;
};

toolbox_group named(std::string name, std::size_t items, std::size_t bytes) {
  toolbox_group g;
  g.name = std::move(name);
  g.items = items;
  g.bytes = bytes;
  return g;
}

// --- the sequential ways, and the references ----------------------------------------------------

/// The lower bound of every sorted needle by one walk (the reference of both searches).
std::vector<u32> walk_lower_bounds(const std::vector<u32>& haystack,
                                   const std::vector<u32>& needles) {
  std::vector<u32> out(needles.size());
  std::size_t j = 0;
  for (std::size_t i = 0; i < needles.size(); ++i) {
    while (j < haystack.size() && haystack[j] < needles[i]) ++j;
    out[i] = u32(j);
  }
  return out;
}

/// The k-way merge as a tree of sequential std::merge passes between `out` and a buffer.
void std_merge_tree(const u32* keys, const std::vector<std::uint64_t>& offsets, u32* out) {
  std::vector<std::uint64_t> bounds = offsets;
  const std::size_t n = std::size_t(bounds.back());
  int passes = 0;
  for (std::size_t runs = bounds.size() - 1; runs > 1; runs = (runs + 1) / 2) ++passes;
  if (passes == 0) {
    std::copy(keys, keys + n, out);
    return;
  }
  std::vector<u32> buffer(n);
  const u32* from = keys;
  u32* to = passes % 2 ? out : buffer.data();  // the last pass lands in out
  while (bounds.size() > 2) {
    std::vector<std::uint64_t> next{0};
    for (std::size_t r = 0; r + 1 < bounds.size(); r += 2) {
      const std::uint64_t lo = bounds[r], mid = bounds[r + 1],
                          hi = r + 2 < bounds.size() ? bounds[r + 2] : mid;
      std::merge(from + lo, from + mid, from + mid, from + hi, to + lo);
      next.push_back(hi);
    }
    bounds.swap(next);
    from = to;
    to = to == out ? buffer.data() : out;
  }
}

void fill_segments(const std::vector<u32>& offsets, u32* segment_of) {
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    std::fill(segment_of + offsets[s], segment_of + offsets[s + 1], u32(s));
}

// --- the groups -------------------------------------------------------------------------------

toolbox_group sorted_search_group(const toolbox_inputs& in) {
  const std::size_t n = in.n;
  toolbox_group g = named("sorted search", n, 3 * n * sizeof(u32));
  g.expected = walk_lower_bounds(in.b, in.a);
  g.contenders.push_back(make("std::lower_bound each", role::baseline, 1, [](const auto& p) {
    const auto& h = p.in->b;
    for (std::size_t i = 0; i < p.in->n; ++i)
      p.out[i] = u32(std::lower_bound(h.begin(), h.end(), p.in->a[i]) - h.begin());
    return p.in->n;
  }));
  g.contenders.push_back(make("sequential merge walk", role::contender, 1, [](const auto& p) {
    const auto bounds = walk_lower_bounds(p.in->b, p.in->a);
    std::copy(bounds.begin(), bounds.end(), p.out);
    return p.in->n;
  }));
  if (have_tbb())
    g.contenders.push_back(make("std::transform(std::execution::par) of std::lower_bound",
                                role::contender, 0, [](const auto& p) {
                                  std_par_lower_bounds(p.in->b.data(), p.in->n, p.in->a.data(),
                                                       p.in->n, p.out, p.threads);
                                  return p.in->n;
                                }));
  g.contenders.push_back(
      make("corank::cpu::sorted_lower_bound", role::contender, 0, [](const auto& p) {
        cpu::sorted_lower_bound(p.in->b.begin(), p.in->b.end(), p.in->a.begin(), p.in->a.end(),
                                p.out, corank::less{}, options_of(p));
        return p.in->n;
      }));
  return g;
}

toolbox_group unsorted_search_group(const toolbox_inputs& in) {
  const std::size_t n = in.n;
  toolbox_group g = named("lower_bound, needles in any order", n, 3 * n * sizeof(u32));
  // The sorted needles' answers, scattered to where each needle went: a is sorted, so a needle's
  // lower bound is that of its first copy in a.
  const auto sorted_answers = walk_lower_bounds(in.b, in.a);
  g.expected.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t first =
        std::size_t(std::lower_bound(in.a.begin(), in.a.end(), in.needles[i]) - in.a.begin());
    g.expected[i] = sorted_answers[first];
  }
  g.contenders.push_back(make("std::lower_bound each", role::baseline, 1, [](const auto& p) {
    const auto& h = p.in->b;
    for (std::size_t i = 0; i < p.in->n; ++i)
      p.out[i] = u32(std::lower_bound(h.begin(), h.end(), p.in->needles[i]) - h.begin());
    return p.in->n;
  }));
  if (have_tbb())
    g.contenders.push_back(make("std::transform(std::execution::par) of std::lower_bound",
                                role::contender, 0, [](const auto& p) {
                                  std_par_lower_bounds(p.in->b.data(), p.in->n,
                                                       p.in->needles.data(), p.in->n, p.out,
                                                       p.threads);
                                  return p.in->n;
                                }));
  g.contenders.push_back(make("corank::cpu::lower_bound", role::contender, 0, [](const auto& p) {
    cpu::lower_bound(p.in->b.begin(), p.in->b.end(), p.in->needles.begin(), p.in->needles.end(),
                     p.out, corank::less{}, options_of(p));
    return p.in->n;
  }));
  return g;
}

toolbox_group set_operation_group(const toolbox_inputs& in, set_op op, const std::string& name) {
  const std::size_t n = in.n;
  toolbox_group g;
  g.name = name;
  g.expected.resize(set_operation_max_outputs(op, n, n));
  g.expected.resize(std_set_operation(op, in.a.data(), n, in.b.data(), n, g.expected.data()));
  g.items = 2 * n;
  g.bytes = (2 * n + g.expected.size()) * sizeof(u32);  // inputs read once, outputs written once
  g.contenders.push_back(make("std::" + name, role::baseline, 1, [op](const auto& p) {
    return std_set_operation(op, p.in->a.data(), p.in->n, p.in->b.data(), p.in->n, p.out);
  }));
  if (have_tbb())
    g.contenders.push_back(
        make("std::" + name + "(std::execution::par)", role::contender, 0, [op](const auto& p) {
          return std_par_set_operation(op, p.in->a.data(), p.in->n, p.in->b.data(), p.in->n, p.out,
                                       p.threads);
        }));
  g.contenders.push_back(make("corank::cpu::" + name, role::contender, 0, [op](const auto& p) {
    const u32* a = p.in->a.data();
    const u32* b = p.in->b.data();
    return std::size_t(cpu::set_operation(op, a, a + p.in->n, b, b + p.in->n, p.out, corank::less{},
                                          options_of(p)) -
                       p.out);
  }));
  return g;
}

toolbox_group join_group(const toolbox_inputs& in) {
  toolbox_group g;
  g.name = "join (inner)";
  g.join = true;
  g.expected_pairs = inner_join_reference(in.a, in.b);
  g.items = 2 * in.n;
  // Keys read once, pairs (two 8-byte indices) written once.
  g.bytes = 2 * in.n * sizeof(u32) + g.expected_pairs.size() * 2 * sizeof(std::size_t);
  g.contenders.push_back(
      make("std::equal_range of each key (nested loop)", role::baseline, 1, [](const auto& p) {
        cpu::join_result r;
        const auto& b = p.in->b;
        for (std::size_t i = 0; i < p.in->n; ++i) {
          const auto range = std::equal_range(b.begin(), b.end(), p.in->a[i]);
          for (auto j = range.first; j != range.second; ++j)
            r.a.push_back(i), r.b.push_back(std::size_t(j - b.begin()));
        }
        *p.pairs = std::move(r);
        return p.pairs->size();
      }));
  g.contenders.push_back(make("corank::cpu::join", role::contender, 0, [](const auto& p) {
    *p.pairs = cpu::join(join_kind::inner, p.in->a.begin(), p.in->a.end(), p.in->b.begin(),
                         p.in->b.end(), corank::less{}, options_of(p));
    return p.pairs->size();
  }));
  return g;
}

toolbox_group load_balance_group(const toolbox_inputs& in) {
  const std::size_t n = in.n, segments = in.segment_offsets.size() - 1;
  toolbox_group g = named("load-balancing search", n, (segments + 1 + n) * sizeof(u32));
  g.expected.resize(n);
  fill_segments(in.segment_offsets, g.expected.data());
  g.contenders.push_back(make("std::fill of each segment", role::baseline, 1, [](const auto& p) {
    fill_segments(p.in->segment_offsets, p.out);
    return p.in->n;
  }));
  g.contenders.push_back(
      make("corank::cpu::load_balancing_search", role::contender, 0, [](const auto& p) {
        const auto& offsets = p.in->segment_offsets;
        cpu::load_balancing_search(offsets.data(), offsets.size() - 1, p.in->n, p.out,
                                   options_of(p));
        return p.in->n;
      }));
  return g;
}

toolbox_group multiway_merge_group(const toolbox_inputs& in) {
  const std::size_t total = in.runs.size(), runs = in.run_offsets.size() - 1;
  toolbox_group g =
      named("multiway merge, " + std::to_string(runs) + " runs", total, 2 * total * sizeof(u32));
  g.expected.resize(total);
  std_merge_tree(in.runs.data(), in.run_offsets, g.expected.data());
  g.contenders.push_back(make("std::merge tree (sequential)", role::baseline, 1, [](const auto& p) {
    std_merge_tree(p.in->runs.data(), p.in->run_offsets, p.out);
    return p.in->runs.size();
  }));
  g.contenders.push_back(make("copy + std::stable_sort", role::contender, 1, [](const auto& p) {
    std::copy(p.in->runs.begin(), p.in->runs.end(), p.out);
    std::stable_sort(p.out, p.out + p.in->runs.size());
    return p.in->runs.size();
  }));
  g.contenders.push_back(
      make("__gnu_parallel::stable_multiway_merge", role::contender, 0, [](const auto& p) {
        gnu_parallel_multiway_merge(p.in->runs.data(), p.in->run_offsets.data(),
                                    p.in->run_offsets.size() - 1, p.out, p.threads);
        return p.in->runs.size();
      }));
  g.contenders.push_back(make("corank::cpu::multiway_merge", role::contender, 0, [](const auto& p) {
    cpu::multiway_merge(p.in->runs.data(), p.in->run_offsets.data(), p.in->run_offsets.size() - 1,
                        p.out, corank::less{}, options_of(p));
    return p.in->runs.size();
  }));
  return g;
}

}  // namespace

std::vector<std::size_t> default_toolbox_sizes(bool quick) {
  if (quick) return {100000, 1000000};
  return {1000000, 10000000};
}

report run_cpu_toolbox_bench(const run_config& config, std::size_t num_runs) {
  const int threads = config.threads > 0 ? config.threads : cpu::detail::max_threads();
  report rep("cpu toolbox");
  rep.set_meta("keys",
               "sorted u32, random increments 0..40 (toolbox_inputs.hpp); size: items per input");
  rep.set_meta("threads", std::to_string(threads));
  constexpr int groups = 9;
  progress bar(int(config.sizes.size()) * (1 + groups * 5), config.show_progress);
  for (const std::size_t n : config.sizes) {
    const std::string label = "toolbox " + human_count(n) + " per input";
    bar.step(label + ": generating inputs");
    const toolbox_inputs in = make_toolbox_inputs(n, num_runs, config.seed);
    std::vector<u32> out(std::max(2 * n, in.runs.size()));
    std::size_t count = 0;
    cpu::join_result pairs;
    const toolbox_problem problem{&in, threads, out.data(), &count, &pairs};

    bar.step(label + ": memcpy");
    // The 2n keys of the two inputs, read and written once.
    rep.add(
        problem_shape("", "cpu", n, 2 * n, 2 * 2 * n * sizeof(u32), 1, threads), "memcpy",
        role::copy,
        measure_host_copy(out.data(), in.runs.data(), 2 * n * sizeof(u32), threads, config.timing));

    const auto run_group = [&](const toolbox_group& g) {
      const row shape = problem_shape(g.name, "cpu", n, g.items, g.bytes, 1, threads);
      run_contenders(
          g.contenders, problem, shape, config.timing, label + ", " + g.name, bar, rep,
          [&](const toolbox_contender&) {
            const bool ok = g.join
                                ? pairs.a == g.expected_pairs.a && pairs.b == g.expected_pairs.b
                                : count == g.expected.size() &&
                                      std::equal(g.expected.begin(), g.expected.end(), out.begin());
            std::memset(out.data(), 0xEF, out.size() * sizeof(u32));  // poison for the next
            count = 0;
            pairs = {};
            return ok;
          },
          config.only);
    };
    run_group(sorted_search_group(in));
    run_group(unsorted_search_group(in));
    for (const auto& [op, name] : named_set_operations)
      run_group(set_operation_group(in, op, name));
    run_group(join_group(in));
    run_group(load_balance_group(in));
    run_group(multiway_merge_group(in));
  }
  return rep;
}

}  // namespace corank::bench

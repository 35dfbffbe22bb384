// See gpu_toolbox.hpp. Timing: device events around each call (thrust's include its temporary
// allocation, as a user sees it; corank's plain calls take theirs from the library's cache).
// Bytes counted: every input read once, every output written once.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/gpu_sweep.cuh"
#include "bench/gpu_timing.cuh"
#include "bench/gpu_toolbox.hpp"
#include "bench/progress.hpp"
#include "bench/toolbox_inputs.hpp"
#include "bench/toolbox_peers.hpp"
#include "corank/cuda/join.cuh"
#include "corank/cuda/load_balance.cuh"
#include "corank/cuda/multiway_merge.cuh"
#include "corank/cuda/set_operations.cuh"
#include "corank/cuda/sorted_search.cuh"

namespace corank::bench {
namespace {

using u32 = std::uint32_t;

/// One size's inputs on the device, and the outputs: `out` each row's, `ref` the baseline's.
struct device_toolbox {
  std::size_t n;
  device_vector<u32> a, b, needles, runs, segment_offsets, out, ref;
  device_vector<std::uint64_t> run_offsets;
  device_vector<std::size_t> count;  // corank's set operations leave their count here
  explicit device_toolbox(const toolbox_inputs& in)
      : n(in.n),
        a(in.a),
        b(in.b),
        needles(in.needles),
        runs(in.runs),
        segment_offsets(in.segment_offsets),
        out(std::max(2 * in.n, in.runs.size())),
        ref(out.size),
        run_offsets(in.run_offsets),
        count(1) {}
};

/// Adds the rows of one size to a report: every call timed, then checked.
class toolbox_rows {
 public:
  toolbox_rows(report& rep, const gpu_toolbox_config& config, progress& bar, device_toolbox& d)
      : rep_(rep), config_(config), bar_(bar), d_(d), label_("gpu toolbox " + human_count(d.n)) {}

  /// Times `run` in the group of `shape`, then asks `check()` whether its output is right.
  void time(const row& shape, const std::string& name, role kind, const device_run& run,
            const std::function<bool()>& check) {
    bar_.step(label_ + ", " + shape.group + ": " + name);
    poison(kind == role::baseline ? d_.ref.data : d_.out.data, d_.out.size * sizeof(u32));
    const stats t = measure_device(run, config_.timing);
    cuda_check(cudaDeviceSynchronize(), name.c_str());
    rep_.add(shape, name, kind, t, check());
  }

  /// The rows of a primitive whose answers are `items` u32 in out (ref for the baseline): thrust's
  /// (or CUB's) `peer(build, answers)` of each CCCL, then corank's `ours`.
  template <class Peer>
  void answers(const row& shape, const std::string& peer_name, Peer&& peer,
               const std::string& our_name, const device_run& ours, std::size_t items) {
    const auto same_as_ref = [&] { return same_bytes(d_.out.data, d_.ref.data, items * 4); };
    for_each_cub([&](auto build, bool baseline) {
      using peers = cub_peers<decltype(build)::value>;
      time(shape, cub_name(peers::version()) + " " + peer_name,
           baseline ? role::baseline : role::contender,
           peer(build, baseline ? d_.ref.data : d_.out.data),
           baseline ? std::function<bool()>([] { return true; }) : same_as_ref);
    });
    time(shape, our_name, role::contender, ours, same_as_ref);
  }

  row shape(const std::string& group, std::size_t items, std::size_t bytes) const {
    return problem_shape(group, "gpu", d_.n, items, bytes);
  }

 private:
  report& rep_;
  const gpu_toolbox_config& config_;
  progress& bar_;
  device_toolbox& d_;
  std::string label_;
};

/// Needles in any order against thrust::lower_bound, both of corank's ways forced and its choice,
/// over needle counts 10^3, 10^4, ... n (prefixes of the shuffled needles: random subsets of A)
/// in haystacks of n, n / 10 and n / 100 keys (B, and every 10th or 100th key of it: the same
/// range, the smaller ones in the GPU's cache). Bytes counted: the needles read and the answers
/// written (what must move; the haystack need not be read whole).
void add_unsorted_search_sweep(toolbox_rows& rows, device_toolbox& d, const toolbox_inputs& in) {
  using way = cuda::detail::unsorted_search_way;
  for (const std::size_t stride : {1, 10, 100}) {
    std::vector<u32> host_hay;
    for (std::size_t i = 0; i < in.n; i += stride) host_hay.push_back(in.b[i]);
    const device_vector<u32> hay(host_hay);
    const std::size_t m = hay.size;
    for (std::size_t k = 1000; k <= in.n; k *= 10) {
      const u32* needles = d.needles.data;
      const auto forced = [&, needles, k](way w) {
        return [&, needles, k, w] {
          return cuda::detail::unsorted_search<false>({}, w, hay.data, m, needles, k, d.out.data,
                                                      corank::less{}, cudaStream_t{});
        };
      };
      const row shape = rows.shape(
          "lower_bound, " + human_count(k) + " needles in any order, " + human_count(m) + " keys",
          k, 2 * k * sizeof(u32));
      rows.answers(
          shape, "thrust::lower_bound",
          [&, needles, k](auto build, u32* answers) {
            return toolbox_peers<decltype(build)::value>::lower_bound(hay.data, m, needles, k,
                                                                      answers);
          },
          "corank lower_bound (" +
              std::string(cuda::detail::choose_unsorted_search<u32>(m, k) == way::sort_then_search
                              ? "sorts first"
                              : "one by one") +
              ")",
          [&, needles, k] { return cuda::lower_bound(hay.data, m, needles, k, d.out.data); }, k);
      rows.time(shape, "corank binary search each", role::contender,
                forced(way::binary_search_each),
                [&, k] { return same_bytes(d.out.data, d.ref.data, k * sizeof(u32)); });
      rows.time(shape, "corank sort then search", role::contender, forced(way::sort_then_search),
                [&, k] { return same_bytes(d.out.data, d.ref.data, k * sizeof(u32)); });
    }
  }
}

void add_size(report& rep, const gpu_toolbox_config& config, progress& bar,
              const toolbox_inputs& in) {
  const std::size_t n = in.n, total = in.runs.size(), segments = in.segment_offsets.size() - 1,
                    runs = in.run_offsets.size() - 1;
  device_toolbox d(in);
  toolbox_rows rows(rep, config, bar, d);

  rows.time(
      rows.shape("", 2 * n, 2 * 2 * n * sizeof(u32)), "device copy", role::copy,
      [&] {
        return cudaMemcpyAsync(d.out.data, d.runs.data, 2 * n * sizeof(u32),
                               cudaMemcpyDeviceToDevice);
      },
      [&] { return same_bytes(d.out.data, d.runs.data, 2 * n * sizeof(u32)); });

  const auto lower_bounds = [&](const u32* needles) {
    return [&d, needles](auto build, u32* answers) {
      return toolbox_peers<decltype(build)::value>::lower_bound(d.b.data, d.n, needles, d.n,
                                                                answers);
    };
  };
  rows.answers(
      rows.shape("sorted search", n, 3 * n * sizeof(u32)), "thrust::lower_bound",
      lower_bounds(d.a.data), "corank sorted_lower_bound",
      [&] { return cuda::sorted_lower_bound(d.b.data, n, d.a.data, n, d.out.data); }, n);
  rows.answers(
      rows.shape("lower_bound, needles in any order", n, 3 * n * sizeof(u32)),
      "thrust::lower_bound", lower_bounds(d.needles.data), "corank lower_bound",
      [&] { return cuda::lower_bound(d.b.data, n, d.needles.data, n, d.out.data); }, n);
  if (config.unsorted_search_sweep) add_unsorted_search_sweep(rows, d, in);

  std::vector<u32> host_out(2 * n);  // std::'s output: its count
  for (const auto& named : named_set_operations) {
    // Named, not structured bindings: C++17 lambdas cannot capture those.
    const set_op op = named.first;
    const std::string group = named.second;
    const std::size_t want = std_set_operation(op, in.a.data(), n, in.b.data(), n, host_out.data());
    const row shape = rows.shape(group, 2 * n, (2 * n + want) * sizeof(u32));
    std::size_t ref_count = 0, peer_count = 0;
    for_each_cub([&](auto build, bool baseline) {
      using peers = cub_peers<decltype(build)::value>;
      std::size_t* count = baseline ? &ref_count : &peer_count;
      rows.time(shape, cub_name(peers::version()) + " thrust::" + group,
                baseline ? role::baseline : role::contender,
                toolbox_peers<decltype(build)::value>::set_operation(
                    op, d.a.data, n, d.b.data, n, baseline ? d.ref.data : d.out.data, count),
                [&, count, baseline] {
                  // The baseline's output is the reference of the others (its count the host's
                  // std::).
                  return *count == want &&
                         (baseline || same_bytes(d.out.data, d.ref.data, want * sizeof(u32)));
                });
    });
    rows.time(
        shape, "corank " + group + " (count on the device)", role::contender,
        [&] {
          return cuda::set_operation(op, d.a.data, n, d.b.data, n, d.out.data,
                                     cuda::output_count::on_device(d.count.data));
        },
        [&] {
          return d.count.to_host()[0] == want &&
                 same_bytes(d.out.data, d.ref.data, want * sizeof(u32));
        });
  }

  {
    const index_pairs want = inner_join_reference(in.a, in.b);
    device_vector<std::size_t> out_a(want.size()), out_b(want.size());
    rows.time(
        rows.shape("join (inner)", 2 * n, 2 * n * sizeof(u32) + want.size() * 16),
        "corank join_size + join", role::contender,
        [&] {
          std::size_t pairs = 0;
          const cudaError_t sized =
              cuda::join_size(join_kind::inner, d.a.data, n, d.b.data, n, &pairs);
          if (sized != cudaSuccess) return sized;
          if (pairs != want.size()) return cudaErrorInvalidValue;
          return cuda::join(join_kind::inner, d.a.data, n, d.b.data, n, out_a.data, out_b.data,
                            pairs);
        },
        [&] { return out_a.to_host() == want.a && out_b.to_host() == want.b; });
  }

  rows.answers(
      rows.shape("load-balancing search", n, (segments + 1 + n) * sizeof(u32)),
      "thrust::upper_bound of each item in the ends",
      [&](auto build, u32* answers) {
        return toolbox_peers<decltype(build)::value>::segment_of_items(d.segment_offsets.data,
                                                                       segments, n, answers);
      },
      "corank load_balancing_search",
      [&] { return cuda::load_balancing_search(d.segment_offsets.data, segments, n, d.out.data); },
      n);

  {  // interval expand: segment s's value (A's key s) over its items; no thrust/CUB equivalent
    std::vector<u32> want(n);
    for (std::size_t s = 0; s < segments; ++s)
      std::fill(want.begin() + in.segment_offsets[s], want.begin() + in.segment_offsets[s + 1],
                in.a[s]);
    rows.time(
        rows.shape("interval expand", n, (2 * segments + 1 + n) * sizeof(u32)),
        "corank interval_expand", role::contender,
        [&] {
          return cuda::interval_expand(d.segment_offsets.data, segments, d.a.data, n, d.out.data);
        },
        [&] {
          const std::vector<u32> got = d.out.to_host();
          return std::equal(want.begin(), want.end(), got.begin());
        });
  }

  rows.answers(
      rows.shape("multiway merge, " + std::to_string(runs) + " runs", total,
                 2 * total * sizeof(u32)),
      "DeviceMergeSort::SortKeysCopy of the concatenation",
      [&](auto build, u32* sorted) {
        return cub_peers<decltype(build)::value>::merge_sort_keys(d.runs.data, sorted, total,
                                                                  corank::less{});
      },
      "corank multiway_merge",
      [&] {
        return cuda::multiway_merge(d.runs.data, d.run_offsets.data, runs, total, d.out.data);
      },
      total);
  // The tree of pairwise passes alone (what the call took before four-way passes), beside it.
  const corank::no_value* none = nullptr;
  rows.time(
      rows.shape("multiway merge, " + std::to_string(runs) + " runs", total,
                 2 * total * sizeof(u32)),
      "corank multiway_merge, pairwise passes", role::contender,
      [&] {
        return cuda::detail::multiway_merge({}, d.runs.data, none, d.run_offsets.data, runs, total,
                                            d.out.data, const_cast<corank::no_value*>(none),
                                            corank::less{}, cudaStream_t{},
                                            cuda::detail::multiway_passes::pairwise);
      },
      [&] { return same_bytes(d.out.data, d.ref.data, total * sizeof(u32)); });
}

}  // namespace

report run_gpu_toolbox_bench(const gpu_toolbox_config& config) {
  report rep("gpu toolbox");
  rep.set_meta("keys",
               "sorted u32, random increments 0..40 (toolbox_inputs.hpp); size: items per input");
  rep.set_meta("cub", cub_meta());
  rep.set_meta("timing",
               "CUDA events around each call; thrust allocates in the call, corank from its cache");
  // 32 steps a size, and the sweep's 5 rows of up to 3 haystacks x 6 needle counts.
  const int steps_per_size = 32 + (config.unsorted_search_sweep ? 90 : 0);
  progress bar(int(config.sizes.size()) * steps_per_size, config.show_progress);
  for (const std::size_t n : config.sizes) {
    bar.step("gpu toolbox " + human_count(n) + ": generating inputs");
    add_size(rep, config, bar, make_toolbox_inputs(n, config.num_runs, config.seed));
  }
  return rep;
}

}  // namespace corank::bench

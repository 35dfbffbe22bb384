// See gpu_merge.hpp. Timing: device events around each call (thrust's includes its temporary
// allocation, as a user sees it; CUB's temporary storage is allocated once, outside). Bytes
// counted: every input read once, every output written once.
#include <thrust/sequence.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/gpu_merge.hpp"
#include "bench/gpu_sweep.cuh"
#include "bench/gpu_timing.cuh"
#include "bench/progress.hpp"
#include "corank/cuda/merge.cuh"
#include "corank/study/merge.cuh"

namespace corank::bench {
namespace {

using value = std::uint32_t;

/// One of the study's kernels with a choice of its two optimisations.
struct studied_variant {
  std::string name;
  study::cuda::merge_options options;
};

std::vector<studied_variant> studied_variants() {
  using cuda::merge_algorithm;
  std::vector<studied_variant> variants;
  for (const auto& [kernel, algorithm] :
       {std::pair{"basic", merge_algorithm::basic}, std::pair{"tiled", merge_algorithm::tiled},
        std::pair{"circular", merge_algorithm::circular}})
    for (const auto& [reuse, branch_free, suffix] :
         {std::tuple{true, true, ""}, std::tuple{false, true, " (no neighbour reuse)"},
          std::tuple{true, false, " (branchy)"}, std::tuple{false, false, " (neither)"}}) {
      study::cuda::merge_options opt;
      opt.algorithm = algorithm;
      opt.reuse_neighbor_co_rank = reuse;
      opt.branch_free = branch_free;
      variants.push_back({std::string("corank ") + kernel + suffix, opt});
    }
  return variants;
}

/// One merge problem: inputs a and b of n items each (sorted), outputs, and the reference output.
template <class Key>
struct merge_problem {
  std::size_t n;
  device_vector<Key> a, b, out, ref;
  device_vector<value> va, vb, vout, vref;
  merge_problem(std::size_t items, bool pairs)
      : n(items),
        a(n),
        b(n),
        out(2 * n),
        ref(2 * n),
        va(pairs ? n : 0),
        vb(pairs ? n : 0),
        vout(pairs ? 2 * n : 0),
        vref(pairs ? 2 * n : 0) {}
};

/// The inputs of `shape`: 2n keys of that shape, the first n sorted into a and the rest into b
/// (so presorted puts a before b, reverse b before a); values: each key's input position.
template <class Key, class Compare>
void fill_inputs(merge_problem<Key>& p, data::key_shape shape, Compare comp, std::uint64_t seed) {
  const device_vector<Key> keys(data::generate_shape<Key>(2 * p.n, shape, seed));
  Key* const halves[2] = {p.a.data, p.b.data};
  for (int half = 0; half < 2; ++half) {
    // CUB's stable merge sort (untimed: a merge's sorted inputs).
    device_run sort = cub_peers<cub_build::toolkit>::merge_sort_keys(keys.data + half * p.n,
                                                                     halves[half], p.n, comp);
    cuda_check(sort(), "sorting a merge input");
  }
  if (p.va.size) {
    thrust::sequence(thrust::device, p.va.data, p.va.data + p.n, value(0));
    thrust::sequence(thrust::device, p.vb.data, p.vb.data + p.n, value(p.n));
  }
  cuda_check(cudaDeviceSynchronize(), "merge inputs");
}

class merge_sweep {
 public:
  merge_sweep(const gpu_merge_config& config, progress& bar) : config_(config), bar_(bar) {}

  template <class Key, class Compare>
  report run(Compare comp) {
    report rep(std::string("gpu merge ") + key_type_name<Key>());
    rep.set_meta("keys", std::string(key_type_name<Key>()) +
                             ", 2n keys of the group's shape: the first n sorted are A, the rest"
                             " B; pairs: u32 values (input positions)");
    rep.set_meta("cub", cub_meta());
    rep.set_meta("timing", "CUDA events around each call; CUB's temporary storage allocated once");
    const bool u32 = std::is_same_v<Key, std::uint32_t>;
    for (std::size_t n : config_.sizes) {
      const bool every_shape = n >= config_.every_shape_from;
      if (!every_shape && !u32) continue;
      merge_problem<Key> p(n, config_.pairs);
      bool copied = false;
      for (data::key_shape shape : config_.shapes) {
        if (!every_shape && shape != data::key_shape::uniform) continue;
        const std::string label =
            rep.experiment() + " " + data::name(shape) + " " + human_count(n) + " per input: ";
        bar_.step(label + "generating inputs");
        fill_inputs(p, shape, comp, std::uint64_t(shape) * 1000 + n);
        if (!copied) add_copy(rep, p), copied = true;
        const bool studied = u32 && shape == data::key_shape::uniform;
        contenders(rep, p, data::name(shape), 0, comp, studied);
        if (u32 && shape == data::key_shape::uniform && every_shape)
          contenders(rep, p, "unaligned", 1, comp, false);
      }
    }
    return rep;
  }

 private:
  template <class Key>
  void add_copy(report& rep, merge_problem<Key>& p) {
    const std::size_t bytes = 2 * p.n * sizeof(Key);
    rep.add(problem_shape("", "gpu", p.n, 2 * p.n, 2 * bytes), "device copy", role::copy,
            measure_device(
                [&] {
                  return cudaMemcpyAsync(p.out.data, p.ref.data, bytes, cudaMemcpyDeviceToDevice);
                },
                config_.timing));
  }

  /// Every contender on the problem, keys then pairs; `skew` elements off each pointer (1: the
  /// inputs and outputs misaligned for vector loads), the inputs then one element shorter.
  template <class Key, class Compare>
  void contenders(report& rep, merge_problem<Key>& p, const std::string& shape_name,
                  std::size_t skew, Compare comp, bool studied) {
    const std::size_t n = p.n - skew, total = 2 * n;
    const Key *a = p.a.data + skew, *b = p.b.data + skew;
    Key *out = p.out.data + skew, *ref = p.ref.data + skew;
    const std::string label = rep.experiment() + " " + shape_name + " " + human_count(p.n) + ": ";
    const auto time = [&](const row& shape, const std::string& name, role kind,
                          const device_run& run, const std::function<bool()>& check) {
      bar_.step(label + shape.group + " " + name);
      const stats t = measure_device(run, config_.timing);
      cuda_check(cudaDeviceSynchronize(), name.c_str());
      rep.add(shape, name, kind, t, check());
    };
    const row keys =
        problem_shape(shape_name + " keys", "gpu", p.n, total, 2 * total * sizeof(Key));
    const auto keys_ok = [&] { return same_bytes(out, ref, total * sizeof(Key)); };
    for_each_cub([&](auto build, bool baseline) {
      using peers = cub_peers<decltype(build)::value>;
      Key* dest = baseline ? ref : out;
      poison(dest, total * sizeof(Key));
      time(keys, cub_name(peers::version()) + " DeviceMerge",
           baseline ? role::baseline : role::contender, peers::merge_keys(a, n, b, n, dest, comp),
           [&] { return baseline || keys_ok(); });
    });
    // Any kernel through the study's entry point (automatic: the production kernel's).
    const auto corank_keys = [&](const std::string& name, const study::cuda::merge_options& opt) {
      poison(out, total * sizeof(Key));
      time(
          keys, name, role::contender,
          [&, opt] { return study::cuda::merge(opt, a, n, b, n, out, comp); }, keys_ok);
    };
    poison(out, total * sizeof(Key));
    time(keys, "thrust::merge (toolkit)", role::contender,
         cub_peers<cub_build::toolkit>::thrust_merge_keys(a, n, b, n, out, comp), keys_ok);
    poison(out, total * sizeof(Key));
    time(
        keys, "corank merge", role::contender, [&] { return cuda::merge(a, n, b, n, out, comp); },
        keys_ok);
    if (studied) {
      study::cuda::merge_options tuned;  // automatic with the caller's tuning table
      tuned.tuning = config_.tuning;
      if (config_.tuning) corank_keys("corank automatic (tuning file)", tuned);
      for (const studied_variant& s : studied_variants()) corank_keys(s.name, s.options);
      for (unsigned blocks : config_.automatic_grids) {
        study::cuda::merge_options opt = tuned;
        opt.blocks = blocks;
        corank_keys("automatic grid=" + std::to_string(blocks), opt);
      }
    }
    if (!config_.pairs) return;

    const value *va = p.va.data + skew, *vb = p.vb.data + skew;
    value *vout = p.vout.data + skew, *vref = p.vref.data + skew;
    const row pairs = problem_shape(shape_name + " pairs", "gpu", p.n, total,
                                    2 * total * (sizeof(Key) + sizeof(value)));
    const auto pairs_ok = [&] {
      return keys_ok() && same_bytes(vout, vref, total * sizeof(value));
    };
    const auto poison_out = [&] {
      poison(out, total * sizeof(Key));
      poison(vout, total * sizeof(value));
    };
    for_each_cub([&](auto build, bool baseline) {
      using peers = cub_peers<decltype(build)::value>;
      poison_out();
      time(pairs, cub_name(peers::version()) + " DeviceMerge",
           baseline ? role::baseline : role::contender,
           peers::merge_pairs(a, va, n, b, vb, n, baseline ? ref : out, baseline ? vref : vout,
                              comp),
           [&] { return baseline || pairs_ok(); });
    });
    poison_out();
    time(pairs, "thrust::merge_by_key (toolkit)", role::contender,
         cub_peers<cub_build::toolkit>::thrust_merge_pairs(a, va, n, b, vb, n, out, vout, comp),
         pairs_ok);
    poison_out();
    time(
        pairs, "corank merge", role::contender,
        [&] { return cuda::merge_by_key(a, va, n, b, vb, n, out, vout, comp); }, pairs_ok);
  }

  const gpu_merge_config& config_;
  progress& bar_;
};

}  // namespace

std::vector<report> run_gpu_merge_bench(const gpu_merge_config& config) {
  // Steps: per size, per shape, about 12 rows (more for the studied kernels); the bar is a guide.
  progress bar(int(config.sizes.size() * config.shapes.size() * config.key_types.size() * 12),
               config.show_progress);
  merge_sweep sweep(config, bar);
  std::vector<report> reports;
  for (const std::string& type : config.key_types) {
    reports.push_back(
        with_key_type(type, [&](auto key, auto comp) { return sweep.run<decltype(key)>(comp); }));
  }
  return reports;
}

}  // namespace corank::bench

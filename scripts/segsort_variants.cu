// The segmented sorts' variants side by side in one process, plain calls: the stable sort as
// tuned, the stable sort under other policies (-DCORANK_SEGSORT_VARIANTS: policies of this tree
// only), the unstable bitonic networks (detail::sort_segments_by_networks) and CUB's
// DeviceSegmentedSort, for u32 keys, u32/u32 pairs and 16-byte items (u64/u64 pairs, 16-byte
// struct keys by a comparator). Each call starts from the restored input (untimed), device events
// around the call alone, two warm-up calls, medians; every result is checked against the first
// stable row (keys bitwise; values too where both rows are stable). Scratch, for the notes.
//
// Build (repository root; CCCL 3.6's headers first for the newest CUB):
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -Ibuild/cccl/include
//        -Iinclude [-DCORANK_SEGSORT_VARIANTS] scripts/segsort_variants.cu -o segsort_variants
//   ./segsort_variants [keys|pairs|wide|single|mix|groups|blocks|at|race] [--reps N] [--total N]
//                      [--lengths L,L,...]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/version.cuh>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "corank/cuda/segmented_sort.cuh"
#include "segsort_timing.cuh"

namespace {

using corank::cuda::block::no_value;
using offset = std::int64_t;

using segsort_timing::check;
using segsort_timing::dev;
using segsort_timing::positions;
using segsort_timing::upload;

struct wide {  // a 16-byte key ordered by its first word, then its second
  std::uint64_t hi, lo;
};
struct wide_less {
  __host__ __device__ bool operator()(const wide& x, const wide& y) const {
    return x.hi != y.hi ? x.hi < y.hi : x.lo < y.lo;
  }
};

int reps = 7;
bool stable_only = false;
bool with_networks = true;  // the unstable networks' row (off: the stable policies alone)  // the
                            // tuned stable sort alone (runs under compute-sanitizer)
std::size_t total = std::size_t(1) << 26;

#ifdef CORANK_SEGSORT_VARIANTS
template <class Key, class Value>
using tuned = corank::cuda::detail::stable_segmented_policy_for<Key, Value>;
/// The merges' kernels at other blocks a multiprocessor: the warp merges' (Warp) and the wider
/// groups' (Wide).
template <class Key, class Value, int Warp, int Wide>
struct blocks_at : tuned<Key, Value> {
  static constexpr int warp_merge_blocks_per_sm = Warp;
  static constexpr int wide_merge_blocks_per_sm = Wide;
};
#endif

/// One shape: every contender's median ms on one line, "!" after a wrong result.
template <class Key, class Value, class Compare>
void run_shape(const std::string& name, const std::vector<Key>& host_keys,
               const std::vector<offset>& offs, Compare comp, bool with_cub) {
  constexpr bool pairs = !std::is_same_v<Value, no_value>;
  const std::size_t n = host_keys.size(), segs = offs.size() - 1;
  dev<Key> in(n), keys(n), cub_out(n);
  using V = std::conditional_t<pairs, Value, char>;
  dev<V> vin(pairs ? n : 1), vals(pairs ? n : 1), cub_vals(pairs ? n : 1);
  dev<offset> d_off(offs.size());
  upload(in, host_keys, "keys");
  upload(d_off, offs, "offsets");
  if (pairs) upload(vin, positions<V>(n), "values");
  V* vp = vals.p;
  const auto restore = [&] {
    cudaMemcpyAsync(keys.p, in.p, n * sizeof(Key), cudaMemcpyDeviceToDevice);
    if (pairs) cudaMemcpyAsync(vals.p, vin.p, n * sizeof(V), cudaMemcpyDeviceToDevice);
  };
  std::vector<unsigned char> ref_keys, ref_vals;
  std::string line = name + ":";
  const auto row = [&](const char* who, bool stable, const std::function<cudaError_t()>& call) {
    const double ms = segsort_timing::time_ms(call, restore, reps);
    const auto k = keys.bytes();
    bool ok = true;
    if (ref_keys.empty()) {
      ref_keys = k;
      if (pairs) ref_vals = vals.bytes();
    } else {
      ok = k == ref_keys && (!pairs || !stable || vals.bytes() == ref_vals);
    }
    char buf[96];
    std::snprintf(buf, sizeof buf, " %s %.4f%s", who, ms, ok ? "" : "!");
    line += buf;
  };
#ifdef CORANK_SEGSORT_VARIANTS
  using stored = std::conditional_t<pairs, Value, no_value>;
  const auto variant = [&](const char* who, auto policy) {
    row(who, true, [&] {
      stored* v = nullptr;
      if constexpr (pairs) v = vp;
      return corank::cuda::detail::stable_sort_segments_impl<Key, stored, offset, Compare,
                                                             decltype(policy)>(
          {}, keys.p, v, n, d_off.p, segs, comp, cudaStream_t(0));
    });
  };
  const auto variants = [&] {
    using t = tuned<Key, stored>;
    variant("warp2", blocks_at<Key, stored, 2, t::wide_merge_blocks_per_sm>{});
    variant("warp3", blocks_at<Key, stored, 3, t::wide_merge_blocks_per_sm>{});
    variant("wide3", blocks_at<Key, stored, t::warp_merge_blocks_per_sm, 3>{});
    variant("wide4", blocks_at<Key, stored, t::warp_merge_blocks_per_sm, 4>{});
  };
#endif
  if (stable_only) {
    if constexpr (pairs)
      row("stable", true, [&] {
        return corank::cuda::stable_sort_segments_by_key(keys.p, vp, n, d_off.p, segs, comp);
      });
    else
      row("stable", true,
          [&] { return corank::cuda::stable_sort_segments(keys.p, n, d_off.p, segs, comp); });
    std::printf("%s\n", line.c_str());
    return;
  }
  if constexpr (pairs) {
    row("stable", true, [&] {
      return corank::cuda::stable_sort_segments_by_key(keys.p, vp, n, d_off.p, segs, comp);
    });
#ifdef CORANK_SEGSORT_VARIANTS
    variants();
#endif
    if (with_networks)
      row("networks", false, [&] {
        return corank::cuda::detail::sort_segments_by_networks({}, keys.p, vp, n, d_off.p, segs,
                                                               comp, cudaStream_t(0));
      });
  } else {
    row("stable", true,
        [&] { return corank::cuda::stable_sort_segments(keys.p, n, d_off.p, segs, comp); });
#ifdef CORANK_SEGSORT_VARIANTS
    variants();
#endif
    if (with_networks && (n / segs < 100000 || reps < 4))  // ~0.1 s a call on segments of 1M+
      row("networks", false, [&] {
        return corank::cuda::detail::sort_segments_by_networks(
            {}, keys.p, static_cast<no_value*>(nullptr), n, d_off.p, segs, comp, cudaStream_t(0));
      });
  }
  if constexpr (std::is_arithmetic_v<Key>) {
    if (with_cub) {
      std::size_t bytes = 0;
      const auto cub_call = [&](void* temp) {
        if constexpr (pairs)
          return cub::DeviceSegmentedSort::SortPairs(temp, bytes, in.p, keys.p, vin.p, cub_vals.p,
                                                     std::int64_t(n), std::int64_t(segs), d_off.p,
                                                     d_off.p + 1);
        else
          return cub::DeviceSegmentedSort::SortKeys(temp, bytes, in.p, keys.p, std::int64_t(n),
                                                    std::int64_t(segs), d_off.p, d_off.p + 1);
      };
      check(cub_call(nullptr), "cub size");
      void* temp = nullptr;
      check(cudaMalloc(&temp, bytes + 1), "cub temp");
      char who[32];
      std::snprintf(who, sizeof who, "cub%d.%d", CUB_MAJOR_VERSION, CUB_MINOR_VERSION);
      row(who, false, [&] { return cub_call(temp); });
      cudaFree(temp);
    }
  }
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

std::vector<offset> equal(std::size_t length, std::size_t n) {
  std::vector<offset> o;
  for (std::size_t at = 0; at < n; at += length) o.push_back(offset(at));
  o.push_back(offset(n));
  return o;
}

std::vector<offset> uniform(std::size_t lo, std::size_t hi, std::size_t n, std::mt19937_64& rng) {
  std::vector<offset> o(1, 0);
  while (std::size_t(o.back()) < n)
    o.push_back(offset(std::min(n, std::size_t(o.back()) + lo + rng() % (hi - lo + 1))));
  return o;
}

std::vector<offset> power_law(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<offset> o(1, 0);
  while (std::size_t(o.back()) < n)
    o.push_back(
        offset(std::min(n, std::size_t(o.back()) + std::size_t(std::pow(1 - u(rng), -1 / 0.5)))));
  return o;
}

template <class Key, class Value, class Compare, class Make>
void sweep(const char* what, const std::vector<std::size_t>& lengths, Make make, Compare comp,
           bool with_cub, const std::vector<std::size_t>& mixes = {16, 64, 128, 256, 512}) {
  std::mt19937_64 rng(7);
  std::vector<Key> k(total);
  for (auto& x : k) x = make(rng);
  for (std::size_t l : lengths)
    run_shape<Key, Value>(std::string(what) + " " + std::to_string(l), k, equal(l, total), comp,
                          with_cub);
  for (std::size_t hi : mixes)
    run_shape<Key, Value>(std::string(what) + " U[1," + std::to_string(hi) + "]", k,
                          uniform(1, hi, total, rng), comp, with_cub);
  run_shape<Key, Value>(std::string(what) + " power law", k, power_law(total, rng), comp, with_cub);
}

}  // namespace

int main(int argc, char** argv) {
  std::string set = argc > 1 ? argv[1] : "keys";
  std::vector<std::size_t> at_lengths;
  for (int i = 2; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--total")) total = std::size_t(std::atoll(argv[i + 1]));
    if (!std::strcmp(argv[i], "--lengths"))
      for (const char* at = argv[i + 1]; *at; at += *at == ',')
        at_lengths.push_back(std::size_t(std::strtoull(at, const_cast<char**>(&at), 10)));
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("# %s, %zu items a shape, medians of %d, CUB %d.%d.%d\n", prop.name, total, reps,
              CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION);
  std::vector<std::size_t> lengths;
  for (std::size_t l = 1; l <= 8; ++l) lengths.push_back(l);
  for (std::size_t l :
       {9,   12,  16,  17,  20,  24,  25,  32,  33,   40,   47,   48,   49,   56,  57,
        60,  64,  65,  72,  80,  88,  96,  97,  112,  127,  128,  129,  160,  192, 255,
        256, 257, 300, 384, 511, 512, 513, 640, 1023, 1025, 1920, 1921, 4096, 4097})
    lengths.push_back(l);
  const auto u32 = [](std::mt19937_64& r) { return std::uint32_t(r()); };
  if (set == "keys") sweep<std::uint32_t, no_value>("u32", lengths, u32, corank::less{}, true);
  if (set == "pairs")  // fewer lengths: a pair's run takes about twice a key's
    sweep<std::uint32_t, std::uint32_t>(
        "u32/u32", {1, 8, 16, 32, 64, 65, 96, 128, 129, 192, 256, 257, 384, 512, 513, 1023}, u32,
        corank::less{}, true);
  if (set == "wide") {
    const std::vector<std::size_t> some = {1,  2,   4,   8,   16,  32,  33,   64,
                                           65, 128, 129, 256, 512, 513, 1024, 4096};
    sweep<std::uint64_t, std::uint64_t>(
        "u64/u64", some, [](std::mt19937_64& r) { return std::uint64_t(r()); }, corank::less{},
        false);
    sweep<wide, no_value>(
        "wide16", some,
        [](std::mt19937_64& r) {
          return wide{r() % 1000, r()};
        },
        wide_less{}, false);
  }
  if (set == "mix") {  // the warp kernels' lengths and mixes, the stable policies alone
    with_networks = false;
    const std::vector<std::size_t> some = {16, 64, 96, 128, 129, 192, 256, 257, 384, 512, 513};
    sweep<std::uint32_t, no_value>("u32", some, u32, corank::less{}, false);
    sweep<std::uint32_t, std::uint32_t>("u32/u32", some, u32, corank::less{}, false);
  }
  if (set == "groups") {  // past a warp's merges: groups of warps, the windows, the long path
    const std::vector<std::size_t> some = {256,  511,  512,  513,  600,  700,  768,  769,
                                           900,  1024, 1025, 1200, 1408, 1409, 1536, 1537,
                                           1700, 1920, 1921, 2048, 2500, 4096};
    const std::vector<std::size_t> mixes = {512, 1024, 1920, 4096};
    with_networks = false;
    sweep<std::uint32_t, no_value>("u32", some, u32, corank::less{}, true, mixes);
    sweep<std::uint32_t, std::uint32_t>("u32/u32", some, u32, corank::less{}, true, mixes);
  }
  if (set == "blocks") {  // past a window: groups to the whole block, then the long path
    const std::vector<std::size_t> some = {1536, 1537, 1920, 1921, 2048, 2049, 2500,
                                           3072, 3073, 3500, 4096, 4097, 5000, 6144,
                                           6145, 7000, 7680, 7681, 8192};
    const std::vector<std::size_t> mixes = {1920, 4096, 6144, 8192};
    with_networks = false;
    sweep<std::uint32_t, no_value>("u32", some, u32, corank::less{}, true, mixes);
    const std::vector<std::size_t> pairs = {1024, 1025, 1408, 1409, 2048, 2049,
                                            3000, 4096, 4097, 5000, 5633};
    sweep<std::uint32_t, std::uint32_t>("u32/u32", pairs, u32, corank::less{}, true, mixes);
  }
  if (set == "at") {  // the lengths of --lengths (a comma list), u32 keys: for a profiler
    with_networks = false;
    sweep<std::uint32_t, no_value>("u32", at_lengths, u32, corank::less{}, true, {});
  }
  if (set == "race") {  // a few shapes of the warp kernels, small, the stable sort alone
    stable_only = true;
    const std::vector<std::size_t> some = {100, 129, 200, 384, 512, 600, 1100, 1700};
    const std::vector<std::size_t> mixes = {16, 64, 128, 256, 512, 1920};
    sweep<std::uint32_t, no_value>("u32", some, u32, corank::less{}, false, mixes);
    sweep<std::uint32_t, std::uint32_t>("u32/u32", some, u32, corank::less{}, false, mixes);
  }
  if (set == "single") {  // one segment of 1M and 10M keys: the networks' large class
    reps = 3;
    std::mt19937_64 rng(3);
    for (std::size_t m : {std::size_t(1) << 20, std::size_t(10000000)}) {
      std::vector<std::uint32_t> k(m);
      for (auto& x : k) x = std::uint32_t(rng());
      run_shape<std::uint32_t, no_value>("u32 one of " + std::to_string(m), k, {0, offset(m)},
                                         corank::less{}, true);
      std::vector<wide> w(m);
      for (auto& x : w) x = wide{rng() % 1000, rng()};
      run_shape<wide, no_value>("wide16 one of " + std::to_string(m), w, {0, offset(m)},
                                wide_less{}, false);
    }
  }
  return 0;
}

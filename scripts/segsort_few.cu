// The stable segmented sort's few-segments mode (tuning few_segments_max: every segment to the
// long path, no short segments' kernels) in three rows of one binary: "main" (main's path: the
// tuned policy with few_segments_max = 0), "few_w" (the mode with the windows' tile, 256 x 15 for
// u32, on its long path) and "few" (as tuned: the merge sort's tile, few_long_shape), against
// "sort", corank::cuda::stable_sort of the same n keys as one segment. Shapes: one segment of
// 2^20 and 10^7 keys (u32, and u32/u32 pairs), 2, 8, 32 and 64 segments summing to those (random
// cuts, and equal ones), and regressions of 64M keys in equal segments of 32, 1024, 4096 and
// U[1,4096] (more segments than the mode takes: the rows should match). Plain calls, device events
// around each call alone, the input restored before each (untimed), two warm-ups, medians of 7.
// Every result is checked against std::stable_sort of each segment on the host (pairs: positions
// as values), so the rows are also bitwise equal to each other; stable_sort's only where one
// segment covers the keys. "!" marks a failure and the exit status is then 1. Scratch, for the
// notes.
//
// Build (repository root):
//   nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude scripts/segsort_few.cu -o segsort_few
//   ./segsort_few [--reps N] [--quick]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "corank/cuda/merge_sort.cuh"
#include "corank/cuda/segmented_sort.cuh"
#include "segsort_timing.cuh"

namespace {

using corank::cuda::block::no_value;
using offset = std::int64_t;
using u32 = std::uint32_t;

using segsort_timing::check;
using segsort_timing::dev;
using segsort_timing::positions;
using segsort_timing::upload;

int reps = 7;
bool failed = false;

/// Main's path: the tuned policy with the few-segments mode off.
template <class Key, class Value>
struct mains_path : corank::cuda::detail::stable_segmented_policy_for<Key, Value> {
  static constexpr std::size_t few_segments_max = 0;
};

/// The few-segments mode with the windows' tile on its long path (the mode's first form).
template <class Key, class Value>
struct few_windows_tile : corank::cuda::detail::stable_segmented_policy_for<Key, Value> {
  using tuned = corank::cuda::detail::stable_segmented_policy_for<Key, Value>;
  using few_long_shape = corank::cuda::tuning::block_shape<tuned::threads, tuned::items, 1>;
};

/// One shape: "main", "few_w", "few" (the tuned policy, public call) and "sort" (stable_sort of n
/// keys) in ms, then the ratios to sort.
template <class Value>
void run_shape(const std::string& name, const std::vector<u32>& host_keys,
               const std::vector<offset>& offs) {
  constexpr bool pairs = !std::is_same_v<Value, no_value>;
  const std::size_t n = host_keys.size(), segs = offs.size() - 1;
  dev<u32> in(n), keys(n);
  using V = std::conditional_t<pairs, Value, u32>;
  dev<V> vin(pairs ? n : 1), vals(pairs ? n : 1);
  dev<offset> d_off(offs.size());
  upload(in, host_keys, "keys");
  upload(d_off, offs, "offsets");
  if (pairs) upload(vin, positions<V>(n), "values");
  const auto restore = [&] {
    cudaMemcpyAsync(keys.p, in.p, n * sizeof(u32), cudaMemcpyDeviceToDevice);
    if (pairs) cudaMemcpyAsync(vals.p, vin.p, n * sizeof(V), cudaMemcpyDeviceToDevice);
  };
  // The reference: each segment sorted stably on the host (pairs: positions as values).
  std::vector<u32> want_keys = host_keys;
  std::vector<V> want_vals;
  if (pairs) {
    std::vector<V> order = positions<V>(n);
    for (std::size_t s = 0; s < segs; ++s)
      std::stable_sort(order.begin() + offs[s], order.begin() + offs[s + 1],
                       [&](V x, V y) { return host_keys[x] < host_keys[y]; });
    for (std::size_t i = 0; i < n; ++i) want_keys[i] = host_keys[order[i]];
    want_vals = order;
  } else {
    for (std::size_t s = 0; s < segs; ++s)
      std::sort(want_keys.begin() + offs[s], want_keys.begin() + offs[s + 1]);
  }
  const auto row = [&](bool whole, const std::function<cudaError_t()>& call, bool* ok) {
    const double ms = segsort_timing::time_ms(call, restore, reps);
    // stable_sort sorts all n keys: equal to the reference only where one segment covers them.
    if (!whole || segs == 1) {
      *ok = keys.host() == want_keys && (!pairs || vals.host() == want_vals);
      if (!*ok) failed = true;
    }
    return ms;
  };
  bool ok_main = true, ok_few_w = true, ok_few = true, ok_sort = true;
  const auto with_policy = [&](auto policy) -> cudaError_t {
    return corank::cuda::detail::stable_sort_segments_impl<u32, Value, offset, corank::less,
                                                           decltype(policy)>(
        {}, keys.p, pairs ? reinterpret_cast<Value*>(vals.p) : nullptr, n, d_off.p, segs,
        corank::less{}, cudaStream_t(0));
  };
  const double main_ms = row(
      false, [&] { return with_policy(mains_path<u32, Value>{}); }, &ok_main);
  const double few_w_ms = row(
      false, [&] { return with_policy(few_windows_tile<u32, Value>{}); }, &ok_few_w);
  const double few_ms = row(
      false,
      [&] {
        if constexpr (pairs)
          return corank::cuda::stable_sort_segments_by_key(keys.p, vals.p, n, d_off.p, segs);
        else
          return corank::cuda::stable_sort_segments(keys.p, n, d_off.p, segs);
      },
      &ok_few);
  const double sort_ms = row(
      true,
      [&] {
        if constexpr (pairs)
          return corank::cuda::stable_sort_by_key(keys.p, vals.p, n);
        else
          return corank::cuda::stable_sort(keys.p, n);
      },
      &ok_sort);
  std::printf(
      "%-32s segs %8zu  main %8.4f%s  few_w %8.4f%s  few %8.4f%s  sort %8.4f%s  /sort: main %5.2f "
      "few_w %5.2f few %5.2f\n",
      name.c_str(), segs, main_ms, ok_main ? "" : "!", few_w_ms, ok_few_w ? "" : "!", few_ms,
      ok_few ? "" : "!", sort_ms, ok_sort ? "" : "!", main_ms / sort_ms, few_w_ms / sort_ms,
      few_ms / sort_ms);
  std::fflush(stdout);
}

/// `count` segments of random lengths summing to n (cuts at random points).
std::vector<offset> random_cuts(std::mt19937_64& rng, std::size_t n, std::size_t count) {
  std::vector<offset> o(count + 1);
  o[0] = 0, o[count] = offset(n);
  for (std::size_t s = 1; s < count; ++s) o[s] = offset(rng() % (n + 1));
  std::sort(o.begin(), o.end());
  return o;
}

std::vector<offset> equal_cuts(std::size_t n, std::size_t length) {
  std::vector<offset> o;
  for (std::size_t at = 0; at < n; at += length) o.push_back(offset(at));
  o.push_back(offset(n));
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--quick")) quick = true;
  }
  using tuned = corank::cuda::detail::stable_segmented_policy_for<u32, no_value>;
  std::printf(
      "few_segments_max %zu, windows' tile %zu, few-segments tile %d, reps %d (medians ms)\n",
      std::size_t(tuned::few_segments_max), std::size_t(tuned::tile), tuned::few_long_shape::tile,
      reps);
  std::mt19937_64 rng(20);
  for (std::size_t n : {std::size_t(1) << 20, std::size_t(10000000)}) {
    std::vector<u32> k(n);
    for (auto& x : k) x = u32(rng());
    run_shape<no_value>("u32 " + std::to_string(n), k, {0, offset(n)});
    for (std::size_t count : {2, 8, 32, 64})
      run_shape<no_value>("u32 " + std::to_string(n) + " random cuts", k,
                          random_cuts(rng, n, count));
    for (std::size_t count : {8, 64})
      run_shape<no_value>("u32 " + std::to_string(n) + " equal", k, equal_cuts(n, n / count + 1));
    run_shape<u32>("u32/u32 " + std::to_string(n), k, {0, offset(n)});
  }
  if (!quick) {
    const std::size_t n = std::size_t(1) << 26;
    std::vector<u32> k(n);
    for (auto& x : k) x = u32(rng());
    for (std::size_t length : {32, 1024, 4096})
      run_shape<no_value>("u32 64M of " + std::to_string(length), k, equal_cuts(n, length));
    std::vector<offset> o(1, 0);
    while (std::size_t(o.back()) < n)
      o.push_back(std::min<offset>(offset(n), o.back() + offset(1 + rng() % 4096)));
    run_shape<no_value>("u32 64M U[1,4096]", k, o);
  }
  std::printf(failed ? "FAILED: a result differs (rows marked !)\n" : "all results checked\n");
  return failed ? 1 : 0;
}

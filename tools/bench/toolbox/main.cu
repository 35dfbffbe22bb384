// The co-rank toolbox's benchmark (issue 22): each GPU primitive at --n u32 keys per side against
// its Thrust/CUB equivalent (the newest CCCL, peers.cu) and against the device copy of the bytes it
// must move, measured in the same run; then the CPU primitives against their sequential std::
// counterparts. Device events, one warm-up, the median of --reps runs. Every result is checked
// against a reference before it is timed. Prints one table.
//   usage: corank_toolbox_bench [--n N] [--cpu-n N] [--reps R] [--runs K]  (--cpu-n 0: GPU only)
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "corank/cpu/load_balance.hpp"
#include "corank/cpu/multiway_merge.hpp"
#include "corank/cpu/set_operations.hpp"
#include "corank/cpu/sorted_search.hpp"
#include "corank/cuda/load_balance.cuh"
#include "corank/cuda/multiway_merge.cuh"
#include "corank/cuda/set_operations.cuh"
#include "corank/cuda/sorted_search.cuh"
#include "peers.hpp"

namespace {

namespace peers = corank::bench::toolbox_peers;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
void require(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "WRONG RESULT: %s\n", what.c_str());
    std::exit(2);
  }
}

int reps = 5;

/// Median ms of `reps` runs of f on the device (events on stream 0), after one warm-up.
double time_device(const std::function<void()>& f) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  f();
  check(cudaDeviceSynchronize(), "warm-up");
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(start);
    f();
    cudaEventRecord(stop);
    check(cudaEventSynchronize(stop), "timed run");
    float t = 0;
    cudaEventElapsedTime(&t, start, stop);
    ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

/// Median ms of `reps` runs of f on the host, after one warm-up.
double time_host(const std::function<void()>& f) {
  f();
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

/// Sorted u32 keys: random increments averaging `step` (duplicates where an increment is 0).
std::vector<std::uint32_t> sorted_u32(std::size_t n, std::uint32_t step, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> inc(0, 2 * step);
  std::vector<std::uint32_t> v(n);
  std::uint32_t x = 0;
  for (auto& k : v) k = x += inc(rng);
  return v;
}

template <class T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  check(cudaMalloc(&d, h.size() * sizeof(T) + 16), "malloc");
  check(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "copy");
  return d;
}
template <class T>
T* device_alloc(std::size_t n) {
  T* d = nullptr;
  check(cudaMalloc(&d, n * sizeof(T) + 16), "malloc");
  return d;
}
template <class T>
std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> h(n);
  check(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), "copy back");
  return h;
}

struct row {
  std::string primitive, peer;
  double ours_ms, peer_ms, bytes;
};
std::vector<row> rows;
double copy_gbps = 0;  // device copy: bytes read + written per second

void print_table(const char* title, bool gpu) {
  std::printf("\n%s\n", title);
  std::printf("%-34s %10s %-36s %10s %8s %9s %7s\n", "primitive", "ours ms", "peer", "peer ms",
              "speedup", "ours GB/s", gpu ? "% copy" : "");
  for (const row& r : rows) {
    const double gbps = r.bytes / (r.ours_ms * 1e-3) / 1e9;
    std::printf("%-34s %10.3f %-36s %10.3f %7.2fx %9.1f", r.primitive.c_str(), r.ours_ms,
                r.peer.c_str(), r.peer_ms, r.peer_ms > 0 ? r.peer_ms / r.ours_ms : 0.0, gbps);
    if (gpu) std::printf(" %6.1f%%", 100.0 * gbps / copy_gbps);
    std::printf("\n");
  }
  rows.clear();
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t n = 100000000, cpu_n = 20000000, runs = 64;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::size_t v = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--n")
      n = v;
    else if (flag == "--cpu-n")
      cpu_n = v;
    else if (flag == "--reps")
      reps = int(v);
    else if (flag == "--runs")
      runs = v;
  }
  using corank::set_op;
  namespace cc = corank::cuda;
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device");
  std::printf("device: %s, %d SMs; CUDA runtime %d; peers: CUB %d; n = %zu u32 per side\n",
              prop.name, prop.multiProcessorCount, CUDART_VERSION, peers::cub_version(), n);

  // ---- GPU ---------------------------------------------------------------------------------
  const auto a = sorted_u32(n, 20, 1), b = sorted_u32(n, 20, 2);
  std::uint32_t *da = to_device(a), *db = to_device(b);
  std::uint32_t* dout = device_alloc<std::uint32_t>(2 * n);
  std::uint32_t* dref = device_alloc<std::uint32_t>(2 * n);
  const double copy_bytes = 2.0 * n * sizeof(std::uint32_t);
  const double copy_ms = time_device([&] {
    check(cudaMemcpyAsync(dout, dref, std::size_t(copy_bytes), cudaMemcpyDeviceToDevice), "copy");
  });
  copy_gbps = 2 * copy_bytes / (copy_ms * 1e-3) / 1e9;
  std::printf("device copy of %.0f MB: %.3f ms, %.1f GB/s (read + write)\n", copy_bytes / 1e6,
              copy_ms, copy_gbps);

  // Sorted search: needles a in haystack b, u32 answers.
  {
    check(cc::sorted_lower_bound(db, n, da, n, dout), "sorted_lower_bound");
    peers::thrust_lower_bound(db, n, da, n, dref);
    require(to_host(dout, n) == to_host(dref, n), "sorted_lower_bound vs thrust");
    const double ours = time_device([&] { cc::sorted_lower_bound(db, n, da, n, dout); });
    const double theirs = time_device([&] { peers::thrust_lower_bound(db, n, da, n, dref); });
    rows.push_back(
        {"sorted_lower_bound (sorted needles)", "thrust::lower_bound", ours, theirs, 3.0 * n * 4});
    const double unsorted = time_device([&] { cc::lower_bound(db, n, da, n, dout); });
    rows.push_back(
        {"lower_bound (binary search each)", "thrust::lower_bound", unsorted, theirs, 3.0 * n * 4});
  }
  // Set operations.
  {
    std::size_t* dcount = device_alloc<std::size_t>(1);
    const char* names[] = {"set_union", "set_intersection", "set_difference",
                           "set_symmetric_difference"};
    const set_op ops[] = {set_op::unite, set_op::intersect, set_op::difference,
                          set_op::symmetric_difference};
    for (int o = 0; o < 4; ++o) {
      std::size_t count = 0;
      check(cc::set_operation(ops[o], da, n, db, n, dout, cc::output_count::to_host(&count)),
            names[o]);
      const std::size_t want = peers::thrust_set_operation(o, da, n, db, n, dref);
      require(count == want, std::string(names[o]) + " count vs thrust");
      require(to_host(dout, count) == to_host(dref, count), std::string(names[o]) + " vs thrust");
      const double ours = time_device([&] {
        cc::set_operation(ops[o], da, n, db, n, dout, cc::output_count::on_device(dcount));
      });
      const double theirs =
          time_device([&] { peers::thrust_set_operation(o, da, n, db, n, dref); });
      rows.push_back({std::string(names[o]) + " (count on device)",
                      "thrust::" + std::string(names[o]), ours, theirs,
                      (2.0 * n + double(count)) * 4});
    }
    cudaFree(dcount);
  }
  // k-way merge of `runs` runs of n keys in all, against a merge sort of the concatenation.
  {
    std::vector<std::uint32_t> keys;
    std::vector<std::uint64_t> offsets{0};
    for (std::size_t r = 0; r < runs; ++r) {
      const std::size_t len = n / runs + (r < n % runs);
      const auto run = sorted_u32(len, std::uint32_t(runs * 20), 100 + r);
      keys.insert(keys.end(), run.begin(), run.end());
      offsets.push_back(offsets.back() + len);
    }
    std::uint32_t* dkeys = to_device(keys);
    std::uint64_t* doffsets = to_device(offsets);
    check(cc::multiway_merge(dkeys, doffsets, runs, n, dout), "multiway_merge");
    peers::cub_merge_sort_copy(dkeys, n, dref);
    require(to_host(dout, n) == to_host(dref, n), "multiway_merge vs merge sort");
    const double ours = time_device([&] { cc::multiway_merge(dkeys, doffsets, runs, n, dout); });
    const double theirs = time_device([&] { peers::cub_merge_sort_copy(dkeys, n, dref); });
    rows.push_back({"multiway_merge " + std::to_string(runs) + " runs (n total)",
                    "cub::DeviceMergeSort::SortKeysCopy", ours, theirs, 2.0 * n * 4});
    cudaFree(dkeys);
    cudaFree(doffsets);
  }
  // Load-balancing search: n items in n / 100 segments of random lengths (u32 segment ids).
  {
    const std::size_t segments = n / 100;
    std::vector<std::uint32_t> offsets(segments + 1, 0);
    std::mt19937_64 rng(7);
    std::vector<std::uint32_t> cuts(segments - 1);
    std::uniform_int_distribution<std::uint32_t> pick(0, std::uint32_t(n));
    for (auto& c : cuts) c = pick(rng);
    std::sort(cuts.begin(), cuts.end());
    for (std::size_t s = 1; s < segments; ++s) offsets[s] = cuts[s - 1];
    offsets[segments] = std::uint32_t(n);
    std::uint32_t* doff = to_device(offsets);
    check(cc::load_balancing_search(doff, segments, n, dout), "load_balancing_search");
    std::vector<std::uint32_t> want(n);
    corank::cpu::load_balancing_search(offsets.data(), segments, n, want.data());
    require(to_host(dout, n) == want, "load_balancing_search vs cpu");
    const double ours = time_device([&] { cc::load_balancing_search(doff, segments, n, dout); });
    rows.push_back(
        {"load_balancing_search (n/100 segs)", "-", ours, 0, (double(segments) + double(n)) * 4});
    cudaFree(doff);
  }
  print_table("GPU (n u32 keys per side; bytes: inputs read once + outputs written once)", true);
  cudaFree(da), cudaFree(db), cudaFree(dout), cudaFree(dref);

  // ---- CPU ---------------------------------------------------------------------------------
  if (cpu_n) {
    const auto ca = sorted_u32(cpu_n, 20, 11), cb = sorted_u32(cpu_n, 20, 12);
    std::vector<std::uint32_t> out(2 * cpu_n), ref(2 * cpu_n);
    {
      std::vector<std::uint32_t> idx(cpu_n), want(cpu_n);
      const double ours = time_host([&] {
        corank::cpu::sorted_lower_bound(cb.data(), cb.data() + cpu_n, ca.data(), ca.data() + cpu_n,
                                        idx.data());
      });
      const double seq = time_host([&] {
        // The sequential std:: way for sorted needles: one std::lower_bound each.
        for (std::size_t i = 0; i < cpu_n; ++i)
          want[i] = std::uint32_t(std::lower_bound(cb.begin(), cb.end(), ca[i]) - cb.begin());
      });
      require(idx == want, "cpu sorted_lower_bound");
      rows.push_back(
          {"cpu sorted_lower_bound", "std::lower_bound each", ours, seq, 3.0 * cpu_n * 4});
    }
    const char* names[] = {"set_union", "set_intersection", "set_difference",
                           "set_symmetric_difference"};
    const set_op ops[] = {set_op::unite, set_op::intersect, set_op::difference,
                          set_op::symmetric_difference};
    for (int o = 0; o < 4; ++o) {
      std::size_t count = 0, want = 0;
      const double ours = time_host([&] {
        count = std::size_t(corank::cpu::set_operation(ops[o], ca.data(), ca.data() + cpu_n,
                                                       cb.data(), cb.data() + cpu_n, out.data()) -
                            out.data());
      });
      const double seq = time_host([&] {
        auto e = ref.begin();
        switch (o) {
          case 0:
            e = std::set_union(ca.begin(), ca.end(), cb.begin(), cb.end(), ref.begin());
            break;
          case 1:
            e = std::set_intersection(ca.begin(), ca.end(), cb.begin(), cb.end(), ref.begin());
            break;
          case 2:
            e = std::set_difference(ca.begin(), ca.end(), cb.begin(), cb.end(), ref.begin());
            break;
          case 3:
            e = std::set_symmetric_difference(ca.begin(), ca.end(), cb.begin(), cb.end(),
                                              ref.begin());
            break;
        }
        want = std::size_t(e - ref.begin());
      });
      require(count == want && std::equal(out.begin(), out.begin() + count, ref.begin()),
              std::string("cpu ") + names[o]);
      rows.push_back({std::string("cpu ") + names[o], std::string("std::") + names[o], ours, seq,
                      (2.0 * cpu_n + double(count)) * 4});
    }
    {
      std::vector<std::uint32_t> keys;
      std::vector<std::uint64_t> offsets{0};
      for (std::size_t r = 0; r < runs; ++r) {
        const std::size_t len = 2 * cpu_n / runs;
        const auto run = sorted_u32(len, std::uint32_t(runs * 20), 300 + r);
        keys.insert(keys.end(), run.begin(), run.end());
        offsets.push_back(offsets.back() + len);
      }
      std::vector<std::uint32_t> merged(keys.size()), want(keys.size());
      const double ours = time_host(
          [&] { corank::cpu::multiway_merge(keys.data(), offsets.data(), runs, merged.data()); });
      const double seq = time_host([&] {
        want = keys;
        std::stable_sort(want.begin(), want.end());
      });
      require(merged == want, "cpu multiway_merge");
      rows.push_back({"cpu multiway_merge " + std::to_string(runs) + " runs",
                      "copy + std::stable_sort", ours, seq, 2.0 * keys.size() * 4});
    }
    print_table(("CPU (" + std::to_string(cpu_n) + " u32 per side, all cores vs one)").c_str(),
                false);
  }
  return 0;
}

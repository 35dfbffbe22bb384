// Launch setup once per device (corank/cuda/detail/launch.cuh): a kernel's shared-memory opt-in
// and occupancy are learned on each device a process uses, and a failure is not remembered: the
// next call tries again. The cache's rules run everywhere; the GPU cases skip without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/detail/launch.cuh"
#include "corank/cuda/merge.cuh"
#include "corank/cuda/merge_sort.cuh"
#include "corank/cuda/segmented_sort.cuh"
#include "support/cuda_test.cuh"
#include "support/seeded_test.hpp"

namespace {

using corank::cuda::detail::launch_cache;
using corank::test::device_buffer;

// Stand-ins for kernels: the cache keys on their addresses only.
const int kernel_a = 0, kernel_b = 0;

TEST(LaunchCache, RemembersAValueOnlyWhenItWasObtained) {
  launch_cache cache;
  const launch_cache::key k{0, &kernel_a, launch_cache::blocks_per_sm, 256, 0};
  int computed = 0;
  long long value = 0;
  const auto refuse = [&](long long*) { return ++computed, cudaErrorInvalidValue; };
  const auto learn = [&](long long* v) { return ++computed, *v = 7, cudaSuccess; };
  EXPECT_EQ(cache.get(k, &value, refuse), cudaErrorInvalidValue);
  EXPECT_EQ(cache.get(k, &value, learn), cudaSuccess) << "a failure was remembered";
  EXPECT_EQ(value, 7);
  EXPECT_EQ(cache.get(k, &value, refuse), cudaSuccess) << "a success was not remembered";
  EXPECT_EQ(value, 7);
  EXPECT_EQ(computed, 2);
}

TEST(LaunchCache, KeepsDevicesKernelsAndShapesApart) {
  launch_cache cache;
  long long next = 0, value = 0;
  const auto learn = [&](long long* v) { return *v = ++next, cudaSuccess; };
  const launch_cache::key keys[] = {
      {0, &kernel_a, launch_cache::blocks_per_sm, 256, 0},
      {1, &kernel_a, launch_cache::blocks_per_sm, 256, 0},
      {0, &kernel_b, launch_cache::blocks_per_sm, 256, 0},
      {0, &kernel_a, launch_cache::blocks_per_sm, 128, 0},
      {0, &kernel_a, launch_cache::blocks_per_sm, 256, 1024},
      {0, &kernel_a, launch_cache::smem_allowed, 256, 0},
  };
  for (const auto& k : keys) ASSERT_EQ(cache.get(k, &value, learn), cudaSuccess);
  for (long long i = 0; i < 6; ++i) {
    ASSERT_EQ(cache.get(keys[i], &value, learn), cudaSuccess);
    EXPECT_EQ(value, i + 1) << "key " << i << " took another key's value";
  }
}

TEST(LaunchCache, ServesManyThreadsAtOnce) {
  launch_cache cache;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        const int device = (i + t) % 4;
        long long value = -1;
        const cudaError_t status =
            cache.get({device, &kernel_a, launch_cache::blocks_per_sm, i % 16, 0}, &value,
                      [&](long long* v) { return *v = device * 100 + i % 16, cudaSuccess; });
        if (status != cudaSuccess || value != device * 100 + i % 16) ++wrong;
      }
    });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

// A kernel that needs its shared memory: every thread writes a slot and reads its neighbour's.
__global__ void rotate_through_smem(int* out, int items_per_thread) {
  extern __shared__ int slots[];
  for (int j = 0; j < items_per_thread; ++j)
    slots[j * blockDim.x + threadIdx.x] = j * int(blockDim.x) + int(threadIdx.x);
  __syncthreads();
  const int next = (threadIdx.x + 1) % blockDim.x;
  out[threadIdx.x] = slots[(items_per_thread - 1) * blockDim.x + next];
}

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  cudaGetLastError();
  return count;
}

/// Runs body(device) on every visible device, the current device restored after.
template <class Body>
void on_every_device(Body body) {
  int original = 0;
  ASSERT_EQ(cudaGetDevice(&original), cudaSuccess);
  for (int device = 0; device < device_count(); ++device) {
    SCOPED_TRACE("device " + std::to_string(device));
    ASSERT_EQ(cudaSetDevice(device), cudaSuccess);
    body(device);
  }
  ASSERT_EQ(cudaSetDevice(original), cudaSuccess);
}

void expect_rotation(int threads, int items_per_thread) {
  const std::size_t smem = std::size_t(threads) * items_per_thread * sizeof(int);
  device_buffer<int> out(threads);
  out.poison();
  CORANK_ASSERT_CUDA(corank::cuda::detail::allow_smem(rotate_through_smem, smem));
  int blocks = 0;
  CORANK_ASSERT_CUDA(
      corank::cuda::detail::blocks_per_multiprocessor(rotate_through_smem, threads, smem, &blocks));
  EXPECT_GE(blocks, 1);
  rotate_through_smem<<<1, threads, smem>>>(out.data(), items_per_thread);
  CORANK_ASSERT_CUDA(cudaGetLastError());
  CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
  const auto got = out.to_host();
  for (int t = 0; t < threads; ++t)
    ASSERT_EQ(got[t], (items_per_thread - 1) * threads + (t + 1) % threads) << "thread " << t;
}

TEST(LaunchSetup, AllowsLargeSharedMemoryOnEveryDevice) {
  CORANK_REQUIRE_GPU();
  // 64 KiB: above the 48 KiB that needs no opt-in, below every sm_70+ device's opt-in limit.
  on_every_device([](int) { expect_rotation(256, 64); });
}

TEST(LaunchSetup, TriesAgainAfterARefusal) {
  CORANK_REQUIRE_GPU();
  on_every_device([](int) {
    std::size_t optin = 0;
    CORANK_ASSERT_CUDA(corank::cuda::detail::smem_optin_limit(&optin));
    ASSERT_GT(optin, corank::cuda::detail::smem_without_optin_bytes);
    // More than the device allows is refused, and the refusal is not remembered.
    EXPECT_NE(corank::cuda::detail::allow_smem(rotate_through_smem, optin + 4096), cudaSuccess);
    cudaGetLastError();
    expect_rotation(512, 40);
  });
}

template <class T>
std::vector<T> random_keys(std::size_t n, std::uint64_t seed, T most) {
  std::mt19937_64 rng(seed);
  std::vector<T> keys(n);
  for (auto& k : keys) k = T(rng() % std::uint64_t(most));
  return keys;
}

class LaunchSetupEntryPoints : public corank::test::seeded_test {};

// Each entry point on every device, each time after a call refused for its arguments: the
// kernels' opt-ins and occupancies hold on the device in use, and no refusal sticks.
TEST_F(LaunchSetupEntryPoints, RunOnEveryDeviceAfterARefusal) {
  CORANK_REQUIRE_GPU();
  on_every_device([&](int) {
    const std::uint64_t s = rng();
    for (const std::size_t n : {std::size_t(1000), std::size_t(3) << 20}) {
      SCOPED_TRACE("n = " + std::to_string(n));
      auto a = random_keys<std::uint64_t>(n, s, 1000),
           b = random_keys<std::uint64_t>(n / 2, s + 1, 1000);
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      std::vector<std::uint64_t> merged(a.size() + b.size());
      std::merge(a.begin(), a.end(), b.begin(), b.end(), merged.begin());
      device_buffer<std::uint64_t> da(a), db(b), out(merged.size());
      out.poison();
      EXPECT_EQ(corank::cuda::merge(da.data(), a.size(), db.data(), b.size(), da.data()),
                cudaErrorInvalidValue)
          << "an output overlapping an input";
      CORANK_ASSERT_CUDA(corank::cuda::merge(da.data(), a.size(), db.data(), b.size(), out.data()));
      CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
      EXPECT_EQ(out.to_host(), merged) << "merge";

      auto keys = random_keys<std::uint32_t>(n, s + 2, 1u << 30);
      auto sorted = keys;
      std::sort(sorted.begin(), sorted.end());
      device_buffer<std::uint32_t> dk(keys);
      EXPECT_NE(corank::cuda::stable_sort(static_cast<std::uint32_t*>(nullptr), n), cudaSuccess);
      CORANK_ASSERT_CUDA(corank::cuda::stable_sort(dk.data(), n));
      CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
      EXPECT_EQ(dk.to_host(), sorted) << "stable_sort";

      device_buffer<std::uint32_t> dbit(keys);
      EXPECT_NE(corank::cuda::bitonic_sort(static_cast<std::uint32_t*>(nullptr), n), cudaSuccess);
      CORANK_ASSERT_CUDA(corank::cuda::bitonic_sort(dbit.data(), n));
      CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
      EXPECT_EQ(dbit.to_host(), sorted) << "bitonic_sort";

      // Segments of every size class: 0..n in steps growing geometrically.
      std::vector<std::int64_t> offsets{0};
      for (std::size_t len = 1; offsets.back() + std::int64_t(len) <= std::int64_t(n);
           len = len * 3 + 1)
        offsets.push_back(offsets.back() + std::int64_t(len));
      offsets.push_back(std::int64_t(n));
      auto by_segment = keys;
      for (std::size_t i = 0; i + 1 < offsets.size(); ++i)
        std::sort(by_segment.begin() + offsets[i], by_segment.begin() + offsets[i + 1]);
      device_buffer<std::int64_t> doff(offsets);
      for (const bool stable : {false, true}) {
        device_buffer<std::uint32_t> dseg(keys);
        const auto sort = [&](const std::int64_t* o) {
          return stable ? corank::cuda::stable_sort_segments(dseg.data(), n, o, offsets.size() - 1)
                        : corank::cuda::sort_segments(dseg.data(), n, o, offsets.size() - 1);
        };
        EXPECT_EQ(sort(nullptr), cudaErrorInvalidValue) << "no offsets";
        CORANK_ASSERT_CUDA(sort(doff.data()));
        CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
        EXPECT_EQ(dseg.to_host(), by_segment)
            << (stable ? "stable_sort_segments" : "sort_segments");
      }
    }
  });
}

}  // namespace

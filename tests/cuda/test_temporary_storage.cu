// The GPU entry points' temporary storage (memory.cuh): the library's cache, a memory resource
// and the caller's buffer give the same results; calls from several host threads on several
// streams share the cache; a resource sees every allocation given back on the call's stream; a
// buffer below the *_temp_bytes query is refused, sizes that overflow too; the cache gives its
// memory back on request; every form can be captured into a CUDA graph. The segmented sorts'
// and the joins' forms too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cuda/stream_ref>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "corank/cpu/join.hpp"
#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/join.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/cuda/merge.cuh"
#include "corank/cuda/merge_sort.cuh"
#include "corank/cuda/segmented_scan.cuh"
#include "corank/cuda/segmented_sort.cuh"
#include "corank/study/bitonic_sort_host.cuh"
#include "support/cuda_test.cuh"
#include "support/seeded_test.hpp"
#include "support/segmented_scan_reference.hpp"

namespace {

using corank::test::device_buffer;
using u32 = std::uint32_t;

/// What a counting resource saw: one allocation or deallocation.
struct resource_event {
  void* memory;
  std::size_t bytes, alignment;
  cudaStream_t stream;
};

/// Records allocations and deallocations (stream-ordered, through cudaMallocAsync).
struct resource_log {
  std::mutex lock;
  std::vector<resource_event> allocated, deallocated;

  void* allocate(cudaStream_t stream, std::size_t bytes, std::size_t alignment) {
    void* memory = nullptr;
    if (cudaMallocAsync(&memory, bytes, stream) != cudaSuccess) return nullptr;
    const std::lock_guard<std::mutex> guard(lock);
    allocated.push_back({memory, bytes, alignment, stream});
    return memory;
  }
  void deallocate(cudaStream_t stream, void* memory, std::size_t bytes, std::size_t alignment) {
    cudaFreeAsync(memory, stream);
    const std::lock_guard<std::mutex> guard(lock);
    deallocated.push_back({memory, bytes, alignment, stream});
  }
  /// Every allocation was given back once, with its size and alignment, on `stream`.
  void expect_balanced(cudaStream_t stream) {
    ASSERT_EQ(allocated.size(), deallocated.size());
    for (std::size_t i = 0; i < allocated.size(); ++i) {
      const resource_event &a = allocated[i], &d = deallocated[i];
      EXPECT_EQ(a.memory, d.memory);
      EXPECT_EQ(a.bytes, d.bytes);
      EXPECT_EQ(a.alignment, d.alignment);
      EXPECT_EQ(a.stream, stream);
      EXPECT_EQ(d.stream, stream);
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.memory) % a.alignment, 0u);
    }
  }
};

/// A resource in the shape of CCCL >= 3.1's cuda::mr::resource (and RMM >= 25.10).
struct counting_resource {
  resource_log log;
  void* allocate(cuda::stream_ref stream, std::size_t bytes, std::size_t alignment) {
    return log.allocate(stream.get(), bytes, alignment);
  }
  void deallocate(cuda::stream_ref stream, void* memory, std::size_t bytes, std::size_t alignment) {
    log.deallocate(stream.get(), memory, bytes, alignment);
  }
};

/// A resource in the shape of CCCL 3.0's cuda::mr::async_resource (and earlier RMM).
struct counting_async_resource {
  resource_log log;
  void* allocate_async(std::size_t bytes, std::size_t alignment, cuda::stream_ref stream) {
    return log.allocate(stream.get(), bytes, alignment);
  }
  void deallocate_async(void* memory, std::size_t bytes, std::size_t alignment,
                        cuda::stream_ref stream) {
    log.deallocate(stream.get(), memory, bytes, alignment);
  }
};

/// A resource that cannot allocate.
struct exhausted_resource {
  void* allocate(cuda::stream_ref, std::size_t, std::size_t) { throw std::bad_alloc(); }
  void deallocate(cuda::stream_ref, void*, std::size_t, std::size_t) {}
};

/// Where a call under test takes its temporary storage.
enum class storage { cache, resource, buffer };

std::vector<u32> random_u32(std::mt19937_64& rng, std::size_t n, u32 range) {
  std::uniform_int_distribution<u32> pick(0, range - 1);
  std::vector<u32> v(n);
  for (u32& x : v) x = pick(rng);
  return v;
}

/// A caller's buffer of `bytes` bytes followed by a guard that the call must leave alone (all
/// poisoned, so parts that a call reads before writing show).
struct guarded_temp {
  static constexpr std::size_t guard_bytes = 512;
  std::size_t bytes;
  device_buffer<unsigned char> memory;
  explicit guarded_temp(std::size_t bytes) : bytes(bytes), memory(bytes + guard_bytes) {
    memory.poison();
  }
  void* data() { return memory.data(); }
  void expect_guard_intact() {
    const auto all = memory.to_host();
    for (std::size_t i = bytes; i < all.size(); ++i)
      ASSERT_EQ(all[i], 0xA5) << "byte " << i - bytes << " past the queried size written";
  }
};

/// One stream for a test, destroyed at its end. A blocking stream: its work waits for the legacy
/// default stream's, where device_buffer's copies from pageable memory may still be landing when
/// cudaMemcpy returns (a non-blocking stream raced them: sorts read keys not yet copied).
struct test_stream {
  cudaStream_t stream = nullptr;
  test_stream() { cudaStreamCreateWithFlags(&stream, cudaStreamDefault); }
  ~test_stream() { cudaStreamDestroy(stream); }
  test_stream(const test_stream&) = delete;
  test_stream& operator=(const test_stream&) = delete;
};

// --- stable_sort, stable_sort_by_key ---------------------------------------------------------

/// stable_sort_by_key of (keys, position) through `how`, checked against std::stable_sort.
void check_stable_sort(std::mt19937_64& rng, std::size_t n, storage how, cudaStream_t stream,
                       counting_resource* resource = nullptr) {
  SCOPED_TRACE("n=" + std::to_string(n) + " storage=" + std::to_string(int(how)));
  const auto keys = random_u32(rng, n, n < 100 ? 4 : u32(n / 3 + 1));
  std::vector<u32> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](u32 x, u32 y) { return keys[x] < keys[y]; });
  device_buffer<u32> d_keys(keys), d_keys_only(keys), d_vals(n);
  std::vector<u32> iota(n);
  std::iota(iota.begin(), iota.end(), 0u);
  if (n) cudaMemcpy(d_vals.data(), iota.data(), n * sizeof(u32), cudaMemcpyHostToDevice);
  cudaError_t by_key = cudaSuccess, keys_only = cudaSuccess;
  switch (how) {
    case storage::cache:
      by_key =
          corank::cuda::stable_sort_by_key(d_keys.data(), d_vals.data(), n, corank::less{}, stream);
      keys_only = corank::cuda::stable_sort(d_keys_only.data(), n, corank::less{}, stream);
      break;
    case storage::resource:
      by_key = corank::cuda::stable_sort_by_key(*resource, d_keys.data(), d_vals.data(), n,
                                                corank::less{}, stream);
      keys_only =
          corank::cuda::stable_sort(*resource, d_keys_only.data(), n, corank::less{}, stream);
      break;
    case storage::buffer: {
      const std::size_t pair_bytes = corank::cuda::stable_sort_temp_bytes<u32, u32>(n);
      const std::size_t key_bytes = corank::cuda::stable_sort_temp_bytes<u32>(n);
      device_buffer<unsigned char> temp(std::max(pair_bytes, key_bytes));
      temp.poison();
      by_key = corank::cuda::stable_sort_by_key(d_keys.data(), d_vals.data(), n, temp.data(),
                                                pair_bytes, corank::less{}, stream);
      if (by_key == cudaSuccess) by_key = cudaStreamSynchronize(stream);  // before temp is reused
      keys_only = corank::cuda::stable_sort(d_keys_only.data(), n, temp.data(), key_bytes,
                                            corank::less{}, stream);
      if (keys_only == cudaSuccess) keys_only = cudaStreamSynchronize(stream);
      break;
    }
  }
  ASSERT_EQ(by_key, cudaSuccess) << cudaGetErrorString(by_key);
  ASSERT_EQ(keys_only, cudaSuccess) << cudaGetErrorString(keys_only);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  const auto got_keys = d_keys.to_host(), got_vals = d_vals.to_host(),
             got_keys_only = d_keys_only.to_host();
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(got_vals[i], order[i]) << "at " << i;
    ASSERT_EQ(got_keys[i], keys[order[i]]) << "at " << i;
    ASSERT_EQ(got_keys_only[i], keys[order[i]]) << "at " << i;
  }
}

class TemporaryStorage : public corank::test::seeded_test {};

// Sizes from nothing to four-way passes (several million), each through the three forms.
TEST_F(TemporaryStorage, StableSortGivesTheSameResultFromEverySource) {
  CORANK_REQUIRE_GPU();
  test_stream s;
  counting_resource resource;
  for (std::size_t n : {0, 1, 2, 1000, 100003, 3000017})
    for (storage how : {storage::cache, storage::resource, storage::buffer})
      check_stable_sort(rng, n, how, s.stream, &resource);
  resource.log.expect_balanced(s.stream);
  EXPECT_FALSE(resource.log.allocated.empty());
}

// Both shapes of stream-ordered resource plug in; one that cannot allocate gives
// cudaErrorMemoryAllocation (no exception leaves the library).
TEST_F(TemporaryStorage, AcceptsBothShapesOfMemoryResource) {
  CORANK_REQUIRE_GPU();
  test_stream s;
  const std::size_t n = 50001;
  device_buffer<u32> keys(random_u32(rng, n, 1000));
  counting_async_resource async_shape;
  ASSERT_EQ(corank::cuda::stable_sort(async_shape, keys.data(), n, corank::less{}, s.stream),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s.stream), cudaSuccess);
  async_shape.log.expect_balanced(s.stream);
  EXPECT_EQ(async_shape.log.allocated.size(), 1u);
  const auto sorted = keys.to_host();
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
  exhausted_resource none;
  EXPECT_EQ(corank::cuda::stable_sort(none, keys.data(), n, corank::less{}, s.stream),
            cudaErrorMemoryAllocation);
}

TEST_F(TemporaryStorage, RefusesABufferBelowTheQuery) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = 100000;
  device_buffer<u32> keys(random_u32(rng, n, 1000)), vals(n);
  const std::size_t need = corank::cuda::stable_sort_temp_bytes<u32, u32>(n);
  device_buffer<unsigned char> temp(need);
  EXPECT_EQ(corank::cuda::stable_sort_by_key(keys.data(), vals.data(), n, temp.data(), need - 1),
            cudaErrorInvalidValue);
  void* none = nullptr;
  EXPECT_EQ(corank::cuda::stable_sort(keys.data(), n, none, need), cudaErrorInvalidValue);
  // Fewer than two keys need no storage: a null buffer of 0 bytes is enough.
  EXPECT_EQ(corank::cuda::stable_sort_temp_bytes<u32>(1), 0u);
  EXPECT_EQ(corank::cuda::stable_sort(keys.data(), 1, none, 0), cudaSuccess);
}

// No GPU needed: the sizes are refused before anything reaches the device.
TEST(TemporaryStorageSizes, OverflowingSizesAreRefused) {
  constexpr std::size_t huge = std::numeric_limits<std::size_t>::max() / 2;
  EXPECT_EQ(corank::cuda::stable_sort_temp_bytes<std::uint64_t>(huge),
            std::numeric_limits<std::size_t>::max());
  auto* keys = reinterpret_cast<std::uint64_t*>(std::uintptr_t(256));  // never dereferenced
  EXPECT_EQ(corank::cuda::stable_sort(keys, huge), cudaErrorInvalidValue);
  counting_resource resource;
  EXPECT_EQ(corank::cuda::stable_sort(resource, keys, huge), cudaErrorInvalidValue);
  EXPECT_TRUE(resource.log.allocated.empty());
}

TEST(TemporaryStorageSizes, LayoutAlignsAndDetectsOverflow) {
  corank::cuda::detail::temporary_layout layout;
  const auto a = layout.add<char>(1), b = layout.add<double>(3), empty = layout.add<int>(0),
             c = layout.add<int>(1);
  EXPECT_EQ(a.offset, 0u);
  EXPECT_EQ(b.offset, 256u);
  EXPECT_EQ(b.bytes, 24u);
  EXPECT_EQ(empty.bytes, 0u);
  EXPECT_EQ(c.offset, 512u);
  EXPECT_EQ(layout.bytes(), 768u);
  EXPECT_EQ(empty.in<int>(reinterpret_cast<void*>(std::uintptr_t(4096))), nullptr);
  layout.add<std::uint64_t>(std::numeric_limits<std::size_t>::max() / 8 + 1);
  EXPECT_EQ(layout.bytes(), std::numeric_limits<std::size_t>::max());
  corank::cuda::detail::temporary_layout near_end;
  near_end.add<char>(std::numeric_limits<std::size_t>::max() - 100);
  EXPECT_EQ(near_end.bytes(), std::numeric_limits<std::size_t>::max());
}

// --- merge, merge_by_key -------------------------------------------------------------------

TEST_F(TemporaryStorage, MergeGivesTheSameResultFromEverySource) {
  CORANK_REQUIRE_GPU();
  test_stream s;
  counting_resource resource;
  EXPECT_EQ(corank::cuda::merge_temp_bytes<u32>(1000, 1000), 0u);
  EXPECT_EQ((corank::cuda::merge_temp_bytes<u32, u32>(1000, 1000)), 0u);
  for (std::size_t m : {0, 1, 5000, 2000003}) {
    const std::size_t n = m / 2 + 3;
    auto a = random_u32(rng, m, 100000), b = random_u32(rng, n, 100000);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::vector<u32> want(m + n);
    std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
    device_buffer<u32> da(a), db(b), va(a), vb(b);
    for (storage how : {storage::cache, storage::resource, storage::buffer}) {
      SCOPED_TRACE("m=" + std::to_string(m) + " storage=" + std::to_string(int(how)));
      device_buffer<u32> out(m + n), vout(m + n);
      out.poison();
      vout.poison();
      cudaError_t keys = cudaSuccess, pairs = cudaSuccess;
      const corank::less less;
      if (how == storage::cache) {
        keys = corank::cuda::merge(da.data(), m, db.data(), n, out.data(), less, s.stream);
        pairs = corank::cuda::merge_by_key(da.data(), va.data(), m, db.data(), vb.data(), n,
                                           out.data(), vout.data(), less, s.stream);
      } else if (how == storage::resource) {
        keys =
            corank::cuda::merge(resource, da.data(), m, db.data(), n, out.data(), less, s.stream);
        pairs = corank::cuda::merge_by_key(resource, da.data(), va.data(), m, db.data(), vb.data(),
                                           n, out.data(), vout.data(), less, s.stream);
      } else {
        void* none = nullptr;  // a query of 0 bytes: no buffer needed
        keys = corank::cuda::merge(da.data(), m, db.data(), n, out.data(), none, 0, less, s.stream);
        pairs = corank::cuda::merge_by_key(da.data(), va.data(), m, db.data(), vb.data(), n,
                                           out.data(), vout.data(), none, 0, less, s.stream);
      }
      ASSERT_EQ(keys, cudaSuccess) << cudaGetErrorString(keys);
      ASSERT_EQ(pairs, cudaSuccess) << cudaGetErrorString(pairs);
      ASSERT_EQ(cudaStreamSynchronize(s.stream), cudaSuccess);
      EXPECT_EQ(out.to_host(), want);
      EXPECT_EQ(vout.to_host(), want);  // the values are the keys
    }
  }
  resource.log.expect_balanced(s.stream);
}

// --- bitonic_sort, bitonic_sort_by_key, bitonic_sort_host ----------------------------------------

TEST_F(TemporaryStorage, BitonicSortGivesTheSameResultFromEverySource) {
  CORANK_REQUIRE_GPU();
  test_stream s;
  counting_resource resource;
  EXPECT_EQ(corank::cuda::bitonic_sort_temp_bytes<u32>(1000), 0u);
  for (std::size_t n : {0, 1, 3000, 1000003}) {
    auto keys = random_u32(rng, n, 1u << 30);
    auto want = keys;
    std::sort(want.begin(), want.end());
    for (storage how : {storage::cache, storage::resource, storage::buffer}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " storage=" + std::to_string(int(how)));
      device_buffer<u32> dk(keys), pk(keys), pv(keys);
      std::vector<u32> host = keys;
      const std::size_t host_bytes = corank::study::cuda::bitonic_sort_host_temp_bytes<u32>(n);
      EXPECT_GE(host_bytes, n * sizeof(u32));
      guarded_temp temp(host_bytes);
      cudaError_t e[3] = {};
      const corank::less less;
      if (how == storage::cache) {
        e[0] = corank::cuda::bitonic_sort(dk.data(), n, less, s.stream);
        e[1] = corank::cuda::bitonic_sort_by_key(pk.data(), pv.data(), n, less, s.stream);
        e[2] = corank::study::cuda::bitonic_sort_host(host.data(), n, less, nullptr, s.stream);
      } else if (how == storage::resource) {
        e[0] = corank::cuda::bitonic_sort(resource, dk.data(), n, less, s.stream);
        e[1] = corank::cuda::bitonic_sort_by_key(resource, pk.data(), pv.data(), n, less, s.stream);
        e[2] = corank::study::cuda::bitonic_sort_host(resource, host.data(), n, less, nullptr,
                                                      s.stream);
      } else {
        void* none = nullptr;
        e[0] = corank::cuda::bitonic_sort(dk.data(), n, none, 0, less, s.stream);
        e[1] = corank::cuda::bitonic_sort_by_key(pk.data(), pv.data(), n, none, 0, less, s.stream);
        e[2] = corank::study::cuda::bitonic_sort_host(host.data(), n, temp.data(), host_bytes, less,
                                                      nullptr, s.stream);
      }
      for (cudaError_t status : e) ASSERT_EQ(status, cudaSuccess) << cudaGetErrorString(status);
      ASSERT_EQ(cudaStreamSynchronize(s.stream), cudaSuccess);
      EXPECT_EQ(dk.to_host(), want);
      EXPECT_EQ(pk.to_host(), want);
      EXPECT_EQ(pv.to_host(), want);  // the values are the keys
      EXPECT_EQ(host, want);
      temp.expect_guard_intact();
    }
  }
  resource.log.expect_balanced(s.stream);
  // The host sort's device copy from a buffer too small.
  std::vector<u32> host = random_u32(rng, 1000, 10);
  device_buffer<unsigned char> small(corank::study::cuda::bitonic_sort_host_temp_bytes<u32>(1000) -
                                     1);
  EXPECT_EQ(
      corank::study::cuda::bitonic_sort_host(host.data(), host.size(), small.data(), small.size()),
      cudaErrorInvalidValue);
}

// --- Segmented scans and the iterations --------------------------------------------------------

/// The four scans of u32 values (exact: sums wrap alike on both sides) through `how`, against
/// the reference.
void check_scans(std::mt19937_64& rng, std::size_t n, double mean_length, storage how,
                 cudaStream_t stream, counting_resource& resource) {
  SCOPED_TRACE("n=" + std::to_string(n) + " mean=" + std::to_string(mean_length) +
               " storage=" + std::to_string(int(how)));
  using corank::test::random_offsets;
  using corank::test::random_values;
  namespace cc = corank::cuda;
  const auto offsets = random_offsets<std::int32_t>(rng, n, mean_length, 0.02);
  const std::size_t segments = offsets.size() - 1;
  const auto in = random_values<u32>(rng, n, 0, 4294967295.0);
  const auto scale = random_values<u32>(rng, n, 0, 4294967295.0);
  constexpr long long iterations = 5;
  const corank::plus plus;
  const u32 init = 7;
  std::vector<u32> scaled(n);
  for (std::size_t i = 0; i < n; ++i) scaled[i] = in[i] * scale[i];
  const auto want_inclusive = corank::test::reference_segmented_scan<u32>(in, offsets, plus);
  const auto want_exclusive =
      corank::test::reference_segmented_scan<u32>(in, offsets, plus, true, init);
  const auto want_scaled = corank::test::reference_segmented_scan<u32>(scaled, offsets, plus);
  const auto want_iterations =
      corank::test::reference_scaled_iterations<u32>(in, scale, offsets, iterations, plus);
  device_buffer<u32> d_in(in), d_scale(scale), inclusive(n), exclusive(n), scaled_out(n), a(in);
  device_buffer<std::int32_t> d_off(offsets);
  for (auto* out : {&inclusive, &exclusive, &scaled_out}) out->poison();
  const std::size_t scan_bytes = cc::segmented_scan_temp_bytes<u32>(n);
  const std::size_t iteration_bytes =
      cc::scaled_segmented_scan_iterations_temp_bytes<u32>(n, iterations);
  guarded_temp t1(scan_bytes), t2(scan_bytes), t3(scan_bytes), t4(iteration_bytes);
  const std::int32_t* o = d_off.data();
  cudaError_t e[4] = {};
  switch (how) {
    case storage::cache:
      e[0] =
          cc::segmented_inclusive_scan(d_in.data(), n, o, segments, inclusive.data(), plus, stream);
      e[1] = cc::segmented_exclusive_scan(d_in.data(), n, o, segments, exclusive.data(), init, plus,
                                          stream);
      e[2] = cc::scaled_segmented_inclusive_scan(d_in.data(), d_scale.data(), n, o, segments,
                                                 scaled_out.data(), plus, stream);
      e[3] = cc::scaled_segmented_scan_iterations(a.data(), d_scale.data(), n, o, segments,
                                                  iterations, plus, stream);
      break;
    case storage::resource:
      e[0] = cc::segmented_inclusive_scan(resource, d_in.data(), n, o, segments, inclusive.data(),
                                          plus, stream);
      e[1] = cc::segmented_exclusive_scan(resource, d_in.data(), n, o, segments, exclusive.data(),
                                          init, plus, stream);
      e[2] = cc::scaled_segmented_inclusive_scan(resource, d_in.data(), d_scale.data(), n, o,
                                                 segments, scaled_out.data(), plus, stream);
      e[3] = cc::scaled_segmented_scan_iterations(resource, a.data(), d_scale.data(), n, o,
                                                  segments, iterations, plus, stream);
      break;
    case storage::buffer:  // a buffer each: the calls may run at once
      e[0] = cc::segmented_inclusive_scan(d_in.data(), n, o, segments, inclusive.data(), t1.data(),
                                          scan_bytes, plus, stream);
      e[1] = cc::segmented_exclusive_scan(d_in.data(), n, o, segments, exclusive.data(), init,
                                          t2.data(), scan_bytes, plus, stream);
      e[2] = cc::scaled_segmented_inclusive_scan(d_in.data(), d_scale.data(), n, o, segments,
                                                 scaled_out.data(), t3.data(), scan_bytes, plus,
                                                 stream);
      e[3] =
          cc::scaled_segmented_scan_iterations(a.data(), d_scale.data(), n, o, segments, iterations,
                                               t4.data(), iteration_bytes, plus, stream);
      break;
  }
  for (cudaError_t status : e) ASSERT_EQ(status, cudaSuccess) << cudaGetErrorString(status);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(inclusive.to_host(), want_inclusive);
  EXPECT_EQ(exclusive.to_host(), want_exclusive);
  EXPECT_EQ(scaled_out.to_host(), want_scaled);
  EXPECT_EQ(a.to_host(), want_iterations);
  for (auto* t : {&t1, &t2, &t3, &t4}) t->expect_guard_intact();
}

// One tile, tile edges, several waves of tiles (the tile-heads pass), short and long segments.
TEST_F(TemporaryStorage, ScansGiveTheSameResultFromEverySource) {
  CORANK_REQUIRE_GPU();
  test_stream s;
  counting_resource resource;
  constexpr std::size_t tile = corank::cuda::tuning::segmented_scan_policy<4, 1>::shape::tile;
  for (std::size_t n : {std::size_t(1), tile - 1, tile + 1, std::size_t(3000017)})
    for (double mean : {3.0, 2000.0})
      for (storage how : {storage::cache, storage::resource, storage::buffer})
        check_scans(rng, n, mean, how, s.stream, resource);
  resource.log.expect_balanced(s.stream);
}

// The iterations in passes of every number of steps, the storage from a buffer of the query's
// size for those options; one byte less is refused, as is the scans' query less one.
TEST_F(TemporaryStorage, ScanBuffersFollowTheirQueries) {
  CORANK_REQUIRE_GPU();
  using corank::test::random_offsets;
  using corank::test::random_values;
  namespace cc = corank::cuda;
  const std::size_t n = 200003;
  const auto offsets = random_offsets<std::int32_t>(rng, n, 50.0);
  const std::size_t segments = offsets.size() - 1;
  const auto a0 = random_values<u32>(rng, n, 0, 4294967295.0);
  const auto scale = random_values<u32>(rng, n, 0, 4294967295.0);
  device_buffer<u32> d_scale(scale), out(n);
  device_buffer<std::int32_t> d_off(offsets);
  constexpr int most = cc::tuning::segmented_scan_iteration::most_steps_per_pass;
  for (int steps_per_pass : {0, 1, 2, most})
    for (long long iterations : {1LL, 3LL, 2LL * most + 1}) {
      SCOPED_TRACE("steps_per_pass=" + std::to_string(steps_per_pass) +
                   " iterations=" + std::to_string(iterations));
      cc::segmented_scan_options opt;
      opt.steps_per_pass = steps_per_pass;
      const std::size_t bytes =
          cc::scaled_segmented_scan_iterations_temp_bytes<u32>(n, iterations, opt);
      guarded_temp temp(bytes);
      device_buffer<u32> a(a0);
      opt.temporary = {temp.data(), bytes - 1};
      EXPECT_EQ(cc::scaled_segmented_scan_iterations(opt, a.data(), d_scale.data(), n, d_off.data(),
                                                     segments, iterations),
                cudaErrorInvalidValue);
      opt.temporary = {temp.data(), bytes};
      ASSERT_EQ(cc::scaled_segmented_scan_iterations(opt, a.data(), d_scale.data(), n, d_off.data(),
                                                     segments, iterations),
                cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      EXPECT_EQ(a.to_host(), corank::test::reference_scaled_iterations<u32>(
                                 a0, scale, offsets, iterations, corank::plus{}));
      temp.expect_guard_intact();
    }
  // One query serves the three scans: the largest need, the scaled scan's (smaller tiles).
  const std::size_t scan_bytes = cc::segmented_scan_temp_bytes<u32>(n);
  device_buffer<unsigned char> small(scan_bytes - 1);
  EXPECT_EQ(cc::scaled_segmented_inclusive_scan(d_scale.data(), d_scale.data(), n, d_off.data(),
                                                segments, out.data(), small.data(), small.size()),
            cudaErrorInvalidValue);
  EXPECT_EQ(cc::segmented_inclusive_scan(d_scale.data(), n, d_off.data(), segments, out.data(),
                                         small.data(), 64),
            cudaErrorInvalidValue);
  EXPECT_EQ(cc::segmented_exclusive_scan(d_scale.data(), n, d_off.data(), segments, out.data(), 0u,
                                         static_cast<void*>(nullptr), scan_bytes),
            cudaErrorInvalidValue);
}

// --- The cache --------------------------------------------------------------------------------

/// Several host threads, each with its own stream, sorting at once through `how`: every result
/// right (a failure names the call, its size and what went wrong).
void expect_threads_sort_right(std::mt19937_64& rng, storage how) {
  constexpr int threads = 4, calls = 12;
  constexpr std::size_t most = 400000;
  std::vector<std::uint64_t> seeds(threads);
  for (auto& s : seeds) s = rng();
  counting_resource resource;
  std::vector<std::thread> workers;
  std::vector<std::string> failures(threads);
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      std::mt19937_64 local(seeds[t]);
      test_stream s;
      device_buffer<unsigned char> temp(corank::cuda::stable_sort_temp_bytes<u32>(most));
      for (int c = 0; c < calls && failures[t].empty(); ++c) {
        const std::size_t n = std::uniform_int_distribution<std::size_t>(2, most)(local);
        auto keys = random_u32(local, n, 5000);
        device_buffer<u32> d(keys);
        const corank::less less;
        cudaError_t e =
            how == storage::cache ? corank::cuda::stable_sort(d.data(), n, less, s.stream)
            : how == storage::resource
                ? corank::cuda::stable_sort(resource, d.data(), n, less, s.stream)
                : corank::cuda::stable_sort(d.data(), n, temp.data(), temp.size(), less, s.stream);
        if (e == cudaSuccess) e = cudaStreamSynchronize(s.stream);
        const std::string call = "call " + std::to_string(c) + " n=" + std::to_string(n) + ": ";
        if (e != cudaSuccess) {
          failures[t] = call + cudaGetErrorString(e);
          continue;
        }
        std::sort(keys.begin(), keys.end());
        const auto got = d.to_host();
        const auto wrong = std::mismatch(got.begin(), got.end(), keys.begin());
        if (wrong.first != got.end())
          failures[t] = call + "wrong at " + std::to_string(wrong.first - got.begin());
      }
    });
  for (auto& w : workers) w.join();
  for (int t = 0; t < threads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

TEST_F(TemporaryStorage, CacheServesThreadsAndStreamsAtOnce) {
  CORANK_REQUIRE_GPU();
  expect_threads_sort_right(rng, storage::cache);
}

// The same through a resource and through buffers: a failure of the cache alone points at it.
TEST_F(TemporaryStorage, ThreadsAndStreamsSortRightWithResourcesAndBuffers) {
  CORANK_REQUIRE_GPU();
  expect_threads_sort_right(rng, storage::resource);
  expect_threads_sort_right(rng, storage::buffer);
}

// More streams than the cache keeps blocks for, each call on a stream larger than the last now
// and then, no synchronisation between the calls: blocks move from stream to stream (each freed
// after its old stream's last use) while other streams still sort. Every result right.
TEST_F(TemporaryStorage, CacheMovesBlocksBetweenStreamsSafely) {
  CORANK_REQUIRE_GPU();
  constexpr int streams = corank::cuda::stream_blocks_per_device + 4, rounds = 4;
  std::vector<test_stream> s(streams);
  std::vector<std::vector<u32>> inputs;
  std::vector<std::unique_ptr<device_buffer<u32>>> arrays;
  for (int r = 0; r < rounds; ++r)
    for (int i = 0; i < streams; ++i) {
      const std::size_t n = 20000 + 70000 * std::size_t((r + i) % 3) + std::size_t(i);
      inputs.push_back(random_u32(rng, n, 1u << 20));
      arrays.push_back(std::make_unique<device_buffer<u32>>(inputs.back()));
    }
  for (int r = 0; r < rounds; ++r)
    for (int i = 0; i < streams; ++i) {
      device_buffer<u32>& d = *arrays[std::size_t(r * streams + i)];
      const cudaError_t e =
          corank::cuda::stable_sort(d.data(), d.size(), corank::less{}, s[std::size_t(i)].stream);
      ASSERT_EQ(e, cudaSuccess) << cudaGetErrorString(e);
    }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    std::sort(inputs[k].begin(), inputs[k].end());
    ASSERT_EQ(arrays[k]->to_host(), inputs[k]) << "call " << k;
  }
}

// The cache keeps memory across calls (up to its limit) and gives it all back on request.
TEST_F(TemporaryStorage, CacheKeepsMemoryUntilReleased) {
  CORANK_REQUIRE_GPU();
  cudaMemPool_t pool = nullptr, default_pool = nullptr;
  ASSERT_EQ(corank::cuda::library_memory_pool(&pool), cudaSuccess);
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetDefaultMemPool(&default_pool, device), cudaSuccess);
  EXPECT_NE(pool, default_pool) << "the device's default pool belongs to the application";
  std::size_t limit = 0;
  ASSERT_EQ(corank::cuda::cache_limit(&limit), cudaSuccess);
  EXPECT_GT(limit, std::size_t(64) << 20);
  const auto reserved = [&] {
    std::uint64_t bytes = 0;
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &bytes);
    return bytes;
  };
  const std::size_t n = 4000000;
  device_buffer<u32> keys(random_u32(rng, n, 1u << 30));
  ASSERT_EQ(corank::cuda::stable_sort(keys.data(), n), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_GE(reserved(), corank::cuda::stable_sort_temp_bytes<u32>(n)) << "kept across a sync";
  ASSERT_EQ(corank::cuda::release_cached_memory(), cudaSuccess);
  EXPECT_EQ(reserved(), 0u);
  // A limit of 0 keeps nothing across a synchronisation.
  ASSERT_EQ(corank::cuda::set_cache_limit(0), cudaSuccess);
  ASSERT_EQ(corank::cuda::stable_sort(keys.data(), n, corank::greater{}), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(reserved(), 0u);
  ASSERT_EQ(corank::cuda::set_cache_limit(limit), cudaSuccess);
  const auto sorted = keys.to_host();
  EXPECT_TRUE(std::is_sorted(sorted.rbegin(), sorted.rend()));
}

// --- Graph capture
// --------------------------------------------------------------------------------

// A call captured into a graph (the cache's and the caller's buffer forms), the graph launched
// twice on fresh inputs.
TEST_F(TemporaryStorage, CallsCanBeCapturedIntoAGraph) {
  CORANK_REQUIRE_GPU();
  test_stream s;
  const std::size_t n = 300007;
  device_buffer<u32> a(n), b(n), scan(n);
  device_buffer<std::int64_t> offsets(std::vector<std::int64_t>{0, std::int64_t(n)});
  device_buffer<unsigned char> temp(corank::cuda::stable_sort_temp_bytes<u32>(n));
  const std::size_t temp_bytes = temp.size();
  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(s.stream, cudaStreamCaptureModeThreadLocal), cudaSuccess);
  const cudaError_t cached = corank::cuda::stable_sort(a.data(), n, corank::less{}, s.stream);
  const cudaError_t buffered =
      corank::cuda::stable_sort(b.data(), n, temp.data(), temp_bytes, corank::less{}, s.stream);
  // A scan of the sorted keys in one segment, from the cache.
  const cudaError_t scanned = corank::cuda::segmented_inclusive_scan(
      a.data(), n, offsets.data(), 1, scan.data(), corank::plus{}, s.stream);
  ASSERT_EQ(cudaStreamEndCapture(s.stream, &graph), cudaSuccess);
  ASSERT_EQ(cached, cudaSuccess) << cudaGetErrorString(cached);
  ASSERT_EQ(buffered, cudaSuccess) << cudaGetErrorString(buffered);
  ASSERT_EQ(scanned, cudaSuccess) << cudaGetErrorString(scanned);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int launch = 0; launch < 2; ++launch) {
    auto keys = random_u32(rng, n, 1u << 20);
    cudaMemcpy(a.data(), keys.data(), n * sizeof(u32), cudaMemcpyHostToDevice);
    cudaMemcpy(b.data(), keys.data(), n * sizeof(u32), cudaMemcpyHostToDevice);
    ASSERT_EQ(cudaGraphLaunch(exec, s.stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(s.stream), cudaSuccess);
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(a.to_host(), keys) << "launch " << launch;
    EXPECT_EQ(b.to_host(), keys) << "launch " << launch;
    std::vector<u32> sums(n);
    std::partial_sum(keys.begin(), keys.end(), sums.begin());
    EXPECT_EQ(scan.to_host(), sums) << "launch " << launch;
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

// --- stable_sort_segments, sort_segments and their _by_key forms -----------------------------

/// Segment lengths: short ones (the rank-sorted windows), some past a window (merge windows) and
/// some past a tile (the long segments' passes, which use the array of keys and values).
std::vector<std::int64_t> segment_offsets(std::mt19937_64& rng, std::size_t n,
                                          std::size_t longest) {
  std::vector<std::int64_t> offsets(1, 0);
  while (std::size_t(offsets.back()) < n) {
    const std::size_t left = n - std::size_t(offsets.back());
    const std::size_t length = rng() % 8 == 0 ? rng() % (longest + 1) : rng() % 20;
    offsets.push_back(offsets.back() + std::int64_t(std::min(length, left)));
  }
  return offsets;
}

/// `count` segments (at most few_segments_max: the few-segments mode) of random lengths, an empty
/// one among them, ending at most at n.
std::vector<std::int64_t> few_segment_offsets(std::mt19937_64& rng, std::size_t n,
                                              std::size_t count) {
  std::vector<std::int64_t> offsets(count + 1);
  for (auto& o : offsets) o = std::int64_t(rng() % (n + 1));
  std::sort(offsets.begin(), offsets.end());
  if (count > 1) offsets[1] = offsets[0];  // segment 0 empty
  return offsets;
}

/// The four segmented sorts through `how`: the stable ones against std::stable_sort of each
/// segment (pairs: keys and their positions), the unstable ones' keys against std::sort. With
/// `few` > 0, that many segments of random lengths (the few-segments mode), else segments up to
/// `longest` keys.
void check_segmented_sorts(std::mt19937_64& rng, std::size_t n, std::size_t longest, storage how,
                           cudaStream_t stream, counting_resource* resource = nullptr,
                           std::size_t few = 0) {
  SCOPED_TRACE("n=" + std::to_string(n) + " longest=" + std::to_string(longest) +
               " few=" + std::to_string(few) + " storage=" + std::to_string(int(how)));
  namespace cc = corank::cuda;
  const auto keys = random_u32(rng, n, 50);
  const auto offsets = few ? few_segment_offsets(rng, n, few) : segment_offsets(rng, n, longest);
  const std::size_t segments = offsets.size() - 1;
  std::vector<u32> order(n);
  std::iota(order.begin(), order.end(), 0u);
  for (std::size_t s = 0; s < segments; ++s)
    std::stable_sort(order.begin() + offsets[s], order.begin() + offsets[s + 1],
                     [&](u32 x, u32 y) { return keys[x] < keys[y]; });
  std::vector<u32> sorted(n);
  for (std::size_t i = 0; i < n; ++i) sorted[i] = keys[order[i]];
  device_buffer<std::int64_t> d_offsets(offsets);
  const std::int64_t* o = d_offsets.data();
  device_buffer<u32> stable_keys(keys), pair_keys(keys), pair_vals(n), unstable_keys(keys),
      unstable_pair_keys(keys), unstable_vals(n);
  std::vector<u32> iota(n);
  std::iota(iota.begin(), iota.end(), 0u);
  cudaMemcpy(pair_vals.data(), iota.data(), n * sizeof(u32), cudaMemcpyHostToDevice);
  cudaMemcpy(unstable_vals.data(), iota.data(), n * sizeof(u32), cudaMemcpyHostToDevice);
  const corank::less less;
  cudaError_t e[4] = {};
  switch (how) {
    case storage::cache:
      e[0] = cc::stable_sort_segments(stable_keys.data(), n, o, segments, less, stream);
      e[1] = cc::stable_sort_segments_by_key(pair_keys.data(), pair_vals.data(), n, o, segments,
                                             less, stream);
      e[2] = cc::sort_segments(unstable_keys.data(), n, o, segments, less, stream);
      e[3] = cc::sort_segments_by_key(unstable_pair_keys.data(), unstable_vals.data(), n, o,
                                      segments, less, stream);
      break;
    case storage::resource:
      e[0] = cc::stable_sort_segments(*resource, stable_keys.data(), n, o, segments, less, stream);
      e[1] = cc::stable_sort_segments_by_key(*resource, pair_keys.data(), pair_vals.data(), n, o,
                                             segments, less, stream);
      e[2] = cc::sort_segments(*resource, unstable_keys.data(), n, o, segments, less, stream);
      e[3] = cc::sort_segments_by_key(*resource, unstable_pair_keys.data(), unstable_vals.data(), n,
                                      o, segments, less, stream);
      break;
    case storage::buffer: {
      // Each call its own buffer of exactly the queried size, guarded past its end.
      guarded_temp t0(cc::stable_sort_segments_temp_bytes<u32>(n, segments)),
          t1(cc::stable_sort_segments_temp_bytes<u32, u32>(n, segments)),
          t2(cc::sort_segments_temp_bytes<u32>(n, segments)),
          t3(cc::sort_segments_temp_bytes<u32, u32>(n, segments));
      e[0] = cc::stable_sort_segments(stable_keys.data(), n, o, segments, t0.data(), t0.bytes, less,
                                      stream);
      e[1] = cc::stable_sort_segments_by_key(pair_keys.data(), pair_vals.data(), n, o, segments,
                                             t1.data(), t1.bytes, less, stream);
      e[2] = cc::sort_segments(unstable_keys.data(), n, o, segments, t2.data(), t2.bytes, less,
                               stream);
      e[3] = cc::sort_segments_by_key(unstable_pair_keys.data(), unstable_vals.data(), n, o,
                                      segments, t3.data(), t3.bytes, less, stream);
      ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
      t0.expect_guard_intact(), t1.expect_guard_intact(), t2.expect_guard_intact(),
          t3.expect_guard_intact();
      break;
    }
  }
  for (cudaError_t status : e) ASSERT_EQ(status, cudaSuccess) << cudaGetErrorString(status);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(stable_keys.to_host(), sorted);
  EXPECT_EQ(pair_keys.to_host(), sorted);
  EXPECT_EQ(pair_vals.to_host(), order);
  EXPECT_EQ(unstable_keys.to_host(), sorted);  // u32 keys: equal keys are identical
  EXPECT_EQ(unstable_pair_keys.to_host(), sorted);
}

TEST_F(TemporaryStorage, SegmentedSortsGiveTheSameResultFromEverySource) {
  CORANK_REQUIRE_GPU();
  test_stream s;
  counting_resource resource;
  for (std::size_t n : {0, 1, 5000, 300001})
    for (std::size_t longest : {std::size_t(30), std::size_t(20000)})
      for (storage how : {storage::cache, storage::resource, storage::buffer})
        check_segmented_sorts(rng, n, longest, how, s.stream, &resource);
  constexpr std::size_t few_max =
      corank::cuda::tuning::stable_segmented_policy<4, 0>::few_segments_max;
  for (std::size_t n : {1, 5000, 300001})
    for (std::size_t few : {std::size_t(1), std::size_t(3), few_max, few_max + 1})
      for (storage how : {storage::cache, storage::resource, storage::buffer})
        check_segmented_sorts(rng, n, 0, how, s.stream, &resource, few);
  resource.log.expect_balanced(s.stream);
  EXPECT_FALSE(resource.log.allocated.empty());
}

TEST_F(TemporaryStorage, SegmentedSortsRefuseABufferBelowTheQuery) {
  CORANK_REQUIRE_GPU();
  namespace cc = corank::cuda;
  const std::size_t n = 100000;
  const auto offsets = segment_offsets(rng, n, 20000);
  const std::size_t segments = offsets.size() - 1;
  device_buffer<std::int64_t> d_offsets(offsets);
  device_buffer<u32> keys(random_u32(rng, n, 1000)), vals(n);
  const std::size_t stable_need = cc::stable_sort_segments_temp_bytes<u32, u32>(n, segments);
  const std::size_t unstable_need = cc::sort_segments_temp_bytes<u32>(n, segments);
  const std::size_t few_need = cc::stable_sort_segments_temp_bytes<u32, u32>(n, 2);
  device_buffer<unsigned char> temp(std::max({stable_need, unstable_need, few_need}));
  EXPECT_EQ(cc::stable_sort_segments_by_key(keys.data(), vals.data(), n, d_offsets.data(), segments,
                                            temp.data(), stable_need - 1),
            cudaErrorInvalidValue);
  EXPECT_EQ(
      cc::sort_segments(keys.data(), n, d_offsets.data(), segments, temp.data(), unstable_need - 1),
      cudaErrorInvalidValue);
  // Likewise in the few-segments mode (its own layout).
  EXPECT_EQ(cc::stable_sort_segments_by_key(keys.data(), vals.data(), n, d_offsets.data(), 2,
                                            temp.data(), few_need - 1),
            cudaErrorInvalidValue);
  // Nothing to sort needs no storage: a null buffer of 0 bytes is enough.
  EXPECT_EQ(cc::stable_sort_segments_temp_bytes<u32>(0, 0), 0u);
  EXPECT_EQ(cc::sort_segments_temp_bytes<u32>(10, 0), 0u);
  EXPECT_EQ(cc::stable_sort_segments(keys.data(), 0, d_offsets.data(), 0, nullptr, 0), cudaSuccess);
}

// --- join_size, join -----------------------------------------------------------------------------

TEST_F(TemporaryStorage, JoinsGiveTheSameResultFromEverySource) {
  CORANK_REQUIRE_GPU();
  namespace cc = corank::cuda;
  using corank::join_kind;
  test_stream s;
  counting_resource resource;
  for (const std::size_t m : {0, 1, 5000, 300001}) {
    const std::size_t n = m / 2 + 3;
    // Keys from a range of about m / 4: runs of equal keys on both sides, keys of each side alone.
    auto a = random_u32(rng, m, u32(m / 4 + 2)), b = random_u32(rng, n, u32(m / 4 + 2));
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    device_buffer<u32> da(a), db(b);
    for (const join_kind kind : {join_kind::inner, join_kind::left_outer, join_kind::full_outer}) {
      const auto want = corank::cpu::join(kind, a.begin(), a.end(), b.begin(), b.end());
      for (storage how : {storage::cache, storage::resource, storage::buffer}) {
        SCOPED_TRACE("m=" + std::to_string(m) + " kind=" + std::to_string(int(kind)) +
                     " storage=" + std::to_string(int(how)));
        std::size_t pairs = 0;
        cudaError_t sized = cudaSuccess, joined = cudaSuccess;
        device_buffer<std::size_t> out_a(want.size() + 1), out_b(want.size() + 1);
        out_a.poison(), out_b.poison();
        const corank::less less;
        if (how == storage::cache) {
          sized = cc::join_size(kind, da.data(), m, db.data(), n, &pairs, less, s.stream);
          if (sized == cudaSuccess)
            joined = cc::join(kind, da.data(), m, db.data(), n, out_a.data(), out_b.data(), pairs,
                              less, s.stream);
        } else if (how == storage::resource) {
          sized = cc::join_size(resource, kind, da.data(), m, db.data(), n, &pairs, less, s.stream);
          if (sized == cudaSuccess)
            joined = cc::join(resource, kind, da.data(), m, db.data(), n, out_a.data(),
                              out_b.data(), pairs, less, s.stream);
        } else {
          guarded_temp size_temp(cc::join_temp_bytes<u32>(kind, m, n));
          sized = cc::join_size(kind, da.data(), m, db.data(), n, &pairs, size_temp.data(),
                                size_temp.bytes, less, s.stream);
          ASSERT_EQ(cudaStreamSynchronize(s.stream), cudaSuccess);
          size_temp.expect_guard_intact();
          guarded_temp temp(cc::join_temp_bytes<u32>(kind, m, n, pairs));
          if (sized == cudaSuccess)
            joined = cc::join(kind, da.data(), m, db.data(), n, out_a.data(), out_b.data(), pairs,
                              temp.data(), temp.bytes, less, s.stream);
          ASSERT_EQ(cudaStreamSynchronize(s.stream), cudaSuccess);
          temp.expect_guard_intact();
        }
        ASSERT_EQ(sized, cudaSuccess) << cudaGetErrorString(sized);
        ASSERT_EQ(joined, cudaSuccess) << cudaGetErrorString(joined);
        ASSERT_EQ(cudaStreamSynchronize(s.stream), cudaSuccess);
        ASSERT_EQ(pairs, want.size());
        auto got_a = out_a.to_host(), got_b = out_b.to_host();
        EXPECT_EQ(got_a[pairs], 0xA5A5A5A5A5A5A5A5ull) << "wrote past the pairs";
        got_a.resize(pairs), got_b.resize(pairs);
        EXPECT_EQ(got_a, want.a);
        EXPECT_EQ(got_b, want.b);
      }
    }
  }
  resource.log.expect_balanced(s.stream);
  EXPECT_FALSE(resource.log.allocated.empty());
}

TEST_F(TemporaryStorage, JoinsRefuseABufferBelowTheQuery) {
  CORANK_REQUIRE_GPU();
  namespace cc = corank::cuda;
  using corank::join_kind;
  const std::size_t m = 100000, n = 70000;
  auto a = random_u32(rng, m, 50000), b = random_u32(rng, n, 50000);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  device_buffer<u32> da(a), db(b);
  const join_kind kind = join_kind::full_outer;
  const std::size_t size_need = cc::join_temp_bytes<u32>(kind, m, n);
  device_buffer<unsigned char> size_temp(size_need);
  std::size_t pairs = 0;
  EXPECT_EQ(
      cc::join_size(kind, da.data(), m, db.data(), n, &pairs, size_temp.data(), size_need - 1),
      cudaErrorInvalidValue);
  ASSERT_EQ(cc::join_size(kind, da.data(), m, db.data(), n, &pairs, size_temp.data(), size_need),
            cudaSuccess);
  const std::size_t need = cc::join_temp_bytes<u32>(kind, m, n, pairs);
  EXPECT_GE(need, size_need);
  device_buffer<unsigned char> temp(need);
  device_buffer<std::size_t> out_a(pairs), out_b(pairs);
  EXPECT_EQ(cc::join(kind, da.data(), m, db.data(), n, out_a.data(), out_b.data(), pairs,
                     temp.data(), need - 1),
            cudaErrorInvalidValue);
  void* none = nullptr;
  EXPECT_EQ(
      cc::join(kind, da.data(), m, db.data(), n, out_a.data(), out_b.data(), pairs, none, need),
      cudaErrorInvalidValue);
  EXPECT_EQ(cc::join(kind, da.data(), m, db.data(), n, out_a.data(), out_b.data(), pairs,
                     temp.data(), need),
            cudaSuccess);
}

}  // namespace

// GPU segmented sorts against the host, segment by segment: stable_sort_segments (bitwise equal to
// std::stable_sort of each segment; pairs carry each key's original position, so stability is
// checked too) and sort_segments (std::sort; pairs as a multiset). Shapes: every length 1-64,
// 2^k - 1, 2^k, 2^k + 1, the stable sort's window and tile boundaries +-1, mixed distributions,
// empty segments, keys outside every segment; keys u32, u64, f32, f64, 8- and 16-byte structs
// under their own comparators; offsets of 32 and 64 bits; NaN keys and a comparator that is not a
// strict weak order must end. Device arrays have guard bytes on both sides that must survive.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "corank/cuda/segmented_sort.cuh"
#include "support/cuda_test.cuh"
#include "support/seeded_test.hpp"
#include "support/sort_keys.cuh"

namespace {

using corank::test::by_hi;
using corank::test::device_buffer;
using corank::test::pair_key;
using corank::test::wide_key;
using corank::test::wide_order;
/// Not a strict weak order (not irreflexive): the sorts must still end.
struct less_or_equal {
  template <class T>
  __host__ __device__ bool operator()(const T& x, const T& y) const {
    return x <= y;
  }
};

template <class K>
K random_key(std::mt19937_64& rng, std::uint64_t range) {
  if constexpr (std::is_same_v<K, pair_key>)
    return {std::uint32_t(rng() % range), std::uint32_t(rng())};
  else if constexpr (std::is_same_v<K, wide_key>)
    return {rng() % range, std::uint32_t(rng() % 3), std::uint32_t(rng())};
  else
    return K(rng() % range);
}

template <class K>
std::vector<K> random_keys(std::mt19937_64& rng, std::size_t n, std::uint64_t range) {
  std::vector<K> v(n);
  for (auto& x : v) x = random_key<K>(rng, range);
  return v;
}

template <class Offset = std::int64_t>
std::vector<Offset> offsets_of(const std::vector<std::size_t>& sizes, std::size_t first = 0) {
  std::vector<Offset> o(1, Offset(first));
  for (std::size_t s : sizes) o.push_back(Offset(std::size_t(o.back()) + s));
  return o;
}

/// A device copy of `host` with `guard` bytes of a known pattern on both sides.
template <class T>
struct guarded {
  static constexpr std::size_t guard = 24;  // not a multiple of 16: unaligned data
  std::size_t n;
  device_buffer<unsigned char> bytes;
  explicit guarded(const std::vector<T>& host) : n(host.size()), bytes(n * sizeof(T) + 2 * guard) {
    cudaMemset(bytes.data(), 0x5A, bytes.size());
    if (n) cudaMemcpy(data(), host.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  }
  T* data() { return reinterpret_cast<T*>(bytes.data() + guard); }
  std::vector<T> result() {
    const std::vector<unsigned char> all = bytes.to_host();
    for (std::size_t i = 0; i < guard; ++i) {
      EXPECT_EQ(all[i], 0x5A) << "guard before the array overwritten";
      EXPECT_EQ(all[all.size() - 1 - i], 0x5A) << "guard after the array overwritten";
    }
    std::vector<T> out(n);
    if (n) std::memcpy(out.data(), all.data() + guard, n * sizeof(T));
    return out;
  }
};

template <class T>
bool same_bits(const std::vector<T>& x, const std::vector<T>& y) {
  return x.size() == y.size() &&
         (x.empty() || !std::memcmp(x.data(), y.data(), x.size() * sizeof(T)));
}

/// Index of the first element where x and y differ bitwise (for failure messages).
template <class T>
std::size_t first_difference(const std::vector<T>& x, const std::vector<T>& y) {
  std::size_t i = 0;
  while (i < x.size() && i < y.size() && !std::memcmp(&x[i], &y[i], sizeof(T))) ++i;
  return i;
}

/// stable_sort_segments and stable_sort_segments_by_key (values: original positions) against
/// std::stable_sort of each segment. Keys outside every segment stay where they are.
template <class K, class Offset, class Compare>
void expect_stable_segments(const std::vector<K>& keys, const std::vector<Offset>& offsets,
                            Compare comp) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = keys.size(), segments = offsets.size() - 1;
  device_buffer<Offset> d_offsets(offsets);
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  for (std::size_t s = 0; s < segments; ++s)
    std::stable_sort(order.begin() + std::ptrdiff_t(offsets[s]),
                     order.begin() + std::ptrdiff_t(offsets[s + 1]),
                     [&](std::uint32_t x, std::uint32_t y) { return comp(keys[x], keys[y]); });
  std::vector<K> expected(n);
  for (std::size_t i = 0; i < n; ++i) expected[i] = keys[order[i]];

  guarded<K> dk(keys);
  CORANK_ASSERT_CUDA(
      corank::cuda::stable_sort_segments(dk.data(), n, d_offsets.data(), segments, comp));
  CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
  const auto got = dk.result();
  ASSERT_TRUE(same_bits(got, expected))
      << "keys differ first at " << first_difference(got, expected) << " of " << n << " ("
      << segments << " segments)";

  std::vector<std::uint32_t> vals(n);
  std::iota(vals.begin(), vals.end(), 0u);
  guarded<K> dk2(keys);
  guarded<std::uint32_t> dv(vals);
  CORANK_ASSERT_CUDA(corank::cuda::stable_sort_segments_by_key(dk2.data(), dv.data(), n,
                                                               d_offsets.data(), segments, comp));
  CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
  const auto got_keys = dk2.result();
  const auto got_vals = dv.result();
  ASSERT_TRUE(same_bits(got_keys, expected))
      << "pairs' keys differ first at " << first_difference(got_keys, expected);
  ASSERT_TRUE(got_vals == order) << "values differ first at " << first_difference(got_vals, order);
}

/// Which unstable sort a check calls: the public one, or the bitonic networks directly (the
/// public call takes the stable sort today; the networks stay tested).
enum class unstable_sort { public_call, networks };

/// sort_segments and sort_segments_by_key (or the networks they may take) against std::sort of
/// each segment (pairs as a multiset: every value stays in its segment, with its key).
template <class K, class Offset, class Compare>
void expect_unstable_segments_by(unstable_sort which, const std::vector<K>& keys,
                                 const std::vector<Offset>& offsets, Compare comp) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = keys.size(), segments = offsets.size() - 1;
  device_buffer<Offset> d_offsets(offsets);
  const auto sort = [&](K* k, auto* v) {
    if (which == unstable_sort::public_call) {
      if constexpr (std::is_same_v<std::remove_pointer_t<decltype(v)>, corank::no_value>)
        return corank::cuda::sort_segments(k, n, d_offsets.data(), segments, comp);
      else
        return corank::cuda::sort_segments_by_key(k, v, n, d_offsets.data(), segments, comp);
    }
    return corank::cuda::detail::sort_segments_by_networks({}, k, v, n, d_offsets.data(), segments,
                                                           comp, cudaStream_t(0));
  };
  guarded<K> dk(keys);
  CORANK_ASSERT_CUDA(sort(dk.data(), static_cast<corank::no_value*>(nullptr)));
  CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
  std::vector<K> expected = keys;
  for (std::size_t s = 0; s < segments; ++s)
    std::sort(expected.begin() + std::ptrdiff_t(offsets[s]),
              expected.begin() + std::ptrdiff_t(offsets[s + 1]), comp);
  ASSERT_TRUE(same_bits(dk.result(), expected));

  std::vector<std::uint32_t> vals(n);
  std::iota(vals.begin(), vals.end(), 0u);
  guarded<K> dk2(keys);
  guarded<std::uint32_t> dv(vals);
  CORANK_ASSERT_CUDA(sort(dk2.data(), dv.data()));
  CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
  const auto got_keys = dk2.result();
  const auto got_vals = dv.result();
  ASSERT_TRUE(same_bits(got_keys, expected));
  for (std::size_t s = 0; s < segments; ++s) {
    std::vector<std::uint32_t> origin(got_vals.begin() + std::ptrdiff_t(offsets[s]),
                                      got_vals.begin() + std::ptrdiff_t(offsets[s + 1]));
    for (std::size_t i = 0; i < origin.size(); ++i)
      ASSERT_EQ(std::memcmp(&keys[origin[i]], &got_keys[std::size_t(offsets[s]) + i], sizeof(K)), 0)
          << "pair split in segment " << s;
    std::sort(origin.begin(), origin.end());
    for (std::size_t i = 0; i < origin.size(); ++i)
      ASSERT_EQ(origin[i], std::uint32_t(std::size_t(offsets[s]) + i))
          << "value left its segment " << s;
  }
}

/// expect_unstable_segments_by both: the public call and the networks.
template <class K, class Offset, class Compare>
void expect_unstable_segments(const std::vector<K>& keys, const std::vector<Offset>& offsets,
                              Compare comp) {
  expect_unstable_segments_by(unstable_sort::public_call, keys, offsets, comp);
  expect_unstable_segments_by(unstable_sort::networks, keys, offsets, comp);
}

template <class K, class V = corank::no_value>
using policy_of = corank::cuda::tuning::stable_segmented_policy<
    sizeof(K), std::is_same_v<V, corank::no_value> ? 0 : sizeof(V)>;

/// Lengths at the stable sort's boundaries: the window (longest segment sorted in one), the tile,
/// and tiles of 2, 3, 4, 8, 16 and 32 (merge passes: from 8 tiles + 1 the passes past
/// pass_launches, in one cooperative launch), each +-1.
template <class K>
std::vector<std::size_t> boundary_lengths() {
  std::vector<std::size_t> lengths;
  for (std::size_t policy_window : {policy_of<K>::window, policy_of<K, std::uint32_t>::window})
    for (std::size_t at :
         {policy_window, 2 * policy_window, 4 * policy_window, 6 * policy_window, 8 * policy_window,
          16 * policy_window, 32 * policy_window, 64 * policy_window})
      for (std::size_t d : {at - 1, at, at + 1}) lengths.push_back(d);
  return lengths;
}

/// Segments of `length` keys, about `total` keys in all (at least one segment).
std::vector<std::size_t> equal_segments(std::size_t length, std::size_t total) {
  return std::vector<std::size_t>(std::max<std::size_t>(1, total / length), length);
}

/// The longest segment a group of the warp kernels takes, and the longest the merges take (by
/// wider groups where the policy says so).
template <class Policy>
constexpr std::size_t group_max = std::size_t(Policy::warp_group) * Policy::warp_registers;
template <class Policy>
constexpr std::size_t warp_merge_max =
    std::size_t(Policy::warp_merge_widest) * Policy::warp_registers;
/// The longest segment the groups of whole warps take (past a window, only some lengths).
template <class Policy>
constexpr std::size_t warp_group_max =
    std::size_t(Policy::warp_merge_group_widest) * Policy::warp_registers;

class StableSortSegments : public corank::test::seeded_test {};

TEST_F(StableSortSegments, HandlesNoKeysNoSegmentsAndEmptySegments) {
  CORANK_REQUIRE_GPU();
  CORANK_ASSERT_CUDA(corank::cuda::stable_sort_segments(static_cast<std::uint32_t*>(nullptr), 0,
                                                        static_cast<const int*>(nullptr), 0));
  expect_stable_segments(std::vector<std::uint32_t>{}, offsets_of<int>({0, 0, 0}), corank::less{});
  expect_stable_segments(random_keys<std::uint32_t>(rng, 10, 100),
                         offsets_of<int>({0, 3, 0, 0, 7, 0}), corank::less{});
  expect_stable_segments(random_keys<std::uint32_t>(rng, 5000, 100),
                         offsets_of<int>({0, 0, 1, 0, 4000, 0, 0, 999}), corank::less{});
}

TEST_F(StableSortSegments, RejectsNullPointersAndOverlappingKeysAndValues) {
  CORANK_REQUIRE_GPU();
  device_buffer<int> offsets(std::vector<int>{0, 4});
  device_buffer<std::uint32_t> keys(4);
  EXPECT_EQ(corank::cuda::stable_sort_segments(keys.data(), 4, static_cast<const int*>(nullptr), 1),
            cudaErrorInvalidValue);
  EXPECT_EQ(corank::cuda::stable_sort_segments(static_cast<std::uint32_t*>(nullptr), 4,
                                               offsets.data(), 1),
            cudaErrorInvalidValue);
  EXPECT_EQ(corank::cuda::stable_sort_segments_by_key(
                keys.data(), static_cast<std::uint32_t*>(nullptr), 4, offsets.data(), 1),
            cudaErrorInvalidValue);
  EXPECT_EQ(
      corank::cuda::stable_sort_segments_by_key(keys.data(), keys.data() + 1, 2, offsets.data(), 1),
      cudaErrorInvalidValue);
}

TEST_F(StableSortSegments, LeavesKeysOutsideEverySegment) {
  const auto keys = random_keys<std::uint32_t>(rng, 20000, 1000);
  expect_stable_segments(keys, offsets_of({3000, 17, 1, 5000}, 777), corank::less{});
  expect_stable_segments(keys, offsets_of({10000}, 10000), corank::less{});
}

/// Every length up to two past the rank sort's longest (the short windows' class boundary).
template <class K, class V = corank::no_value>
std::size_t short_lengths_end() {
  return std::max<std::size_t>(66, policy_of<K, V>::rank_sort_max + 2);
}

TEST_F(StableSortSegments, SortsEveryLengthUpTo64) {
  for (std::size_t length = 1; length <= short_lengths_end<std::uint32_t>(); ++length)
    expect_stable_segments(random_keys<std::uint32_t>(rng, 6000 / length * length, 20),
                           offsets_of(equal_segments(length, 6000)), corank::less{});
}

/// Groups of 32 segments whose longest is each stage width -1, +0 and +1 (the staged groups' lists,
/// one a width), the other 31 of random shorter lengths, some empty, at every place in the group.
TEST_F(StableSortSegments, SortsGroupsAtEveryStageWidth) {
  using stages = policy_of<std::uint32_t>::stages;
  for (int width : stages::width)
    for (int longest : {width - 1, width, width + 1}) {
      if (longest < 1) continue;
      std::vector<std::size_t> sizes;
      for (int group = 0; group < 64; ++group)
        for (int lane = 0; lane < 32; ++lane)
          sizes.push_back(lane == group % 32 ? std::size_t(longest) : rng() % std::size_t(longest));
      std::size_t n = 0;
      for (std::size_t s : sizes) n += s;
      SCOPED_TRACE("longest " + std::to_string(longest));
      expect_stable_segments(random_keys<std::uint32_t>(rng, n, 20), offsets_of(sizes),
                             corank::less{});
    }
}

template <class K, class Compare>
void expect_every_short_length(std::mt19937_64& rng, Compare comp, std::uint64_t range) {
  for (std::size_t length = 1; length <= short_lengths_end<K>(); ++length) {
    // Shifted by a segment of 3 so that the segments fall differently on the windows.
    std::vector<std::size_t> sizes = equal_segments(length, 1500);
    sizes.insert(sizes.begin(), 3);
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    expect_stable_segments(random_keys<K>(rng, n, range), offsets_of(sizes), comp);
  }
}

TEST_F(StableSortSegments, SortsEveryShortLengthOfEveryKeyType) {
  expect_every_short_length<std::uint64_t>(rng, corank::less{}, 50);
  expect_every_short_length<float>(rng, corank::greater{}, 30);
  expect_every_short_length<double>(rng, corank::less{}, 1ull << 40);
  expect_every_short_length<pair_key>(rng, by_hi{}, 10);
  expect_every_short_length<wide_key>(rng, wide_order{}, 5);
}

/// Every length a warp sorts (its merges in runs of 1.5 times a power of two too, for 4-byte
/// keys; a group's lanes, or wider groups past what a group holds) when a longer segment shares
/// its group of 32, two past it, and uniform mixes that put every length class in one group (their
/// longest at a group's and a warp's bounds), for signed and unsigned keys both ways, 32- and
/// 64-bit offsets.
TEST_F(StableSortSegments, SortsEveryLengthTheWarpKernelsTake) {
  using policy = policy_of<std::uint32_t>;
  const std::size_t group = group_max<policy>, warp_max = warp_merge_max<policy>;
  for (std::size_t length = 1; length <= warp_max + 2; ++length) {
    std::vector<std::size_t> sizes = equal_segments(length, 3000);
    sizes.insert(sizes.begin() + std::ptrdiff_t(sizes.size() / 2), {1, 3, 0, 2});
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    expect_stable_segments(random_keys<std::uint32_t>(rng, n, 40), offsets_of(sizes),
                           corank::less{});
  }
  for (std::size_t top :
       {group / 2 + 1, group, group + 1, warp_max / 2 + 1, warp_max, warp_max + 1}) {
    std::vector<std::size_t> sizes;
    for (std::size_t n = 0; n < 200000; n += sizes.back()) sizes.push_back(rng() % (top + 1));
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    expect_stable_segments(random_keys<std::uint32_t>(rng, n, 1ull << 32), offsets_of(sizes),
                           corank::less{});
    expect_stable_segments(random_keys<std::int32_t>(rng, n, 1ull << 32), offsets_of<int>(sizes),
                           corank::greater{});
  }
}

using eight_byte_policy = policy_of<std::uint64_t>;
static_assert(eight_byte_policy::small_sort_max ==
                  policy_of<std::uint32_t, std::uint32_t>::small_sort_max,
              "pairs of 4-byte keys and values take the 8-byte keys' policy");

/// Each length of `lengths` in segments of that length, with short and empty segments in the
/// middle (so that the groups around them mix classes).
template <class K, class Compare, class KeysOf>
void expect_lengths_among_short_ones(const std::vector<std::size_t>& lengths, Compare comp,
                                     KeysOf keys_of) {
  for (std::size_t length : lengths) {
    std::vector<std::size_t> sizes = equal_segments(length, 2000);
    sizes.insert(sizes.begin() + std::ptrdiff_t(sizes.size() / 2), {1, 3, 0, 2});
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    expect_stable_segments(keys_of(n), offsets_of(sizes), comp);
  }
}

/// Every length up to two past the warp networks' longest, then each run length's bounds +-1 in
/// the wider groups' merges; and the lengths at the 8-byte classes' bounds (lanes, rank sort,
/// narrow and wide staged groups, warp networks of 32, 64 and 128 slots) +-1.
std::vector<std::size_t> every_eight_byte_length() {
  std::vector<std::size_t> lengths;
  const std::size_t warp_max = group_max<eight_byte_policy>;
  for (std::size_t l = 1; l <= std::max<std::size_t>(warp_max, 128) + 2; ++l) lengths.push_back(l);
  // The wider groups' merges (16 and 32 lanes of runs of 8 and 16): each one's bounds +-1.
  for (std::size_t run = 8; run <= std::size_t(eight_byte_policy::warp_registers); run *= 2)
    for (std::size_t d : {32 * run - 1, 32 * run, 32 * run + 1})
      if (d > lengths.back()) lengths.push_back(d);
  return lengths;
}
std::vector<std::size_t> eight_byte_class_bounds() {
  std::vector<std::size_t> lengths;
  for (std::size_t at : {std::size_t(eight_byte_policy::tiny_sort_max),
                         std::size_t(eight_byte_policy::small_sort_above),
                         std::size_t(eight_byte_policy::stages::width[0]),
                         std::size_t(eight_byte_policy::wide_fill_above),
                         std::size_t(eight_byte_policy::small_sort_max), std::size_t(32),
                         std::size_t(64), std::size_t(128)})
    for (std::size_t d : {at - 1, at, at + 1}) lengths.push_back(d);
  return lengths;
}

/// Keys of -0.0, +0.0 and a few others: -0.0 and +0.0 compare equal but differ in their bits, so
/// a sort of keys alone shows whether it is stable.
template <class F = double>
std::vector<F> signed_zeros(std::mt19937_64& rng, std::size_t n) {
  std::vector<F> keys(n);
  for (auto& k : keys) {
    const std::uint64_t r = rng() % 6;
    k = r < 2 ? F(rng() % 2 ? -0.0 : 0.0) : F(double(r) - 3.5);
  }
  return keys;
}

/// Float keys of -0.0, +0.0 and a few others (stability shows in the keys alone) at every length
/// the warp merges take (a group's and wider groups') and two past, among short segments, and in
/// uniform mixes: each run length of the merges, and the first round's pairs of runs cut short by
/// the segment's end.
TEST_F(StableSortSegments, SortsEveryLengthOfFloatKeysStably) {
  using policy = policy_of<float>;
  const auto zeros = [&](std::size_t n) { return signed_zeros<float>(rng, n); };
  std::vector<std::size_t> lengths;
  for (std::size_t l = 1; l <= warp_merge_max<policy> + 2; ++l) lengths.push_back(l);
  expect_lengths_among_short_ones<float>(lengths, corank::less{}, zeros);
  for (std::size_t top :
       {std::size_t(24), std::size_t(48), std::size_t(96), group_max<policy>, group_max<policy> + 1,
        3 * group_max<policy>, warp_merge_max<policy>, warp_merge_max<policy> + 1}) {
    std::vector<std::size_t> sizes;
    for (std::size_t n = 0; n < 100000; n += sizes.back()) sizes.push_back(rng() % (top + 1));
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    expect_stable_segments(zeros(n), offsets_of<int>(sizes), corank::greater{});
  }
}

/// Lengths past a warp's merges that the groups of whole warps take, to the whole block's (past a
/// window, some lengths): every length just past a warp's, each group width's run lengths (8, 12,
/// 16, 24 keys a lane) +-1, the windows, the long tiles and the groups' longest of keys alone and
/// of pairs +-1, and lengths between at odd strides; each in about 150 segments (past the
/// few-segments mode) with short and empty ones among them, keys alone and pairs
/// (expect_stable_segments), u32 keys of few values and f32 keys of signed zeros (stability shows
/// in the keys alone); then uniform mixes to a window and past the groups' longest (long segments
/// that flag the window of their head and leave its others to the window's sort).
TEST_F(StableSortSegments, SortsEveryLengthTheGroupsOfWarpsTake) {
  using policy = policy_of<std::uint32_t>;
  using pairs_policy = policy_of<std::uint32_t, std::uint32_t>;
  const std::size_t warp_max = warp_merge_max<policy>;
  // The longest segments the groups take (past a window, where the long path's tiles would be
  // mostly empty), keys and pairs: one more takes the long path.
  const std::size_t keys_max = warp_group_max<policy>, pairs_max = warp_group_max<pairs_policy>;
  std::vector<std::size_t> lengths;
  for (std::size_t l = warp_max - 1; l <= warp_max + 20; ++l) lengths.push_back(l);
  for (std::size_t lanes : {std::size_t(64), std::size_t(128), std::size_t(256)})
    for (std::size_t run : {std::size_t(8), std::size_t(12), std::size_t(16), std::size_t(24)})
      for (std::size_t d : {lanes * run - 1, lanes * run, lanes * run + 1})
        if (d <= keys_max + 1) lengths.push_back(d);
  for (std::size_t edge : {policy::window, pairs_policy::window, policy::tile, pairs_policy::tile,
                           keys_max, pairs_max})
    for (std::size_t d : {edge - 1, edge, edge + 1}) lengths.push_back(d);
  for (std::size_t l = warp_max + 21; l < policy::window; l += 97) lengths.push_back(l);
  for (std::size_t l = policy::window + 2; l < keys_max; l += 211) lengths.push_back(l);
  for (std::size_t length : lengths) {
    std::vector<std::size_t> sizes(150, length);
    sizes.insert(sizes.begin() + 75, {1, 3, 0, 2, 700});
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    expect_stable_segments(random_keys<std::uint32_t>(rng, n, 30), offsets_of(sizes),
                           corank::less{});
    expect_stable_segments(signed_zeros<float>(rng, n), offsets_of<int>(sizes), corank::greater{});
  }
  for (std::size_t top :
       {2 * warp_max, policy::window, policy::window + 400, pairs_max + 1, keys_max + 400}) {
    std::vector<std::size_t> sizes;
    for (std::size_t n = 0; n < 400000; n += sizes.back()) sizes.push_back(rng() % (top + 1));
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    expect_stable_segments(random_keys<std::uint32_t>(rng, n, 1ull << 32), offsets_of(sizes),
                           corank::less{});
    expect_stable_segments(signed_zeros<float>(rng, n), offsets_of<int>(sizes), corank::less{});
  }
}

/// Keys of 8 bytes alone, or of 4 with 4-byte values (the pairs of expect_stable_segments):
/// through the lanes, the rank sort, the staged groups, the warp networks (keys whose ties are
/// identical) and the merge windows.
TEST_F(StableSortSegments, SortsEveryLengthOfEightByteItems) {
  expect_lengths_among_short_ones<std::uint32_t>(
      every_eight_byte_length(), corank::less{},
      [&](std::size_t n) { return random_keys<std::uint32_t>(rng, n, 25); });
  expect_lengths_among_short_ones<double>(every_eight_byte_length(), corank::less{},
                                          [&](std::size_t n) { return signed_zeros(rng, n); });
  expect_lengths_among_short_ones<double>(eight_byte_class_bounds(), corank::greater{},
                                          [&](std::size_t n) { return signed_zeros(rng, n); });
  expect_lengths_among_short_ones<std::uint64_t>(
      every_eight_byte_length(), corank::less{},
      [&](std::size_t n) { return random_keys<std::uint64_t>(rng, n, 40); });
  expect_lengths_among_short_ones<float>(
      eight_byte_class_bounds(), corank::greater{},
      [&](std::size_t n) { return random_keys<float>(rng, n, 9); });
  expect_lengths_among_short_ones<pair_key>(eight_byte_class_bounds(), by_hi{}, [&](std::size_t n) {
    return random_keys<pair_key>(rng, n, 12);
  });
}

/// Uniform lengths U[0, top] that put every class of 8-byte items in one group (the lanes and
/// staged groups then leave segments to windows that are sorted anyway), for top at each class's
/// end and one past the warp networks, 32- and 64-bit offsets.
template <class K, class Compare, class KeysOf>
void expect_eight_byte_mixes(std::mt19937_64& rng, Compare comp, KeysOf keys_of) {
  const std::size_t warp_max = group_max<eight_byte_policy>;
  for (std::size_t top :
       {std::size_t(eight_byte_policy::small_sort_above),
        std::size_t(eight_byte_policy::stages::width[0] + 1),
        std::size_t(eight_byte_policy::wide_fill_above + 1),
        std::size_t(eight_byte_policy::small_sort_max),
        std::size_t(eight_byte_policy::small_sort_max + 1), std::size_t(65),
        std::max<std::size_t>(warp_max, 128) + 1, warp_merge_max<eight_byte_policy> + 1}) {
    std::vector<std::size_t> sizes;
    for (std::size_t n = 0; n < 60000; n += sizes.back()) sizes.push_back(rng() % (top + 1));
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    const auto keys = keys_of(n);
    expect_stable_segments(keys, offsets_of(sizes), comp);
    expect_stable_segments(keys, offsets_of<int>(sizes), comp);
  }
}

TEST_F(StableSortSegments, SortsUniformMixesOfEightByteItems) {
  expect_eight_byte_mixes<std::uint32_t>(
      rng, corank::less{}, [&](std::size_t n) { return random_keys<std::uint32_t>(rng, n, 1000); });
  expect_eight_byte_mixes<double>(rng, corank::less{},
                                  [&](std::size_t n) { return signed_zeros(rng, n); });
  expect_eight_byte_mixes<std::uint64_t>(rng, corank::greater{}, [&](std::size_t n) {
    return random_keys<std::uint64_t>(rng, n, ~0ull);
  });
}

/// Windows of short segments where one segment is one past the rank sort's longest (the window
/// then goes the merge way), or exactly that long, at every place in a window.
TEST_F(StableSortSegments, SortsShortWindowsAroundTheRankSortBoundary) {
  const std::size_t rank_max = policy_of<std::uint32_t>::rank_sort_max;
  for (std::size_t longer : {rank_max - 1, rank_max, rank_max + 1})
    for (std::size_t at : {0, 1, 17, 200, 700}) {
      std::vector<std::size_t> sizes;
      for (std::size_t i = 0; i < 900; ++i) sizes.push_back(i == at ? longer : 1 + rng() % 8);
      std::size_t n = 0;
      for (std::size_t s : sizes) n += s;
      expect_stable_segments(random_keys<std::uint32_t>(rng, n, 30), offsets_of(sizes),
                             corank::less{});
    }
  for (std::size_t top : {rank_max, rank_max + 1, 2 * rank_max}) {
    std::vector<std::size_t> sizes;
    for (std::size_t n = 0; n < 100000; n += sizes.back()) sizes.push_back(rng() % (top + 1));
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    expect_stable_segments(random_keys<std::uint32_t>(rng, n, 1000), offsets_of(sizes),
                           corank::less{});
  }
}

/// A segment of every length around the rank sort's longest starting at every distance before a
/// window's end (it ends past the window, in the keys the window reads beyond it, or further),
/// among empty segments, with keys before the first segment and after the last.
TEST_F(StableSortSegments, SortsSegmentsThatCrossAWindowsEnd) {
  const std::size_t window = policy_of<std::uint32_t>::window;
  const std::size_t rank_max = policy_of<std::uint32_t>::rank_sort_max;
  for (std::size_t length : {std::size_t(2), rank_max - 1, rank_max, rank_max + 1, 3 * rank_max})
    for (std::size_t before :
         {std::size_t(1), std::size_t(2), rank_max - 1, rank_max, rank_max + 1, std::size_t(100)}) {
      const std::size_t lead = 5;  // keys before the first segment
      std::vector<std::size_t> sizes;
      std::size_t at = lead;
      while (at + 7 < 2 * window - before) {
        sizes.push_back(rng() % 3 == 0 ? 0 : 1 + rng() % 7);
        at += sizes.back();
      }
      sizes.push_back(2 * window - before - at);  // the next segment starts `before` keys early
      sizes.push_back(0);
      sizes.push_back(length);
      sizes.push_back(0);
      for (int i = 0; i < 40; ++i) sizes.push_back(1 + rng() % 5);
      std::size_t n = lead + 33;  // and keys after the last segment
      for (std::size_t size : sizes) n += size;
      SCOPED_TRACE("length " + std::to_string(length) + ", " + std::to_string(before) +
                   " keys before a window's end");
      expect_stable_segments(random_keys<std::uint32_t>(rng, n, 50), offsets_of(sizes, lead),
                             corank::less{});
    }
}

TEST_F(StableSortSegments, SortsPowersOfTwoAndTheirNeighbours) {
  for (int k = 1; k <= 15; ++k)
    for (std::size_t length :
         {(std::size_t(1) << k) - 1, std::size_t(1) << k, (std::size_t(1) << k) + 1}) {
      const auto sizes = equal_segments(length, 40000);
      std::size_t n = 0;
      for (std::size_t s : sizes) n += s;
      expect_stable_segments(random_keys<std::uint32_t>(rng, n, 1ull << 32), offsets_of(sizes),
                             corank::less{});
    }
}

TEST_F(StableSortSegments, SortsAtWindowAndTileBoundaries) {
  for (std::size_t length : boundary_lengths<std::uint32_t>()) {
    // One alone, three in a row, and behind a short segment that shifts them off the windows.
    for (const auto& sizes :
         {std::vector<std::size_t>{length}, std::vector<std::size_t>{length, length, length},
          std::vector<std::size_t>{5, length, 3, length}}) {
      std::size_t n = 0;
      for (std::size_t s : sizes) n += s;
      expect_stable_segments(random_keys<std::uint32_t>(rng, n, 50), offsets_of(sizes),
                             corank::less{});
    }
  }
}

TEST_F(StableSortSegments, SortsOneLongSegmentLikeAWholeSort) {
  for (std::size_t n : {std::size_t(100000), std::size_t(1) << 20, (std::size_t(1) << 20) + 1})
    expect_stable_segments(random_keys<std::uint32_t>(rng, n, 1000), offsets_of({n}),
                           corank::greater{});
}

/// Segment lengths of one of the benchmark's mixed distributions, about `total` keys.
std::vector<std::size_t> mixed_lengths(std::mt19937_64& rng, int kind, std::size_t total) {
  std::vector<std::size_t> sizes;
  std::size_t sum = 0;
  std::uniform_real_distribution<double> u(0, 1);
  while (sum < total) {
    std::size_t s = 0;
    switch (kind) {
      case 0:
        s = 1 + rng() % 100;
        break;  // U[1, 100]
      case 1:
        s = 1 + rng() % 5000;
        break;  // U[1, 5000]
      case 2:
        s = std::size_t(std::exp(u(rng) * std::log(4096.0)));
        break;  // log-uniform
      case 3:
        s = std::size_t(std::pow(1 - u(rng), -1 / 1.2));
        break;  // power law
      case 4:
        s = sizes.size() == 7 ? total / 2 : 1 + rng() % 5;
        break;  // one huge
      default:
        s = rng() % 2 ? 0 : 1 + rng() % 200;
        break;  // half empty
    }
    s = std::min(s, total);
    sizes.push_back(s), sum += s;
  }
  return sizes;
}

TEST_F(StableSortSegments, SortsMixedDistributions) {
  for (int kind = 0; kind < 6; ++kind) {
    const auto sizes = mixed_lengths(rng, kind, 300000);
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    const auto keys = random_keys<std::uint32_t>(rng, n, 1000);
    expect_stable_segments(keys, offsets_of(sizes), corank::less{});
    expect_stable_segments(keys, offsets_of<int>(sizes), corank::greater{});
  }
}

template <class K, class Compare>
void expect_every_shape(std::mt19937_64& rng, Compare comp, std::uint64_t range) {
  std::vector<std::vector<std::size_t>> shapes = {
      equal_segments(3, 5000), equal_segments(37, 5000), equal_segments(1000, 50000),
      mixed_lengths(rng, 2, 100000), mixed_lengths(rng, 4, 60000)};
  for (std::size_t length : boundary_lengths<K>()) shapes.push_back({1, length, 2});
  for (const auto& sizes : shapes) {
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    expect_stable_segments(random_keys<K>(rng, n, range), offsets_of<std::uint64_t>(sizes), comp);
  }
}

TEST_F(StableSortSegments, SortsKeysOfEveryType) {
  expect_every_shape<std::uint64_t>(rng, corank::less{}, ~0ull);
  expect_every_shape<float>(rng, corank::less{}, 1000);
  expect_every_shape<double>(rng, corank::greater{}, 1ull << 40);
  expect_every_shape<pair_key>(rng, by_hi{}, 20);
  expect_every_shape<wide_key>(rng, wide_order{}, 10);
}

/// Calls of at most few_segments_max segments give every segment to the long path (tiles, then
/// merge passes); one more takes the short segments' kernels.
template <class K, class V = corank::no_value>
constexpr std::size_t few_max = policy_of<K, V>::few_segments_max;

/// The long path's tile in the few-segments mode (tuning few_long_shape).
template <class K, class V = corank::no_value>
constexpr std::size_t few_tile = policy_of<K, V>::few_long_shape::tile;

/// `count` segments of mixed lengths for the few-segments mode: empty, one key, short, about a
/// window, about a window's tile and a few-segments tile (of keys alone and of pairs) and up to
/// five of the latter.
template <class K>
std::vector<std::size_t> few_mixed_lengths(std::mt19937_64& rng, std::size_t count) {
  const std::size_t window = policy_of<K>::window;
  const std::size_t around[] = {policy_of<K>::tile, policy_of<K, std::uint32_t>::tile, few_tile<K>,
                                few_tile<K, std::uint32_t>};
  std::vector<std::size_t> sizes(count);
  for (auto& length : sizes) {
    const std::uint64_t kind = rng() % 7;
    length = kind == 0   ? 0
             : kind == 1 ? 1
             : kind == 2 ? rng() % 64
             : kind == 3 ? window - 1 + rng() % 3
             : kind <= 5 ? around[rng() % 4] - 1 + rng() % 3
                         : rng() % (5 * few_tile<K>);
  }
  return sizes;
}

/// Segments of `sizes` from a random first key, with keys before and after every segment set to
/// `poison` (a value no segment holds: a key written there shows), sorted as keys and as pairs
/// with positions as values (stability) against std::stable_sort.
template <class K, class Offset, class Compare, class KeysOf>
void expect_poisoned_segments(std::mt19937_64& rng, const std::vector<std::size_t>& sizes,
                              Compare comp, KeysOf keys_of, K poison) {
  const std::size_t before = rng() % 40, after = rng() % 40;
  const auto offsets = offsets_of<Offset>(sizes, before);
  const std::size_t n = std::size_t(offsets.back()) + after;
  auto keys = keys_of(n);
  for (std::size_t i = 0; i < before; ++i) keys[i] = poison;
  for (std::size_t i = std::size_t(offsets.back()); i < n; ++i) keys[i] = poison;
  expect_stable_segments(keys, offsets, comp);
}

/// The few-segments mode and the normal one just past it: 1 to few_segments_max + 1 segments of
/// mixed lengths (empty ones, one key, short, window- and tile-sized, several tiles), u32 keys
/// and pairs, 64- and 32-bit offsets, keys outside every segment untouched.
TEST_F(StableSortSegments, SortsEveryCountOfFewSegmentsOfMixedLengths) {
  const auto u32s = [&](std::size_t n) { return random_keys<std::uint32_t>(rng, n, 50); };
  for (std::size_t count = 1; count <= few_max<std::uint32_t> + 1; ++count) {
    SCOPED_TRACE("segments=" + std::to_string(count));
    const auto sizes = few_mixed_lengths<std::uint32_t>(rng, count);
    expect_poisoned_segments<std::uint32_t, std::int64_t>(rng, sizes, corank::less{}, u32s,
                                                          0xdeadbeefu);
    expect_poisoned_segments<std::uint32_t, int>(rng, sizes, corank::greater{}, u32s, 0xdeadbeefu);
  }
  // Both sides of the boundary with every segment long, and with every one short.
  for (std::size_t count : {few_max<std::uint32_t>, few_max<std::uint32_t> + 1}) {
    expect_poisoned_segments<std::uint32_t, std::int64_t>(
        rng, std::vector<std::size_t>(count, 3 * policy_of<std::uint32_t>::tile + 7),
        corank::less{}, u32s, 0xdeadbeefu);
    expect_poisoned_segments<std::uint32_t, std::int64_t>(rng, std::vector<std::size_t>(count, 5),
                                                          corank::less{}, u32s, 0xdeadbeefu);
  }
}

/// One segment (the few-segments mode) at the few-segments tile's multiples (to 16: the passes
/// past pass_launches in one cooperative launch) and the windows' boundaries +-1, from a key past
/// 0 with keys after it (poisoned), and a few of them together.
TEST_F(StableSortSegments, SortsOneSegmentAtTileBoundariesOnTheLongPath) {
  const auto u32s = [&](std::size_t n) { return random_keys<std::uint32_t>(rng, n, 50); };
  std::vector<std::size_t> lengths = boundary_lengths<std::uint32_t>();
  for (std::size_t tile : {few_tile<std::uint32_t>, few_tile<std::uint32_t, std::uint32_t>})
    for (std::size_t tiles : {1, 2, 3, 4, 8, 9, 16})
      for (std::size_t d : {tiles * tile - 1, tiles * tile, tiles * tile + 1}) lengths.push_back(d);
  for (std::size_t l : {std::size_t(1), std::size_t(2), std::size_t(3)}) lengths.push_back(l);
  for (std::size_t length : lengths) {
    SCOPED_TRACE("length=" + std::to_string(length));
    expect_poisoned_segments<std::uint32_t, std::int64_t>(rng, {length}, corank::less{}, u32s,
                                                          0xdeadbeefu);
  }
  // Together, few_segments_max at a time.
  for (std::size_t first = 0; first < lengths.size(); first += few_max<std::uint32_t>) {
    const std::size_t last = std::min(lengths.size(), first + few_max<std::uint32_t>);
    expect_poisoned_segments<std::uint32_t, std::uint64_t>(
        rng, std::vector<std::size_t>(lengths.begin() + first, lengths.begin() + last),
        corank::less{}, u32s, 0xdeadbeefu);
  }
}

/// A small call of the few-segments mode through every kind of merge pass: a segment of 9 tiles
/// + 1 (u32 keys: 4 passes, the last in the cooperative launch; pairs: 5) among empty, one-key and
/// short ones (sized for the sanitizers).
TEST_F(StableSortSegments, SortsFewSegmentsThroughTheMergePasses) {
  const auto u32s = [&](std::size_t n) { return random_keys<std::uint32_t>(rng, n, 50); };
  expect_poisoned_segments<std::uint32_t, std::int64_t>(
      rng, {0, 9 * few_tile<std::uint32_t> + 1, 1, 70, 0, 5}, corank::less{}, u32s, 0xdeadbeefu);
}

/// The few-segments mode for other keys: u64, f32 of both signed zeros (stability shows in the
/// keys alone), 8-byte struct keys under their own order; 32- and 64-bit offsets; the unstable
/// sort too (it takes the stable one).
TEST_F(StableSortSegments, SortsFewSegmentsOfEveryKeyType) {
  for (std::size_t count : {std::size_t(1), std::size_t(2), std::size_t(9), few_max<std::uint64_t>,
                            few_max<std::uint64_t> + 1}) {
    SCOPED_TRACE("segments=" + std::to_string(count));
    expect_poisoned_segments<std::uint64_t, int>(
        rng, few_mixed_lengths<std::uint64_t>(rng, count), corank::less{},
        [&](std::size_t n) { return random_keys<std::uint64_t>(rng, n, ~0ull); }, ~0ull);
    expect_poisoned_segments<float, std::uint64_t>(
        rng, few_mixed_lengths<float>(rng, count), corank::greater{},
        [&](std::size_t n) { return signed_zeros<float>(rng, n); }, 1e30f);
    expect_poisoned_segments<pair_key, std::int64_t>(
        rng, few_mixed_lengths<pair_key>(rng, count), by_hi{},
        [&](std::size_t n) { return random_keys<pair_key>(rng, n, 12); },
        pair_key{0xdeadbeefu, 0xdeadbeefu});
    const auto sizes = few_mixed_lengths<std::uint32_t>(rng, count);
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    expect_unstable_segments(random_keys<std::uint32_t>(rng, n + 3, 30), offsets_of(sizes, 3),
                             corank::less{});
  }
}

/// NaN keys (no strict weak order under <) and a comparator that is not one: the sort ends and
/// segments free of NaN come out sorted.
TEST_F(StableSortSegments, EndsOnNaNKeysAndBadComparators) {
  CORANK_REQUIRE_GPU();
  for (int kind : {0, 2, 4}) {
    const auto sizes = mixed_lengths(rng, kind, 200000);
    const auto offsets = offsets_of(sizes);
    std::vector<float> keys = random_keys<float>(rng, std::size_t(offsets.back()), 1000);
    // NaNs in every other segment only.
    for (std::size_t s = 0; s + 1 < offsets.size(); s += 2)
      for (auto i = offsets[s]; i < offsets[s + 1]; ++i)
        if (rng() % 4 == 0) keys[std::size_t(i)] = std::nanf("");
    device_buffer<std::int64_t> d_offsets(offsets);
    guarded<float> dk(keys);
    CORANK_ASSERT_CUDA(corank::cuda::stable_sort_segments(dk.data(), keys.size(), d_offsets.data(),
                                                          sizes.size(), corank::less{}));
    CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
    const auto got = dk.result();
    for (std::size_t s = 1; s + 1 < offsets.size(); s += 2) {
      std::vector<float> expected(keys.begin() + offsets[s], keys.begin() + offsets[s + 1]);
      std::stable_sort(expected.begin(), expected.end());
      ASSERT_TRUE(std::equal(expected.begin(), expected.end(), got.begin() + offsets[s]))
          << "segment " << s;
    }
    guarded<float> dk2(keys), dk3(keys);
    CORANK_ASSERT_CUDA(corank::cuda::stable_sort_segments(dk2.data(), keys.size(), d_offsets.data(),
                                                          sizes.size(), less_or_equal{}));
    CORANK_ASSERT_CUDA(corank::cuda::sort_segments(dk3.data(), keys.size(), d_offsets.data(),
                                                   sizes.size(), corank::less{}));
    CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
    dk2.result();  // the guards
    dk3.result();
  }
}

/// `sizes` sorted by a captured graph, replayed twice (the second time on sorted keys).
void expect_sorted_in_a_graph(std::mt19937_64& rng, const std::vector<std::size_t>& sizes) {
  std::size_t n = 0;
  for (std::size_t s : sizes) n += s;
  const auto keys = random_keys<std::uint32_t>(rng, n, 1000);
  const auto offsets = offsets_of(sizes);
  std::vector<std::uint32_t> expected = keys;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    std::stable_sort(expected.begin() + offsets[s], expected.begin() + offsets[s + 1]);
  device_buffer<std::int64_t> d_offsets(offsets);
  guarded<std::uint32_t> dk(keys);
  cudaStream_t stream;
  CORANK_ASSERT_CUDA(cudaStreamCreate(&stream));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CORANK_ASSERT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  const cudaError_t sorted = corank::cuda::stable_sort_segments(
      dk.data(), n, d_offsets.data(), offsets.size() - 1, corank::less{}, stream);
  CORANK_ASSERT_CUDA(cudaStreamEndCapture(stream, &graph));
  CORANK_ASSERT_CUDA(sorted);
  CORANK_ASSERT_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 2; ++replay) {  // sorted input the second time
    CORANK_ASSERT_CUDA(cudaGraphLaunch(exec, stream));
    CORANK_ASSERT_CUDA(cudaStreamSynchronize(stream));
    const auto got = dk.result();
    ASSERT_TRUE(got == expected) << "replay " << replay << ": keys differ first at "
                                 << first_difference(got, expected);
  }
  CORANK_ASSERT_CUDA(cudaGraphExecDestroy(exec));
  CORANK_ASSERT_CUDA(cudaGraphDestroy(graph));
  CORANK_ASSERT_CUDA(cudaStreamDestroy(stream));
}

/// Captured in a CUDA graph and replayed: nothing comes back to the host, and the later merge
/// passes' cooperative launch is captured too (segments of 2^20 and 100000 keys need them); in the
/// general path (3005 segments) and the few-segments mode (the first five alone).
TEST_F(StableSortSegments, SortsInACapturedGraph) {
  CORANK_REQUIRE_GPU();
  std::vector<std::size_t> sizes{std::size_t(1) << 20, 3, 100000, 0, 17};
  for (int i = 0; i < 3000; ++i) sizes.push_back(rng() % 60);
  for (bool few : {false, true}) {
    SCOPED_TRACE(few ? "few segments" : "many segments");
    expect_sorted_in_a_graph(
        rng, few ? std::vector<std::size_t>(sizes.begin(), sizes.begin() + 5) : sizes);
  }
}

/// Segments of `sizes` one-byte keys (64-bit offsets), too many for a host reference by segment:
/// checked by key counts and order. Runs where the device has the memory (skips otherwise).
void expect_large_byte_segments_sorted(std::mt19937_64& rng,
                                       const std::vector<std::size_t>& sizes) {
  CORANK_REQUIRE_GPU();
  const auto offsets = offsets_of<std::uint64_t>(sizes);
  const std::size_t n = offsets.back();
  std::size_t free_bytes = 0, total_bytes = 0;
  CORANK_ASSERT_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < 4 * n + (std::size_t(1) << 30)) GTEST_SKIP() << "not enough device memory";
  std::vector<std::uint8_t> keys(n);
  std::uint64_t x = rng();
  for (auto& k : keys)
    x = x * 6364136223846793005ull + 1442695040888963407ull, k = std::uint8_t(x >> 56);
  device_buffer<std::uint64_t> d_offsets(offsets);
  device_buffer<std::uint8_t> dk(keys);
  CORANK_ASSERT_CUDA(corank::cuda::stable_sort_segments(dk.data(), n, d_offsets.data(),
                                                        sizes.size(), corank::less{}));
  CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
  const auto got = dk.to_host();
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    std::size_t before[256] = {}, after[256] = {};
    for (auto i = offsets[s]; i < offsets[s + 1]; ++i) ++before[keys[i]], ++after[got[i]];
    ASSERT_TRUE(std::equal(before, before + 256, after))
        << "keys changed in segment " << s << " of " << sizes.size();
    ASSERT_TRUE(std::is_sorted(got.begin() + std::ptrdiff_t(offsets[s]),
                               got.begin() + std::ptrdiff_t(offsets[s + 1])))
        << "segment " << s << " of " << sizes.size();
  }
}

/// More than 2^31 keys: one segment of 2^31 + 3 among short ones.
TEST_F(StableSortSegments, SortsASegmentOfMoreThan2To31Keys) {
  expect_large_byte_segments_sorted(rng, {5, 1000, (std::size_t(1) << 31) + 3, 7, 2});
}

/// More windows than one round of the windows' kernels (a thread per window, a grid of at most
/// eight blocks of 256 a multiprocessor): three segments in turn, a long one (its window goes to
/// the long path) after short ones that the rank sort takes, or after one that only the merge
/// windows take, so that both kernels loop past their first round.
TEST_F(StableSortSegments, SortsMoreWindowsThanTheWindowKernelsTakeInOneRound) {
  CORANK_REQUIRE_GPU();
  int sms = 0;
  CORANK_ASSERT_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const std::size_t window = policy_of<std::uint8_t>::window;
  const std::size_t rank_max = policy_of<std::uint8_t>::rank_sort_max;
  const std::size_t windows = std::size_t(256) * 8 * std::size_t(sms) * 21 / 20;
  std::vector<std::size_t> sizes;
  for (std::size_t n = 0, i = 0; n < windows * window; ++i) {
    const std::size_t first = i % 2 ? rank_max / 2 : 2 * rank_max + rng() % 100;
    for (std::size_t s : {first, rank_max - rng() % 4, window + 1 + rng() % 300})
      sizes.push_back(s), n += s;
  }
  expect_large_byte_segments_sorted(rng, sizes);
}

// ---- sort_segments (not stable)

class SortSegments : public corank::test::seeded_test {};

TEST_F(SortSegments, HandlesNoSegmentsAndEmptySegments) {
  CORANK_REQUIRE_GPU();
  CORANK_ASSERT_CUDA(corank::cuda::sort_segments(static_cast<std::uint32_t*>(nullptr), 0,
                                                 static_cast<const int*>(nullptr), 0));
  expect_unstable_segments(std::vector<std::uint32_t>{}, offsets_of<int>({0, 0, 0}),
                           corank::less{});
  expect_unstable_segments(random_keys<std::uint32_t>(rng, 10, 100),
                           offsets_of<int>({0, 3, 0, 0, 7, 0}), corank::less{});
}

TEST_F(SortSegments, SortsOneSegmentOfEverySizeClass) {
  for (std::size_t n :
       {1, 2, 32, 33, 64, 65, 256, 257, 1023, 1024, 1025, 2048, 2049, 8191, 8192, 8193, 100000})
    expect_unstable_segments(random_keys<std::uint32_t>(rng, n, 1ull << 32), offsets_of<int>({n}),
                             corank::less{});
}

/// Every length the warps sort in registers or in shared memory, keys and pairs (values must
/// follow their keys through the register networks' shuffles).
TEST_F(SortSegments, SortsEveryLengthOfTheWarpNetworks) {
  for (std::size_t length = 1; length <= 300; length += length < 140 ? 1 : 37) {
    std::vector<std::size_t> sizes = equal_segments(length, 4000);
    sizes.insert(sizes.begin() + 1, {0, length + 1});
    std::size_t n = 0;
    for (std::size_t s : sizes) n += s;
    expect_unstable_segments(random_keys<std::uint32_t>(rng, n, 50), offsets_of<int>(sizes),
                             corank::less{});
  }
  std::vector<std::size_t> sizes;
  for (std::size_t n = 0; n < 200000; n += sizes.back()) sizes.push_back(rng() % 200);
  std::size_t n = 0;
  for (std::size_t s : sizes) n += s;
  expect_unstable_segments(random_keys<double>(rng, n, 1000), offsets_of(sizes), corank::greater{});
}

TEST_F(SortSegments, SortsMixedSizes) {
  std::vector<std::size_t> sizes;
  std::size_t total = 0;
  while (total < 600000) {
    const int cls = int(rng() % 10);
    const std::size_t s = cls < 4   ? rng() % 40
                          : cls < 7 ? rng() % 1100
                          : cls < 9 ? rng() % 9000
                                    : rng() % 70000;
    sizes.push_back(s), total += s;
  }
  const auto keys = random_keys<std::uint32_t>(rng, total, 1000);
  expect_unstable_segments(keys, offsets_of<int>(sizes), corank::less{});
  expect_unstable_segments(keys, offsets_of<int>(sizes), corank::greater{});
}

TEST_F(SortSegments, SortsUniformSegments) {
  for (std::size_t size : {5, 32, 128, 1024}) {
    const std::vector<std::size_t> sizes(200000 / size, size);
    expect_unstable_segments(random_keys<std::uint32_t>(rng, sizes.size() * size, 1ull << 32),
                             offsets_of<int>(sizes), corank::less{});
  }
}

}  // namespace

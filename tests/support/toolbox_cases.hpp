// Inputs and references of the co-rank toolbox's tests (load-balancing search, sorted search, set
// operations, k-way merge), CPU and GPU alike: pairs of sorted inputs of every awkward shape, and
// the std:: answers with each output's origin recorded, so the choice of element among equal keys
// is checked, not assumed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "corank/merge_path_walk.hpp"
#include "support/merge_reference.hpp"

namespace corank::test {

/// A pair of sorted inputs and what it exercises.
template <class T>
struct sorted_pair {
  std::string name;
  std::vector<T> a, b;
};

/// Sorted pairs of every shape the toolbox must survive, sizes around `tile` (a GPU tile, or a
/// CPU piece): empty sides, all-equal keys, one side entirely before the other, huge runs of one
/// key in both, random keys with few and many ties, sizes at tile boundaries +-1.
template <class T>
std::vector<sorted_pair<T>> awkward_pairs(std::mt19937_64& rng, std::size_t tile) {
  std::vector<sorted_pair<T>> cases;
  const auto add = [&](std::string name, std::vector<T> a, std::vector<T> b) {
    cases.push_back({std::move(name), std::move(a), std::move(b)});
  };
  const auto filled = [](std::size_t n, T value) { return std::vector<T>(n, value); };
  add("both empty", {}, {});
  add("A empty", {}, sorted_keys<T>(rng, 3 * tile + 1, 100));
  add("B empty", sorted_keys<T>(rng, 3 * tile - 1, 100), {});
  add("all equal", filled(2 * tile + 3, T(7)), filled(3 * tile - 5, T(7)));
  add("all equal, A longer", filled(5 * tile + 1, T(7)), filled(tile / 3, T(7)));
  add("all equal, B longer", filled(tile / 2, T(7)), filled(4 * tile + 7, T(7)));
  {
    auto a = sorted_keys<T>(rng, 2 * tile + 1, 50), b = sorted_keys<T>(rng, 2 * tile - 1, 50);
    for (T& x : b) x = T(x + 60);
    add("A before B", a, b);
    add("B before A", b, a);
  }
  {  // one key repeated far past a tile in both inputs, between other keys
    std::vector<T> a = sorted_keys<T>(rng, tile / 2, 10), b = sorted_keys<T>(rng, tile / 3, 10);
    a.insert(a.end(), 6 * tile + 5, T(20));
    b.insert(b.end(), 4 * tile + 9, T(20));
    for (T x : sorted_keys<T>(rng, tile, 10)) a.push_back(T(x + 30));
    for (T x : sorted_keys<T>(rng, tile / 2, 10)) b.push_back(T(x + 30));
    add("huge duplicate runs", a, b);
  }
  for (const std::size_t n : {tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 1})
    add("tile boundary " + std::to_string(n), sorted_keys<T>(rng, n, 1000),
        sorted_keys<T>(rng, n + 1, 1000));
  add("one each", {T(3)}, {T(3)});
  add("few ties", sorted_keys<T>(rng, 7 * tile + 3, 1u << 30),
      sorted_keys<T>(rng, 5 * tile, 1u << 30));
  add("many ties", sorted_keys<T>(rng, 7 * tile + 3, 40), sorted_keys<T>(rng, 9 * tile + 2, 40));
  add("lopsided", sorted_keys<T>(rng, 11 * tile, 3000), sorted_keys<T>(rng, 5, 3000));
  return cases;
}

/// std::set_* of `op` on (key, origin) pairs ordered by key: the keys and origins to expect.
template <class T, class Compare>
void reference_set_operation(set_op op, const std::vector<T>& a, const std::vector<T>& b,
                             Compare comp, std::vector<T>& keys,
                             std::vector<std::uint64_t>& values) {
  struct item {
    T key;
    std::uint64_t value;
  };
  std::vector<item> ia(a.size()), ib(b.size()), out;
  for (std::size_t i = 0; i < a.size(); ++i) ia[i] = {a[i], origin(0, i)};
  for (std::size_t i = 0; i < b.size(); ++i) ib[i] = {b[i], origin(1, i)};
  const auto by_key = [&](const item& x, const item& y) { return comp(x.key, y.key); };
  const auto to = std::back_inserter(out);
  switch (op) {
    case set_op::unite:
      std::set_union(ia.begin(), ia.end(), ib.begin(), ib.end(), to, by_key);
      break;
    case set_op::intersect:
      std::set_intersection(ia.begin(), ia.end(), ib.begin(), ib.end(), to, by_key);
      break;
    case set_op::difference:
      std::set_difference(ia.begin(), ia.end(), ib.begin(), ib.end(), to, by_key);
      break;
    case set_op::symmetric_difference:
      std::set_symmetric_difference(ia.begin(), ia.end(), ib.begin(), ib.end(), to, by_key);
      break;
  }
  keys.resize(out.size());
  values.resize(out.size());
  for (std::size_t i = 0; i < out.size(); ++i) keys[i] = out[i].key, values[i] = out[i].value;
}

inline const char* set_op_name(set_op op) {
  switch (op) {
    case set_op::unite:
      return "union";
    case set_op::intersect:
      return "intersection";
    case set_op::difference:
      return "difference";
    case set_op::symmetric_difference:
      return "symmetric difference";
  }
  return "?";
}

inline constexpr set_op every_set_op[] = {set_op::unite, set_op::intersect, set_op::difference,
                                          set_op::symmetric_difference};

/// Segment lengths of every awkward shape for the load-balancing search: empty segments at the
/// start, middle and end, one huge segment among tiny ones, runs of empty ones past a tile.
inline std::vector<std::vector<std::size_t>> awkward_segment_lengths(std::mt19937_64& rng,
                                                                     std::size_t tile) {
  std::vector<std::vector<std::size_t>> cases;
  cases.push_back({});
  cases.push_back({0});
  cases.push_back({0, 0, 0});
  cases.push_back({5});
  cases.push_back({tile - 1, 1, tile + 1});
  cases.push_back({0, 0, 20 * tile + 3, 0, 1, 0});
  std::vector<std::size_t> many_empty(3 * tile + 5, 0);
  many_empty[tile] = 7;
  many_empty.back() = 2;
  cases.push_back(many_empty);
  std::vector<std::size_t> huge_among_tiny(4 * tile, 1);
  huge_among_tiny[2 * tile + 1] = 9 * tile;
  cases.push_back(huge_among_tiny);
  std::uniform_int_distribution<std::size_t> length(0, 9);
  std::vector<std::size_t> random_short(7 * tile + 3);
  for (auto& l : random_short) l = length(rng);
  cases.push_back(random_short);
  return cases;
}

/// CSR offsets (lengths.size() + 1 entries) of segment lengths.
template <class Offset>
std::vector<Offset> offsets_of(const std::vector<std::size_t>& lengths) {
  std::vector<Offset> offsets(lengths.size() + 1, 0);
  for (std::size_t s = 0; s < lengths.size(); ++s) offsets[s + 1] = Offset(offsets[s] + lengths[s]);
  return offsets;
}

/// The segment of each item, by a walk over the segments.
inline std::vector<std::uint32_t> reference_segments(const std::vector<std::size_t>& lengths) {
  std::vector<std::uint32_t> segment;
  for (std::size_t s = 0; s < lengths.size(); ++s)
    segment.insert(segment.end(), lengths[s], std::uint32_t(s));
  return segment;
}

/// A join's pairs: (a[k], b[k]).
struct join_pairs {
  std::vector<std::size_t> a, b;
};

/// The nested-loop join: pairs by i, then j; A's unmatched in place; B's unmatched last.
template <class T>
join_pairs nested_loop_join(join_kind kind, const std::vector<T>& a, const std::vector<T>& b) {
  join_pairs r;
  for (std::size_t i = 0; i < a.size(); ++i) {
    bool matched = false;
    for (std::size_t j = 0; j < b.size(); ++j)
      if (a[i] == b[j]) r.a.push_back(i), r.b.push_back(j), matched = true;
    if (!matched && kind != join_kind::inner) r.a.push_back(i), r.b.push_back(no_match);
  }
  if (kind == join_kind::full_outer)
    for (std::size_t j = 0; j < b.size(); ++j)
      if (std::find(a.begin(), a.end(), b[j]) == a.end()) r.a.push_back(no_match), r.b.push_back(j);
  return r;
}

inline constexpr join_kind every_join_kind[] = {join_kind::inner, join_kind::left_outer,
                                                join_kind::full_outer};

}  // namespace corank::test

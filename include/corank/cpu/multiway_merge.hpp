// k-way merge of sorted runs on multicore CPUs (OpenMP).
//
//   multiway_merge(keys, offsets, num_runs, out, comp, options)
//   multiway_merge_by_key(keys, values, offsets, num_runs, keys_out, values_out, comp, options)
//     run r = keys[offsets[r], offsets[r + 1]) (CSR offsets: num_runs + 1 entries, offsets[0] = 0,
//     non-decreasing), each sorted by comp; out[0, offsets[num_runs]) = their stable merge: equal
//     keys in run order, then in their order within the run.
//
// Up to multiway_options::one_pass_most_runs runs, one pass: the output is cut into equal pieces,
// each piece finds where it starts in every run with the k-way co-rank (multiway_co_rank.hpp)
// and merges its k sub-runs straight into the output through a cascade of two-way merges whose
// inner nodes pass items up in small buffers that stay in cache (merge_cascade): every item is
// read from memory once and written once. More runs: by default a tree of pairwise passes (or
// passes of k-way merges of most_runs_per_pass runs at most), pass p merging
// runs 2q and 2q + 1 of the pass before (adjacent, so ties keep run order), each pair cut into
// pieces by co_rank and all pieces of the pass scheduled together (cpu/merge.hpp's
// merge_in_pieces), ceil(log2 k) passes between the output and one buffer of n elements.
// Preconditions: as cpu::merge for each run. Offsets that are no CSR (offsets[0] != 0, a run
// that ends before it starts), null pointers with items, and outputs that overlap the inputs
// throw std::invalid_argument before anything is read or written.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "corank/cpu/item_buffer.hpp"
#include "corank/cpu/merge.hpp"
#include "corank/cpu/options.hpp"
#include "corank/functional.hpp"
#include "corank/multiway_co_rank.hpp"
#include "corank/overlaps.hpp"

namespace corank::cpu {

/// The options of the k-way merge.
struct multiway_options : options {
  multiway_options() = default;
  multiway_options(const options& o) : options(o) {}  // NOLINT: implicit, as the other calls take
  /// Up to this many runs one pass merges them all.
  std::size_t one_pass_most_runs = tuning::multiway_one_pass_most_runs;
  /// More runs take ceil(log_F k) passes of merges of at most F = most_runs_per_pass runs each,
  /// each pass as narrow as that allows; 2 (or less): the tree of pairwise passes.
  std::size_t most_runs_per_pass = tuning::multiway_most_runs_per_pass;
};

namespace detail {

/// A sequential stable merge of k sorted sub-runs of one array (keys, values alongside) into an
/// output, as a balanced tree of two-way merges: adjacent sub-runs pairwise, the left one first
/// on ties, so equal keys keep run order. The root writes the output; every other inner node
/// holds a buffer of `capacity` items that its parent drains and that is refilled from its
/// children when empty, so with the buffers in cache an item moves through log2 k merges there
/// but is read from memory once and written once. Each merge step runs as the interleaved
/// two-way merge (merge_streams.hpp) over what both children hold, up to where a child that may
/// have more to come would run out. Any comparator ends, and every item is written once.
template <class KeyIn, class ValIn>
class merge_cascade {
  using size = std::ptrdiff_t;
  using key_type = typename std::iterator_traits<KeyIn>::value_type;
  using value_type = buffer_item_t<ValIn>;
  static constexpr bool has_values = !std::is_same_v<ValIn, discard_iterator>;

 public:
  /// Merges the sub-runs [begin[j], end[j]) of (keys, vals), j < k, into (out, vout).
  template <class KeyOut, class ValOut, class Compare>
  void merge(KeyIn keys, ValIn vals, const size* begin, const size* end, size k, KeyOut out,
             ValOut vout, Compare comp) {
    if (k <= 0) return;
    size total = 0;
    for (size j = 0; j < k; ++j) total += end[j] - begin[j];
    if (k == 1) {
      merge_streams_by_key<1>(keys + begin[0], keys + end[0], vals + begin[0], keys + end[0],
                              keys + end[0], vals + end[0], out, vout, comp, 1);
      return;
    }
    keys_ = keys, vals_ = vals;
    // Buffers: within the per-thread budget, at least a few hundred items each (a merge step
    // costs a few searches), never more than the whole piece.
    const size item_bytes = size(sizeof(key_type) + (has_values ? sizeof(value_type) : 0));
    const size buffers = k - 2 > 0 ? k - 2 : 1;
    capacity_ = size(tuning::multiway_cascade_bytes) / (buffers * item_bytes);
    if (capacity_ < tuning::multiway_cascade_min_items)
      capacity_ = tuning::multiway_cascade_min_items;
    if (capacity_ > total) capacity_ = total > 0 ? total : 1;
    key_buffer_.reserve(std::size_t(buffers * capacity_));
    value_buffer_.reserve(std::size_t(buffers * capacity_));
    nodes_.clear();
    for (size j = 0; j < k; ++j)
      nodes_.push_back({true, begin[j], end[j] - begin[j], true, -1, -1, 0});
    size buffered = 0;
    const int root = build(0, k, buffered, true);
    fill(root, out, vout, total, comp);
  }

 private:
  struct node {
    bool leaf;
    size at, avail;  // the items this node holds now: at (an input position or a buffer
                     // offset), avail of them
    bool finished;   // nothing more will come
    int left, right;
    size buffer;  // an inner node's buffer offset
  };

  /// The subtree over sub-runs [lo, hi) (its root is returned), buffer offsets handed out from
  /// `buffered` on.
  int build(size lo, size hi, size& buffered, bool root) {
    if (hi - lo == 1) return int(lo);
    const size mid = lo + (hi - lo) / 2;
    const int left = build(lo, mid, buffered, false), right = build(mid, hi, buffered, false);
    nodes_.push_back({false, 0, 0, false, left, right, buffered});
    if (!root) buffered += capacity_;
    return int(nodes_.size() - 1);
  }

  /// Calls f(key iterator, value iterator) at what node n holds.
  template <class F>
  void at_items(const node& n, F&& f) {
    if (n.leaf)
      f(keys_ + n.at, vals_ + n.at);
    else
      f(key_buffer_.begin() + n.at, value_buffer_.begin() + n.at);
  }

  /// Writes up to `space` outputs of node n's merge to (out, vout); fewer only when its children
  /// have run out. Returns how many it wrote.
  template <class KeyOut, class ValOut, class Compare>
  size fill(int n, KeyOut out, ValOut vout, size space, Compare comp) {
    node& a = nodes_[std::size_t(nodes_[std::size_t(n)].left)];
    node& b = nodes_[std::size_t(nodes_[std::size_t(n)].right)];
    size written = 0;
    while (written < space) {
      if (a.avail == 0 && !a.finished) refill(a, comp);
      if (b.avail == 0 && !b.finished) refill(b, comp);
      if (a.avail == 0 && b.avail == 0) break;  // both finished
      const size room = space - written;
      size from_a = 0, from_b = 0;
      if (a.avail == 0 || b.avail == 0) {
        from_a = a.avail < room ? a.avail : room;
        from_b = b.avail < room ? b.avail : room;
      } else {
        at_items(a, [&](auto ka, auto) {
          at_items(b, [&](auto kb, auto) {
            // The merge of what both hold agrees with the whole merge until a child that may
            // have more to come runs out: past A's last item (B's ties come after it) or past
            // B's last (A's ties come before it).
            size count = a.avail + b.avail;
            if (!a.finished) {
              const auto& last = ka[a.avail - 1];
              const size until = a.avail + partition_point_on_grid(b.avail, [&](size i) {
                                   return bool(comp(kb[i], last));
                                 });
              count = until < count ? until : count;
            }
            if (!b.finished) {
              const auto& last = kb[b.avail - 1];
              const size until = b.avail + partition_point_on_grid(
                                               a.avail, [&](size i) { return !comp(last, ka[i]); });
              count = until < count ? until : count;
            }
            count = room < count ? room : count;
            from_a = co_rank(count, ka, a.avail, kb, b.avail, comp);
            from_b = count - from_a;
          });
        });
      }
      at_items(a, [&](auto ka, auto va) {
        at_items(b, [&](auto kb, auto vb) {
          merge_streams_by_key<tuning::merge_streams>(ka, ka + from_a, va, kb, kb + from_b, vb,
                                                      out + written, vout + written, comp,
                                                      tuning::merge_min_stream_items);
        });
      });
      a.at += from_a, a.avail -= from_a;
      b.at += from_b, b.avail -= from_b;
      written += from_a + from_b;
    }
    return written;
  }

  /// Refills inner node n's (empty) buffer from its children.
  template <class Compare>
  void refill(node& n, Compare comp) {
    const int index = int(&n - nodes_.data());
    n.at = n.buffer;
    n.avail = fill(index, key_buffer_.begin() + n.buffer, value_buffer_.begin() + n.buffer,
                   capacity_, comp);
    const node& a = nodes_[std::size_t(n.left)];
    const node& b = nodes_[std::size_t(n.right)];
    n.finished = a.avail == 0 && a.finished && b.avail == 0 && b.finished;
  }

  KeyIn keys_{};
  ValIn vals_{};
  size capacity_ = 0;
  std::vector<node> nodes_;
  item_buffer<key_type> key_buffer_;
  item_buffer<value_type> value_buffer_;
};

/// One pass: runs of `width` input runs each (boundaries at offsets[min(r * width, k)]) merged
/// pairwise from (keys, vals) into (keys_out, vals_out).
template <class KeyIn, class ValIn, class KeyOut, class ValOut, class Offset, class Compare>
void merge_run_pairs(KeyIn keys, ValIn vals, const Offset* offsets, std::size_t runs,
                     std::size_t width, KeyOut keys_out, ValOut vals_out, Compare comp,
                     const options& opt) {
  using size = std::ptrdiff_t;
  const auto at = [&](std::size_t r) { return size(offsets[r < runs ? r : runs]); };
  const size pairs = size((runs + 2 * width - 1) / (2 * width));
  const size total = at(runs);
  const auto inputs = [&](size q) {
    const size first = at(std::size_t(q) * 2 * width),
               middle = at((std::size_t(q) * 2 + 1) * width),
               last = at((std::size_t(q) + 1) * 2 * width);
    return merge_inputs{keys + first,  vals + first,  middle - first,   keys + middle,
                        vals + middle, last - middle, keys_out + first, vals_out + first};
  };
  const int threads = threads_for(std::size_t(total), opt);
  const size chunks =
      chunk_count(total, threads, tuning::merge_chunks_per_thread, tuning::merge_min_chunk_items);
  // Pieces per pair: the pass's chunks shared out, at least one each.
  const size parts = chunks / pairs > 0 ? chunks / pairs : 1;
  piece_cuts shared;
  if (decltype(inputs(0))::changes_inputs) shared.cuts.resize(std::size_t(pairs * (parts + 1)));
  region_errors errors;
#pragma omp parallel num_threads(threads)
  merge_in_pieces(pairs, parts, inputs, shared, errors, comp);
  errors.rethrow();
}

/// The starts of consecutive runs, as multiway_co_rank reads them: run j of a group starts at
/// start(first + j).
template <class RunStart>
struct group_starts {
  const RunStart& start;
  std::ptrdiff_t first;
  std::ptrdiff_t operator[](std::ptrdiff_t j) const { return start(first + j); }
};

/// Inside a parallel region, called by every thread: groups of `fan_in` consecutive runs (run i
/// = [start(i), start(i + 1)) of (keys, vals), i < runs) each merged stably into the same
/// positions of (out, vout), in one pass. Each group's output is cut into `parts` pieces of equal
/// output, scheduled dynamically; a piece finds its first and last cut in every run with
/// multiway_co_rank and merges its sub-runs through the thread's merge_cascade. Cuts that
/// disagree (a violated precondition: a piece would have a negative length in some run) set
/// `shared.clamped`, and after the loop's barrier every group is merged again whole by one
/// thread, so the output is still a permutation of the inputs. Exceptions are kept in `errors`.
template <class KeyIn, class ValIn, class KeyOut, class ValOut, class RunStart, class Compare>
void merge_groups_in_pieces(KeyIn keys, ValIn vals, KeyOut out, ValOut vout, const RunStart& start,
                            std::ptrdiff_t runs, std::ptrdiff_t fan_in, std::ptrdiff_t parts,
                            piece_cuts& shared, region_errors& errors, Compare comp) {
  using size = std::ptrdiff_t;
  const size groups = (runs + fan_in - 1) / fan_in;
  merge_cascade<KeyIn, ValIn> cascade;
  // Per thread: the piece's first and last cut, the co-rank's scratch, the sub-runs' bounds.
  std::vector<size> cuts(std::size_t(6 * fan_in));
  size *first_cut = cuts.data(), *last_cut = first_cut + fan_in, *work = last_cut + fan_in,
       *begin = work + 2 * fan_in, *end = begin + fan_in;
  const auto group = [&](size g) {
    const size first = g * fan_in, k = fan_in < runs - first ? fan_in : runs - first;
    return std::pair<size, size>{first, k};
  };
#pragma omp for schedule(dynamic, 1)
  for (size piece = 0; piece < groups * parts; ++piece)
    errors.run([&] {
      const auto [first, k] = group(piece / parts);
      const size p = piece % parts, base = start(first), total = start(first + k) - base;
      const group_starts<RunStart> starts{start, first};
      multiway_co_rank(keys, starts, k, even_split(total, parts, p), first_cut, work, comp);
      multiway_co_rank(keys, starts, k, even_split(total, parts, p + 1), last_cut, work, comp);
      for (size j = 0; j < k; ++j) {
        if (last_cut[j] < first_cut[j]) {
          shared.clamped.store(true, std::memory_order_relaxed);
          return;
        }
        begin[j] = starts[j] + first_cut[j], end[j] = starts[j] + last_cut[j];
      }
      const size at = base + even_split(total, parts, p);
      cascade.merge(keys, vals, begin, end, k, out + at, vout + at, comp);
    });
  // Every thread reads the same flag: it is set only before the barrier above.
  if (shared.clamped.load(std::memory_order_relaxed)) {
#pragma omp for schedule(dynamic, 1)
    for (size g = 0; g < groups; ++g)
      errors.run([&] {
        const auto [first, k] = group(g);
        for (size j = 0; j < k; ++j) begin[j] = start(first + j), end[j] = start(first + j + 1);
        cascade.merge(keys, vals, begin, end, k, out + start(first), vout + start(first), comp);
      });
  }
}

/// One pass of `fan_in`-way merges: runs of `width` input runs each (boundaries at
/// offsets[min(r * width, k)]) merged in groups of fan_in from (keys, vals) into (keys_out,
/// vals_out), every group cut into pieces by the k-way co-rank (merge_groups_in_pieces).
template <class KeyIn, class ValIn, class KeyOut, class ValOut, class Offset, class Compare>
void merge_run_groups(KeyIn keys, ValIn vals, const Offset* offsets, std::size_t runs,
                      std::size_t width, std::size_t fan_in, KeyOut keys_out, ValOut vals_out,
                      Compare comp, const options& opt) {
  using size = std::ptrdiff_t;
  const auto start = [&](size i) {
    const std::size_t r = std::size_t(i) * width;
    return size(offsets[r < runs ? r : runs]);
  };
  const size merged_runs = size((runs + width - 1) / width);
  const size groups = (merged_runs + size(fan_in) - 1) / size(fan_in);
  const size total = size(offsets[runs]);
  const int threads = threads_for(std::size_t(total), opt);
  // Pieces of at least merge_min_chunk_items outputs, and of multiway_min_piece_items_per_run
  // per run: each piece's two k-way co-ranks cost O(k log^2 n) comparisons.
  const size per_run = size(fan_in) * tuning::multiway_min_piece_items_per_run;
  const size chunks = chunk_count(
      total, threads, tuning::merge_chunks_per_thread,
      per_run > tuning::merge_min_chunk_items ? per_run : tuning::merge_min_chunk_items);
  const size parts = chunks / groups > 0 ? chunks / groups : 1;
  piece_cuts shared;
  region_errors errors;
#pragma omp parallel num_threads(threads)
  merge_groups_in_pieces(keys, vals, keys_out, vals_out, start, merged_runs, size(fan_in), parts,
                         shared, errors, comp);
  errors.rethrow();
}

/// The fan-in of a k-way merge whose passes merge at most `most` runs each: as few passes as
/// that allows (ceil(log_most k)), each as narrow as they can be (the least F with F^passes >=
/// k). `most` < 3: the pairwise tree (2).
inline std::size_t multiway_fan_in(std::size_t runs, std::size_t most) {
  if (most < 3 || runs <= 2) return 2;
  int passes = 0;
  for (std::size_t width = 1; width<runs; width = width> runs / most ? runs : width * most)
    ++passes;
  std::size_t fan_in = 2;
  const auto covers = [&](std::size_t f) {
    std::size_t width = 1;
    for (int p = 0; p < passes && width < runs; ++p) width = width > runs / f ? runs : width * f;
    return width >= runs;
  };
  while (!covers(fan_in)) ++fan_in;
  return fan_in;
}

/// The fan-in of the passes that merge `runs` runs under `opt`: all of them up to
/// one_pass_most_runs, else multiway_fan_in(runs, most_runs_per_pass).
inline std::size_t multiway_fan_in(std::size_t runs, const multiway_options& opt) {
  if (runs <= opt.one_pass_most_runs) return runs > 2 ? runs : 2;
  return multiway_fan_in(runs, opt.most_runs_per_pass);
}

/// Passes of `fan_in`-way merges (2: pairwise, merge_run_pairs; more: merge_run_groups) between
/// the output and one buffer of n elements (when there are two passes or more), the last landing
/// in the output.
template <class Key, class Val, class Offset, class KeyOut, class ValOut, class Compare>
void multiway_merge_passes(const Key* keys, const Val* vals, const Offset* offsets,
                           std::size_t runs, std::size_t fan_in, KeyOut keys_out, ValOut vals_out,
                           Compare comp, const options& opt) {
  constexpr bool has_values = !std::is_same_v<Val, no_value>;
  const std::size_t n = runs ? std::size_t(offsets[runs]) : 0;
  int passes = 0;
  for (std::size_t width = 1; width<runs; width = width> runs / fan_in ? runs : width * fan_in)
    ++passes;
  if (passes == 0) {  // one run (or none): a copy
    for (std::size_t i = 0; i < n; ++i) {
      keys_out[i] = keys[i];
      if constexpr (has_values) vals_out[i] = vals[i];
    }
    return;
  }
  using val_item = std::conditional_t<has_values, Val, char>;
  const int threads = threads_for(n, opt);
  item_buffer<Key> key_buffer(passes > 1 ? n : 0, threads);
  item_buffer<val_item> val_buffer(has_values && passes > 1 ? n : 0, threads);
  const auto values_of = [](auto* p) {
    if constexpr (has_values)
      return p;
    else
      return discard_iterator{};
  };
  const auto pass = [&](auto src, auto src_vals, std::size_t width, auto dst, auto dst_vals) {
    if (fan_in == 2)
      merge_run_pairs(src, src_vals, offsets, runs, width, dst, dst_vals, comp, opt);
    else
      merge_run_groups(src, src_vals, offsets, runs, width, fan_in, dst, dst_vals, comp, opt);
  };
  Key* buffer = key_buffer.begin();
  const Key* buffer_in = buffer;
  const Key* out_in = keys_out;
  // The first pass writes where the number of passes left makes the last one land in the output.
  bool to_output = passes % 2 == 1;
  if (to_output)
    pass(keys, values_of(vals), 1, keys_out, values_of(vals_out));
  else
    pass(keys, values_of(vals), 1, buffer, values_of(val_buffer.begin()));
  for (std::size_t width = fan_in;
       width<runs; width = width> runs / fan_in ? runs : width * fan_in) {
    if (to_output)
      pass(out_in, values_of(static_cast<const Val*>(vals_out)), width, buffer,
           values_of(val_buffer.begin()));
    else
      pass(buffer_in, values_of(static_cast<const val_item*>(val_buffer.begin())), width, keys_out,
           values_of(vals_out));
    to_output = !to_output;
  }
}

/// The k-way merge's argument checks (O(runs)), as std::invalid_argument.
template <class Key, class Val, class Offset>
void check_multiway_arguments(const Key* keys, const Val* vals, const Offset* offsets,
                              std::size_t runs, const Key* keys_out, const Val* vals_out) {
  static_assert(std::is_integral_v<Offset>, "corank::cpu::multiway_merge: integer offsets");
  const auto fail = [](const std::string& why) {
    throw std::invalid_argument("corank::cpu::multiway_merge: " + why);
  };
  if (runs == 0) return;
  if (!offsets) fail("null offsets for " + std::to_string(runs) + " runs");
  if (offsets[0] != 0) fail("offsets[0] = " + std::to_string(offsets[0]) + ", not 0");
  for (std::size_t r = 0; r < runs; ++r)
    if (offsets[r + 1] < offsets[r])
      fail("run " + std::to_string(r) + " ends before it starts (offsets[" + std::to_string(r) +
           "] = " + std::to_string(offsets[r]) + ", offsets[" + std::to_string(r + 1) +
           "] = " + std::to_string(offsets[r + 1]) + ")");
  const auto n = static_cast<std::size_t>(offsets[runs]);
  if (n == 0) return;
  constexpr bool has_values = !std::is_same_v<Val, no_value>;
  if (!keys || !keys_out || (has_values && (!vals || !vals_out)))
    fail("a null pointer with " + std::to_string(n) + " items");
  const std::size_t key_bytes = n * sizeof(Key), val_bytes = has_values ? n * sizeof(Val) : 0;
  using corank::detail::overlaps;
  if (overlaps(keys_out, key_bytes, keys, key_bytes) ||
      overlaps(vals_out, val_bytes, vals, val_bytes) ||
      overlaps(vals_out, val_bytes, keys, key_bytes) ||
      overlaps(vals_out, val_bytes, keys_out, key_bytes) ||
      overlaps(keys_out, key_bytes, vals, val_bytes))
    fail("an output overlaps an input or the other output");
}

}  // namespace detail

/// As multiway_merge, values moving with their keys.
template <class Key, class Value, class Offset, class Compare = corank::less>
void multiway_merge_by_key(const Key* keys, const Value* values, const Offset* offsets,
                           std::size_t num_runs, Key* keys_out, Value* values_out,
                           Compare comp = {}, const multiway_options& opt = {}) {
  detail::check_multiway_arguments(keys, values, offsets, num_runs, keys_out,
                                   static_cast<const Value*>(values_out));
  detail::multiway_merge_passes(keys, values, offsets, num_runs,
                                detail::multiway_fan_in(num_runs, opt), keys_out, values_out, comp,
                                opt);
}

/// Stable merge of the num_runs sorted runs of keys given by offsets into out.
template <class Key, class Offset, class Compare = corank::less>
void multiway_merge(const Key* keys, const Offset* offsets, std::size_t num_runs, Key* out,
                    Compare comp = {}, const multiway_options& opt = {}) {
  multiway_merge_by_key(keys, static_cast<const no_value*>(nullptr), offsets, num_runs, out,
                        static_cast<no_value*>(nullptr), comp, opt);
}

}  // namespace corank::cpu

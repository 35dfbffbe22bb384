// Parallel stable merge sort on multicore CPUs (OpenMP), built on the co-rank merge.
//
// Phase 1: each thread sorts one contiguous chunk with a bottom-up merge sort: insertion-sorted
// blocks, then passes of the interleaved branch-free merge (merge_streams.hpp), ping-ponging
// with a buffer. Phase 2: pairwise passes merge the sorted chunks; every pass cuts its whole
// output into equal pieces by co-rank, so all threads share each pass whatever the run count.
// From sort_options::multiway_from_chunks sorted chunks on (32: the by-key sorts of 32-bit keys,
// whose chunks are small; docs/notes/cpu.md, "k-way merge"), phase 2 is ceil(log_F chunks)
// passes of F-way merges (cpu/multiway_merge.hpp, F <= 32) instead of log2(chunks) pairwise
// passes: the data moves fewer times.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>

#include "corank/cpu/merge.hpp"
#include "corank/cpu/multiway_merge.hpp"
#include "corank/cpu/options.hpp"
#include "corank/cpu/simd_sort.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"

namespace corank::cpu {

/// The options of the stable sorts.
struct sort_options : multiway_options {
  sort_options() { use_sort_passes(); }
  sort_options(const options& o) : multiway_options(o) {  // NOLINT: implicit, as options are
    use_sort_passes();
  }
  /// From this many items and this many sorted chunks on, the chunks are merged by passes of
  /// k-way merges as multiway_merge merges runs (one pass up to one_pass_most_runs chunks, else
  /// passes of at most most_runs_per_pass), not by pairwise passes.
  std::size_t multiway_from_items = tuning::sort_multiway_from_items;
  std::size_t multiway_from_chunks = tuning::sort_multiway_from_chunks;
  /// Stable SIMD sorts by key put chunks of at most this many items (one thread each; 0 or
  /// 2^32 and more: one chunk per thread, below 2^32 items) in order before the merge passes.
  std::size_t tagged_chunk_items = tuning::sort_tagged_chunk_items;

 private:
  void use_sort_passes() {
    one_pass_most_runs = tuning::sort_one_pass_most_runs;
    most_runs_per_pass = tuning::sort_most_runs_per_pass;
  }
};

namespace detail {

/// it[i], moved out of the sequence when it is an object there; a proxy that it[i] returns by
/// value (discard_iterator's sink) is taken as it is: std::move of a temporary only blocks
/// its copy elision (g++-13's -Wpessimizing-move).
template <class It>
decltype(auto) take(It it, std::ptrdiff_t i) {
  if constexpr (std::is_reference_v<decltype(it[i])>)
    return std::move(it[i]);
  else
    return it[i];
}

/// Stable insertion sort of keys[0,n) with values alongside (short blocks only).
template <class Keys, class Vals, class Compare>
void insertion_sort_by_key(Keys keys, Vals vals, std::ptrdiff_t n, Compare comp) {
  for (std::ptrdiff_t i = 1; i < n; ++i) {
    auto key = take(keys, i);
    auto val = take(vals, i);
    std::ptrdiff_t j = i;
    // Strictly less moves left: equal keys keep their order.
    for (; j > 0 && comp(key, keys[j - 1]); --j) {
      keys[j] = std::move(keys[j - 1]);
      vals[j] = std::move(vals[j - 1]);
    }
    keys[j] = std::move(key);
    vals[j] = std::move(val);
  }
}

/// Pieces of each pair in a parallel merge pass over runs of `width`: the same for every pair (the
/// last pair may be short: its pieces are too).
inline std::ptrdiff_t pass_parts(std::ptrdiff_t width, std::ptrdiff_t piece_items) {
  const std::ptrdiff_t pair_items = 2 * width;
  return pair_items > piece_items ? (pair_items + piece_items - 1) / piece_items : 1;
}

/// Source iterators of a merge pass: the items are moved out (the sort moves, as
/// std::stable_sort does; move-only types work).
template <class It>
auto moving(It it) {
  return std::make_move_iterator(it);
}
inline discard_iterator moving(discard_iterator it) { return it; }

/// One merge pass: runs of `width` items of src (the last may be shorter) merged pairwise into
/// dst. `parallel`: called by every thread of a parallel region, the pairs cut into pieces of
/// about `piece_items` outputs (merge_in_pieces, with `shared` and `errors`); else each pair is
/// one sequential merge.
template <class KeySrc, class ValSrc, class KeyDst, class ValDst, class Compare>
void merge_pass(KeySrc keys, ValSrc vals, KeyDst out_keys, ValDst out_vals, std::ptrdiff_t n,
                std::ptrdiff_t width, std::ptrdiff_t piece_items, bool parallel, piece_cuts* shared,
                region_errors* errors, Compare comp) {
  using size = std::ptrdiff_t;
  const size pair_items = 2 * width;
  const size pairs = (n + pair_items - 1) / pair_items;
  const auto pair = [&](size q) {
    const size begin = q * pair_items;
    const size m = width < n - begin ? width : n - begin;
    const size rest = n - begin - m;
    return merge_inputs{
        moving(keys + begin),     moving(vals + begin),     m,
        moving(keys + begin + m), moving(vals + begin + m), rest < width ? rest : width,
        out_keys + begin,         out_vals + begin};
  };
  if (parallel) {
    merge_in_pieces(pairs, pass_parts(width, piece_items), pair, *shared, *errors, comp);
  } else {
    for (size q = 0; q < pairs; ++q) {
      const auto in = pair(q);
      merge_streams_by_key<tuning::merge_streams>(in.a, in.a + in.m, in.va, in.b, in.b + in.n,
                                                  in.vb, in.out, in.vout, comp,
                                                  tuning::merge_min_stream_items);
    }
  }
}

/// Merge passes from run width `width` until one run covers [0, n), ping-ponging between
/// (keys, vals) and (buf_keys, buf_vals). Returns true when the result ends in the buffers.
/// `parallel`: `shared` has one piece_cuts for each pass (merge_in_pieces).
template <class Keys, class Vals, class BufKeys, class BufVals, class Compare>
bool merge_passes(Keys keys, Vals vals, BufKeys buf_keys, BufVals buf_vals, std::ptrdiff_t n,
                  std::ptrdiff_t width, std::ptrdiff_t piece_items, bool parallel,
                  piece_cuts* shared, region_errors* errors, Compare comp) {
  bool in_buffer = false;
  for (int pass = 0; width < n; width *= 2, in_buffer = !in_buffer, ++pass) {
    piece_cuts* pass_shared = parallel ? shared + pass : nullptr;
    if (in_buffer)
      merge_pass(buf_keys, buf_vals, keys, vals, n, width, piece_items, parallel, pass_shared,
                 errors, comp);
    else
      merge_pass(keys, vals, buf_keys, buf_vals, n, width, piece_items, parallel, pass_shared,
                 errors, comp);
  }
  return in_buffer;
}

/// Copies [0,n) of the buffers back (keys and values).
template <class BufKeys, class BufVals, class Keys, class Vals>
void copy_back(BufKeys buf_keys, BufVals buf_vals, Keys keys, Vals vals, std::ptrdiff_t n) {
  for (std::ptrdiff_t i = 0; i < n; ++i) keys[i] = std::move(buf_keys[i]);
  for (std::ptrdiff_t i = 0; i < n; ++i) vals[i] = std::move(buf_vals[i]);
}

/// Sequential stable merge sort of keys[0,n) (values alongside), using the buffers. The result
/// is left in keys/vals.
template <class Keys, class Vals, class BufKeys, class BufVals, class Compare>
void sort_chunk(Keys keys, Vals vals, BufKeys buf_keys, BufVals buf_vals, std::ptrdiff_t n,
                Compare comp) {
  if constexpr (std::is_same_v<Vals, discard_iterator> && simd_sortable<Keys, Compare>) {
    simd_sort<Compare>(keys, n);  // integers alone: no order among equal keys to keep
    return;
  }
  const std::ptrdiff_t block = tuning::sort_block_items;
  for (std::ptrdiff_t i = 0; i < n; i += block)
    insertion_sort_by_key(keys + i, vals + i, block < n - i ? block : n - i, comp);
  if (merge_passes(keys, vals, buf_keys, buf_vals, n, block, n, false, nullptr, nullptr, comp))
    copy_back(buf_keys, buf_vals, keys, vals, n);
}

/// A key and its value side by side: stable_sort_by_key sorts separate key and value arrays as
/// one array of these (pack_by_key), so every pass moves a pair with one load and one store.
template <class Key, class Value>
struct key_value {
  Key key;
  Value value;
};
template <class Compare>
struct by_pair_key {
  Compare comp;
  template <class Pair>
  bool operator()(const Pair& x, const Pair& y) const {
    return comp(x.key, y.key);
  }
};

/// Whether stable_sort_by_key packs keys and values into key_value pairs: both trivially
/// copyable (no constructor or move can throw or be observed) and at most 8 bytes (a pair of at
/// most 16 bytes moves as fast as a struct the caller would have built).
template <class KeyIt, class ValIt>
inline constexpr bool pack_by_key = [] {
  if constexpr (std::is_same_v<ValIt, discard_iterator>) {
    return false;
  } else {
    using K = typename std::iterator_traits<KeyIt>::value_type;
    using V = typename std::iterator_traits<ValIt>::value_type;
    return std::is_trivially_copyable_v<K> && std::is_trivially_copyable_v<V> && sizeof(K) <= 8 &&
           sizeof(V) <= 8;
  }
}();

/// Passes of `fan_in`-way merges (merge_groups_in_pieces) from run width `width` until one run
/// covers [0, n), ping-ponging between (keys, vals) and (buf_keys, buf_vals); called by every
/// thread of a parallel region, `shared` one piece_cuts for each pass. Returns true when the
/// result ends in the buffers.
template <class Keys, class Vals, class BufKeys, class BufVals, class Compare>
bool merge_group_passes(Keys keys, Vals vals, BufKeys buf_keys, BufVals buf_vals, std::ptrdiff_t n,
                        std::ptrdiff_t width, std::ptrdiff_t fan_in, int threads,
                        piece_cuts* shared, region_errors& errors, Compare comp) {
  using size = std::ptrdiff_t;
  bool in_buffer = false;
  for (int pass = 0;
       width<n; width = width> n / fan_in ? n : width * fan_in, in_buffer = !in_buffer, ++pass) {
    const auto start = [&](size i) { return i * width < n ? i * width : n; };
    const size runs = (n + width - 1) / width, groups = (runs + fan_in - 1) / fan_in;
    const size per_run = fan_in * tuning::multiway_min_piece_items_per_run;
    const size chunks = chunk_count(
        n, threads, tuning::merge_chunks_per_thread,
        per_run > tuning::merge_min_chunk_items ? per_run : tuning::merge_min_chunk_items);
    const size parts = chunks / groups > 0 ? chunks / groups : 1;
    if (in_buffer)
      merge_groups_in_pieces(buf_keys, buf_vals, keys, vals, start, runs, fan_in, parts,
                             shared[pass], errors, comp);
    else
      merge_groups_in_pieces(keys, vals, buf_keys, buf_vals, start, runs, fan_in, parts,
                             shared[pass], errors, comp);
  }
  return in_buffer;
}

/// The parallel stable sort of keys[0, n) (values alongside) on `threads` threads, from chunks of
/// `width` items (the last may be shorter; at least 2 chunks unless n <= width): each chunk is
/// sorted by sort_chunk_at(begin, len), one thread each; then passes merge them, every pass cut
/// into pieces over its whole output: pairwise passes (co_rank), or, from multiway_from_items
/// items and multiway_from_chunks chunks on, passes of k-way merges (multiway_co_rank) for items
/// that a merge may copy. The
/// result ends in keys/vals, or, where `may_end_in_buffer` and the passes leave it there, in
/// the buffers: returns true then.
template <class KeyIt, class ValIt, class BufKeys, class BufVals, class Compare, class SortChunk>
bool sort_in_chunks(KeyIt keys_first, ValIt vals_first, BufKeys buf_keys, BufVals buf_vals,
                    std::ptrdiff_t n, std::ptrdiff_t width, int threads, Compare comp,
                    SortChunk sort_chunk_at, const sort_options& opt,
                    bool may_end_in_buffer = false) {
  using size = std::ptrdiff_t;
  const size chunks = (n + width - 1) / width;
  // The k-way merges copy (their cascades hold items in buffers): items that moving would
  // change take the pairwise passes.
  constexpr bool copyable =
      !moves_from<decltype(moving(keys_first))> && !moves_from<decltype(moving(vals_first))>;
  const size fan_in = copyable && std::size_t(n) >= opt.multiway_from_items &&
                              std::size_t(chunks) >= opt.multiway_from_chunks
                          ? size(multiway_fan_in(std::size_t(chunks), opt))
                          : 2;
  const size piece_items =
      n / (size(threads) * tuning::merge_chunks_per_thread) + tuning::merge_min_chunk_items;
  // What the threads of each merge pass share (merge_in_pieces): widths double from 16 items up
  // to n, and a sort moves its items, so types that are not trivially copyable need the cuts.
  piece_cuts passes[64];
  if constexpr (moves_from<decltype(moving(keys_first))> ||
                moves_from<decltype(moving(vals_first))>) {
    int pass = 0;
    for (size w = width; w < n; w *= 2, ++pass)
      passes[pass].cuts.resize(
          static_cast<std::size_t>(((n + 2 * w - 1) / (2 * w)) * (pass_parts(w, piece_items) + 1)));
  }
  region_errors errors;
  bool in_buffer = false;
#pragma omp parallel num_threads(threads)
  {
#pragma omp for schedule(static, 1)
    for (size c = 0; c < chunks; ++c)
      errors.run([&] {
        const size begin = c * width, len = width < n - begin ? width : n - begin;
        sort_chunk_at(begin, len);
      });
    bool ends_in_buffer = false;
    if constexpr (copyable) {
      if (fan_in > 2)
        ends_in_buffer = merge_group_passes(keys_first, vals_first, buf_keys, buf_vals, n, width,
                                            fan_in, threads, passes, errors, comp);
    }
    if (fan_in <= 2)
      ends_in_buffer = merge_passes(keys_first, vals_first, buf_keys, buf_vals, n, width,
                                    piece_items, true, passes, &errors, comp);
#pragma omp single
    in_buffer = ends_in_buffer;
  }
  errors.rethrow();
  if (in_buffer && !may_end_in_buffer) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size c = 0; c < size(threads); ++c)
      errors.run([&] {
        const size begin = even_split<size>(n, threads, c),
                   end = even_split<size>(n, threads, c + 1);
        copy_back(buf_keys + begin, buf_vals + begin, keys_first + begin, vals_first + begin,
                  end - begin);
      });
    errors.rethrow();
  }
  return in_buffer && may_end_in_buffer;
}

}  // namespace detail

/// Stable sort of keys[first, last) with values moved alongside (vals_first...), on all cores.
/// Key and value types must be default-constructible and movable (move-only types work); extra
/// memory: n keys and n values, or, for trivially copyable keys and values of at most 8 bytes
/// each (sorted as {key, value} pairs), 2n such pairs (and n 64-bit words for integer keys of at
/// most 32 bits under corank::less or greater, whose chunks the SIMD sort orders, simd_sort.hpp).
///
/// Precondition: comp is a strict weak order on the keys. Violated (NaN keys under <, `<=`, an
/// inconsistent comparator), the call still returns, with a permutation of the keys (values
/// alongside) in an unspecified order. An exception thrown by comp or by a move propagates, from
/// the parallel path too, after every thread has stopped; the range then holds unspecified
/// contents (items may have been lost).
template <class KeyIt, class ValIt, class Compare = corank::less>
void stable_sort_by_key(KeyIt keys_first, KeyIt keys_last, ValIt vals_first, Compare comp = {},
                        const sort_options& opt = {}) {
  using size = std::ptrdiff_t;
  const size n = keys_last - keys_first;
  if (n < 2) return;
  if constexpr (detail::pack_by_key<KeyIt, ValIt>) {
    // One pass packs, one unpacks: the merge passes in between move each pair once, not a key and
    // then a value from two arrays (2x the time of the same sort of structs, issue 23).
    using key_type = typename std::iterator_traits<KeyIt>::value_type;
    using pair = detail::key_value<key_type, typename std::iterator_traits<ValIt>::value_type>;
    const int threads = detail::threads_for(static_cast<std::size_t>(n), opt);
    detail::item_buffer<pair> pairs(static_cast<std::size_t>(n), threads);
    pair* p = pairs.begin();
    const pair* sorted = p;  // where the sorted pairs end up
    constexpr bool tagged_chunks = detail::simd_sortable_tagged<key_type, Compare>;
    detail::item_buffer<pair> buffer(tagged_chunks ? static_cast<std::size_t>(n) : 0, threads);
    if constexpr (tagged_chunks) {
      // Each thread's chunk in stable order by the SIMD sort of (key, index) words, gathered into
      // pairs (within the chunk: in cache at 16 threads and 10M items); the merge passes go on
      // from there.
      detail::item_buffer<std::uint64_t> tagged(static_cast<std::size_t>(n), threads);
      // The tags' index has 32 bits.
      const size most =
          size(opt.tagged_chunk_items - 1 < 0xFFFFFFFFu ? opt.tagged_chunk_items : 0xFFFFFFFFu);
      const size per_thread = (n + threads - 1) / threads;
      const bool in_buffer = detail::sort_in_chunks(
          p, discard_iterator{}, buffer.begin(), discard_iterator{}, n,
          per_thread < most ? per_thread : most, threads, detail::by_pair_key<Compare>{comp},
          [&](size begin, size len) {
            std::uint64_t* order = tagged.begin() + begin;
            detail::simd_stable_order<Compare>(keys_first + begin, len, order);
            for (size i = 0; i < len; ++i) {
              const size from = begin + size(order[i] & 0xFFFFFFFFu);
              p[begin + i] = pair{keys_first[from], vals_first[from]};
            }
          },
          opt, true);
      // The unpacking reads the pairs where the passes left them: no copy back.
      if (in_buffer) sorted = buffer.begin();
    } else {
#pragma omp parallel for num_threads(threads) schedule(static)
      for (size i = 0; i < n; ++i) p[i] = pair{keys_first[i], vals_first[i]};
      stable_sort_by_key(p, p + n, discard_iterator{}, detail::by_pair_key<Compare>{comp}, opt);
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size i = 0; i < n; ++i) keys_first[i] = sorted[i].key, vals_first[i] = sorted[i].value;
    return;
  }
  const int threads = detail::threads_for(static_cast<std::size_t>(n), opt);
  detail::item_buffer<detail::buffer_item_t<KeyIt>> buf_keys(static_cast<std::size_t>(n), threads);
  detail::item_buffer<detail::buffer_item_t<ValIt>> buf_vals(static_cast<std::size_t>(n), threads);
  if (threads <= 1) {
    detail::sort_chunk(keys_first, vals_first, buf_keys.begin(), buf_vals.begin(), n, comp);
    return;
  }
  // Chunks: one per thread, rounded to whole insertion blocks so phase 2 starts from runs of
  // equal width (the last chunk takes the remainder).
  const size block = tuning::sort_block_items;
  const size blocks = (n + block - 1) / block;
  detail::sort_in_chunks(
      keys_first, vals_first, buf_keys.begin(), buf_vals.begin(), n,
      ((blocks + threads - 1) / threads) * block, threads, comp,
      [&](size begin, size len) {
        detail::sort_chunk(keys_first + begin, vals_first + begin, buf_keys.begin() + begin,
                           buf_vals.begin() + begin, len, comp);
      },
      opt);
}

/// Stable sort of [first, last): the contract of std::stable_sort (and the precondition and
/// behaviour of stable_sort_by_key), run on all cores.
template <class It, class Compare = corank::less>
void stable_sort(It first, It last, Compare comp = {}, const sort_options& opt = {}) {
  stable_sort_by_key(first, last, discard_iterator{}, comp, opt);
}

}  // namespace corank::cpu

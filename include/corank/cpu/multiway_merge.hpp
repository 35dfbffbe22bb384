// k-way merge of sorted runs on multicore CPUs (OpenMP).
//
//   multiway_merge(keys, offsets, num_runs, out, comp, options)
//   multiway_merge_by_key(keys, values, offsets, num_runs, keys_out, values_out, comp, options)
//     run r = keys[offsets[r], offsets[r + 1]) (CSR offsets: num_runs + 1 entries, offsets[0] = 0,
//     non-decreasing), each sorted by comp; out[0, offsets[num_runs]) = their stable merge: equal
//     keys in run order, then in their order within the run.
//
// A tree of pairwise merge passes: pass p merges runs 2q and 2q + 1 of the pass before (adjacent,
// so ties keep run order), every pair's merge cut into pieces by co_rank and all pieces of the
// pass scheduled together (cpu/merge.hpp's merge_in_pieces), ceil(log2 k) passes between the
// output and one buffer of n elements (allocated here), the last landing in the output.
// Preconditions: as cpu::merge for each run; `out` does not overlap `keys`.
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <vector>

#include "corank/cpu/merge.hpp"
#include "corank/cpu/options.hpp"
#include "corank/functional.hpp"

namespace corank::cpu {
namespace detail {

/// Passes of a pairwise tree over k runs: ceil(log2 k).
inline int merge_tree_passes(std::size_t runs) {
  int passes = 0;
  for (std::size_t width = 1; width < runs; width *= 2) ++passes;
  return passes;
}

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

template <class Key, class Val, class Offset, class KeyOut, class ValOut, class Compare>
void multiway_merge_tree(const Key* keys, const Val* vals, const Offset* offsets, std::size_t runs,
                         KeyOut keys_out, ValOut vals_out, Compare comp, const options& opt) {
  constexpr bool has_values = !std::is_same_v<Val, no_value>;
  const std::size_t n = runs ? std::size_t(offsets[runs]) : 0;
  const int passes = merge_tree_passes(runs);
  if (passes == 0) {  // one run (or none): a copy
    for (std::size_t i = 0; i < n; ++i) {
      keys_out[i] = keys[i];
      if constexpr (has_values) vals_out[i] = vals[i];
    }
    return;
  }
  std::vector<Key> key_buffer(n);
  std::vector<std::conditional_t<has_values, Val, char>> val_buffer(has_values ? n : 0);
  const auto buffer_vals = [&] {
    if constexpr (has_values)
      return val_buffer.data();
    else
      return discard_iterator{};
  }();
  const auto out_vals = [&] {
    if constexpr (has_values)
      return vals_out;
    else
      return discard_iterator{};
  }();
  const auto in_vals = [&] {
    if constexpr (has_values)
      return vals;
    else
      return discard_iterator{};
  }();
  // The first pass writes where the number of passes left makes the last one land in the output.
  bool to_output = passes % 2 == 1;
  if (to_output)
    merge_run_pairs(keys, in_vals, offsets, runs, 1, keys_out, out_vals, comp, opt);
  else
    merge_run_pairs(keys, in_vals, offsets, runs, 1, key_buffer.data(), buffer_vals, comp, opt);
  for (std::size_t width = 2; width < runs; width *= 2) {
    if (to_output)
      merge_run_pairs(keys_out, out_vals, offsets, runs, width, key_buffer.data(), buffer_vals,
                      comp, opt);
    else
      merge_run_pairs(key_buffer.data(), buffer_vals, offsets, runs, width, keys_out, out_vals,
                      comp, opt);
    to_output = !to_output;
  }
}

}  // namespace detail

/// Stable merge of the num_runs sorted runs of keys given by offsets into out.
template <class Key, class Offset, class Compare = corank::less>
void multiway_merge(const Key* keys, const Offset* offsets, std::size_t num_runs, Key* out,
                    Compare comp = {}, const options& opt = {}) {
  detail::multiway_merge_tree(keys, static_cast<const no_value*>(nullptr), offsets, num_runs, out,
                              static_cast<no_value*>(nullptr), comp, opt);
}

/// As multiway_merge, values moving with their keys.
template <class Key, class Value, class Offset, class Compare = corank::less>
void multiway_merge_by_key(const Key* keys, const Value* values, const Offset* offsets,
                           std::size_t num_runs, Key* keys_out, Value* values_out,
                           Compare comp = {}, const options& opt = {}) {
  detail::multiway_merge_tree(keys, values, offsets, num_runs, keys_out, values_out, comp, opt);
}

}  // namespace corank::cpu

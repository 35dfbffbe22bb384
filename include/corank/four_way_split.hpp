// Four-way merge cut at samples: the partition of a four-way merge sort pass.
//
// Four sorted runs A, B, C, D, consecutive in one array (so a stable merge orders ties A, B, C,
// D), merge as merge(AB, CD) with AB = merge(A, B) and CD = merge(C, D). Cutting that output at
// equal ranks would take a co-rank over two virtual merges: a search whose every probe is itself
// a search. Instead it is cut at samples, every `stride`-th element of AB and of CD. A sample's cut
// is exact and cheap: AB[k] is found by one co-rank in A and B, its place in CD by one binary
// search in C and one in D (independent: stepped together, so the latency is two searches, not
// three). From one sample to the next of either kind lie at most `stride` elements of AB and
// `stride` of CD, and parts average `stride`: a tile takes K consecutive parts (sorted_index),
// fewer than (K + 2) x stride elements and K x stride on average.
//
// Written once, `__host__ __device__` like merge_path.hpp: the GPU sort runs it, the CPU tests
// check it against std::stable_sort.
#pragma once

#include "corank/merge_path.hpp"

namespace corank {

/// A cut of the four runs: the number of elements taken from each.
template <class Size>
struct four_way_split {
  Size a, b, c, d;
  CORANK_HD Size position() const { return a + b + c + d; }
};

/// Whether cuts c0 and c1 of runs that end at `end` bound a piece a four-way merge tile can take:
/// c0 <= c1 <= end in every run, at most `most` elements in all. The cuts of sorted runs under a
/// strict weak order always do. Otherwise (NaN keys, a comparator that is not one, unsorted
/// runs) cuts disagree, sorted indices may collide and leave a cut slot unwritten: a tile whose
/// cuts fail this takes nothing, so it stays within its runs and its shared memory.
template <class Size>
CORANK_HD bool bounds_a_piece(const four_way_split<Size>& c0, const four_way_split<Size>& c1,
                              const four_way_split<Size>& end, Size most) {
  const auto ordered = [](Size x, Size y, Size z) { return x <= y && y <= z; };
  return ordered(c0.a, c1.a, end.a) && ordered(c0.b, c1.b, end.b) && ordered(c0.c, c1.c, end.c) &&
         ordered(c0.d, c1.d, end.d) && c1.position() - c0.position() <= most;
}

/// Read access to an array of sorted runs through its grid samples. The pass that writes such an
/// array also keeps, for every multiple q of `Every` (a power of two), X[q] and X[q + Every - 1]
/// side by side in a small array: samples[2 t] = X[t Every], samples[2 t + 1] = X[t Every + Every -
/// 1] (where those exist). The cut searches step on the power-of-two grid of
/// partition_point_on_grid: with runs starting at multiples of Every and cuts at multiples of it,
/// every probe of a step of Every or more lands on such a position. So a pass's hundred thousand
/// searches read a few megabytes that stay in cache, and only their last log2(Every) levels read
/// the array itself, within one window of Every elements, instead of a fresh sector per level.
/// Reads elsewhere go to the array: correct for any alignment, only slower.
template <class T, unsigned Every>
struct grid_sampled_ptr {
  static_assert(Every >= 2 && (Every & (Every - 1)) == 0, "a power of two");
  const T* array;
  const T* samples;
  std::size_t at;  // where element 0 of this view lies in `array`

  CORANK_HD T operator[](std::size_t i) const {
    const std::size_t q = at + i;
    const unsigned r = unsigned(q % Every);
    // One load from a selected address, not a branch between two loads.
    const T* at_q = r == 0 || r == Every - 1 ? samples + (2 * (q / Every) + (r != 0)) : array + q;
    return *at_q;
  }
  CORANK_HD grid_sampled_ptr operator+(std::size_t d) const { return {array, samples, at + d}; }
};

/// Four consecutive sorted runs.
template <class It, class Size>
struct four_runs {
  It a, b, c, d;
  Size na, nb, nc, nd;
  CORANK_HD Size ab() const { return na + nb; }
  CORANK_HD Size cd() const { return nc + nd; }
  CORANK_HD four_way_split<Size> end() const { return {na, nb, nc, nd}; }
};

/// Samples of one group of runs with a given stride: AB samples 0 .. ab_samples - 1 (AB[j *
/// stride]) and CD samples 0 .. cd_samples - 1 (CD[i * stride]).
template <class Size>
struct sample_grid {
  Size stride, ab_samples, cd_samples;

  template <class It>
  CORANK_HD static sample_grid of(const four_runs<It, Size>& r, Size stride) {
    return {stride, (r.ab() + stride - 1) / stride, (r.cd() + stride - 1) / stride};
  }
  CORANK_HD Size samples(bool cd) const { return cd ? cd_samples : ab_samples; }
  CORANK_HD Size samples() const { return ab_samples + cd_samples; }
};

/// The cut just before element k of the stable merge of x and y (k < nx + ny), with the elements
/// of u and v that come before it: on ties u and v come after it (UBefore = false: lower bounds) or
/// before it (UBefore = true: upper bounds). Returns {taken from x, y, u, v}. Search: whose co-rank
/// and rank searches (grid_search, merge_path.hpp, or one with the same results).
template <bool UBefore, class Search, class It, class Size, class Compare>
CORANK_HD four_way_split<Size> split_before_pair_element(It x, Size nx, It y, Size ny, It u,
                                                         Size nu, It v, Size nv, Size k,
                                                         Compare comp) {
  const Size i = Search::co_rank(k, x, nx, y, ny, comp), j = k - i;
  const auto key = i < nx && (j >= ny || !comp(y[j], x[i])) ? x[i] : y[j];
  const rank_pair<Size> uv = Search::template ranks<UBefore>(u, nu, v, nv, key, comp);
  return {i, j, uv.x, uv.y};
}

/// The cut just before AB sample k (k < |AB|, AB's k-th element): CD's elements equal to it come
/// after it, so C and D give those strictly less.
template <class Search = grid_search, class It, class Size, class Compare>
CORANK_HD four_way_split<Size> split_before_ab(const four_runs<It, Size>& r, Size k, Compare comp) {
  return split_before_pair_element<false, Search>(r.a, r.na, r.b, r.nb, r.c, r.nc, r.d, r.nd, k,
                                                  comp);
}

/// The cut just before CD sample k (k < |CD|): AB's elements equal to it come before it.
template <class Search = grid_search, class It, class Size, class Compare>
CORANK_HD four_way_split<Size> split_before_cd(const four_runs<It, Size>& r, Size k, Compare comp) {
  const four_way_split<Size> s =
      split_before_pair_element<true, Search>(r.c, r.nc, r.d, r.nd, r.a, r.na, r.b, r.nb, k, comp);
  return {s.c, s.d, s.a, s.b};
}

/// The cut before sample `index` of AB (cd = false) or CD (cd = true).
template <class Search = grid_search, class It, class Size, class Compare>
CORANK_HD four_way_split<Size> split_before_sample(const four_runs<It, Size>& r, Size stride,
                                                   bool cd, Size index, Compare comp) {
  return cd ? split_before_cd<Search>(r, index * stride, comp)
            : split_before_ab<Search>(r, index * stride, comp);
}

/// Where a sample's cut falls among all the cuts of its runs in output order: after the `index`
/// cuts of its own kind before it, and after the samples of the other kind that it takes
/// (ceil(taken / stride)). The sorted indices of all samples are 0 .. samples() - 1, and the first
/// cut is at position 0. From sorted cut q to cut q + K (or the runs' end) lie fewer than
/// (K + 2) x stride elements, at most (K + 1) x stride of AB and as many of CD: a tile of K parts.
template <class Size>
CORANK_HD Size sorted_index(const sample_grid<Size>& g, bool cd, Size index,
                            const four_way_split<Size>& cut) {
  const Size other_taken = cd ? cut.a + cut.b : cut.c + cut.d;
  return index + (other_taken + g.stride - 1) / g.stride;
}

}  // namespace corank

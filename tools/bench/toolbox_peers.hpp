// thrust's equivalents of the co-rank toolbox's primitives on u32 keys, compiled once per CUB as
// the other peers are (cub_peers.hpp says why; cub_peers_toolbox.cu). thrust allocates its
// temporary storage in the call, as a user sees it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bench/cub_peers.hpp"
#include "corank/merge_path_walk.hpp"

namespace corank::bench {

template <cub_build Build>
struct toolbox_peers {
  /// thrust::lower_bound, vectorised: out[i] = the lower bound of needles[i] in haystack[0, m).
  static device_run lower_bound(const std::uint32_t* haystack, std::size_t m,
                                const std::uint32_t* needles, std::size_t n, std::uint32_t* out);
  /// thrust::set_union, set_intersection, ... by `op`; the output count to *count when the run
  /// returns.
  static device_run set_operation(set_op op, const std::uint32_t* a, std::size_t m,
                                  const std::uint32_t* b, std::size_t n, std::uint32_t* out,
                                  std::size_t* count);
  /// The load-balancing search as a user writes it with thrust: thrust::upper_bound of every
  /// item 0..n-1 in the segment ends offsets[1..segments].
  static device_run segment_of_items(const std::uint32_t* offsets, std::size_t segments,
                                     std::size_t n, std::uint32_t* segment_of);
};

}  // namespace corank::bench

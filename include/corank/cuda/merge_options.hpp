// What sets the GPU merge's parameters (merge_options), and the names of the merge kernels (the
// production one and the study's, as a tuning table names them; the study's options and entry
// points are in corank/study/merge.cuh). Host-only C++ (no CUDA headers), so the CLI and the
// tuning-file parser use it without nvcc.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace corank::cuda {

/// The merge kernels.
enum class merge_algorithm {
  automatic,  ///< production kernel: 16-byte staged I/O, register runs; scheme by size
  basic,      ///< study: each thread merges its part straight from global memory
  tiled,      ///< study: single shared-memory buffer per input, reloaded every iteration
  circular,   ///< study: double (circular) buffer per input, only consumed slots reloaded
};

/// How `automatic` finds each tile's inputs.
enum class merge_scheme {
  by_size,        ///< the tuning table's choice for m + n, else the default of tuning/merge.cuh
  single_launch,  ///< one launch; each block searches its own tiles' co-ranks (small and mid sizes)
  partitioned,    ///< a partition pre-pass writes every tile's co-ranks, then one tile per block
};

class merge_tuning;

/// Parameters of the production merge; 0 (or by_size) leaves a parameter to the tuning table's
/// `automatic` entries when one is given, else to the defaults of tuning/merge.cuh. `threads`
/// applies to the partitioned scheme only (single_launch's block shape is fixed at compile time),
/// `blocks` to single_launch only (the grid; default as many blocks as the GPU holds at once).
struct merge_options {
  merge_scheme scheme = merge_scheme::by_size;
  unsigned blocks = 0;   ///< grid size
  unsigned threads = 0;  ///< threads per block: a multiple of 32, at most 1024
  /// automatic, partitioned: how many tiles, from the first, search their own co-ranks and merge
  /// while the partition pass runs (the pass finds the rest). Unset: the policy's
  /// (tuning::automatic_defaults::lead_bytes_per_sm).
  std::optional<std::size_t> lead_tiles;
  /// Measured parameters per kernel and size (corank tune merge); not owned, may be null.
  const merge_tuning* tuning = nullptr;
};

inline constexpr std::string_view to_string(merge_algorithm a) {
  switch (a) {
    case merge_algorithm::automatic:
      return "automatic";
    case merge_algorithm::basic:
      return "basic";
    case merge_algorithm::tiled:
      return "tiled";
    case merge_algorithm::circular:
      return "circular";
  }
  return "?";
}

inline constexpr std::string_view to_string(merge_scheme s) {
  switch (s) {
    case merge_scheme::by_size:
      return "by_size";
    case merge_scheme::single_launch:
      return "single_launch";
    case merge_scheme::partitioned:
      return "partitioned";
  }
  return "?";
}

inline std::optional<merge_algorithm> parse_merge_algorithm(std::string_view name) {
  for (merge_algorithm a : {merge_algorithm::automatic, merge_algorithm::basic,
                            merge_algorithm::tiled, merge_algorithm::circular})
    if (name == to_string(a)) return a;
  return std::nullopt;
}

inline std::optional<merge_scheme> parse_merge_scheme(std::string_view name) {
  for (merge_scheme s :
       {merge_scheme::by_size, merge_scheme::single_launch, merge_scheme::partitioned})
    if (name == to_string(s)) return s;
  return std::nullopt;
}

}  // namespace corank::cuda

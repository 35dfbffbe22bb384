// The co-rank toolbox on the GPU for the CLI (corank search, corank set, corank merge with more
// than two inputs): host arrays in, host arrays out, kernel time (device events) returned.
// Throws std::runtime_error on CUDA errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "corank/merge_path_walk.hpp"

namespace corank::backend {

/// out[i] = the lower (upper) bound of needles[i] in the sorted haystack: one merge-path pass
/// when the needles are sorted; otherwise sorted first or a binary search each, by size.
template <class T>
double gpu_search(const T* haystack, std::size_t m, const T* needles, std::size_t n,
                  bool needles_sorted, bool upper, std::uint64_t* out);

/// The set operation on sorted a and b into out (room for set_operation_max_outputs); *count.
template <class T>
double gpu_set_operation(set_op op, const T* a, std::size_t m, const T* b, std::size_t n, T* out,
                         std::size_t* count);

/// The stable merge of the runs keys[offsets[r], offsets[r + 1]), r < runs, into out.
template <class T>
double gpu_multiway_merge(const T* keys, const std::uint64_t* offsets, std::size_t runs, T* out);

/// The index pairs of the join `kind` of sorted a and b (no_match for a missing side):
/// pair k is (pair_a[k], pair_b[k]).
template <class T>
double gpu_join(join_kind kind, const T* a, std::size_t m, const T* b, std::size_t n,
                std::vector<std::size_t>& pair_a, std::vector<std::size_t>& pair_b);

/// The explicit instantiations for one element type, for CORANK_FOR_EACH_ELEMENT_TYPE: in
/// gpu_toolbox.cu, or no_gpu.cpp in a build without CUDA.
#define CORANK_INSTANTIATE_GPU_TOOLBOX(T, tag)                                                   \
  template double gpu_search<T>(const T*, std::size_t, const T*, std::size_t, bool, bool,        \
                                std::uint64_t*);                                                 \
  template double gpu_set_operation<T>(set_op, const T*, std::size_t, const T*, std::size_t, T*, \
                                       std::size_t*);                                            \
  template double gpu_multiway_merge<T>(const T*, const std::uint64_t*, std::size_t, T*);        \
  template double gpu_join<T>(join_kind, const T*, std::size_t, const T*, std::size_t,           \
                              std::vector<std::size_t>&, std::vector<std::size_t>&);

}  // namespace corank::backend

// Thrust's and CUB's equivalents of the toolbox's primitives, compiled in a translation unit of
// their own against the newest CCCL (the library's side uses the toolkit's), so that the two
// CCCL versions never meet (cmake/CubPeers.cmake says why the ABI namespace is renamed).
#pragma once

#include <cstddef>
#include <cstdint>

namespace corank::bench::toolbox_peers {

/// CUB_VERSION of the peers' build.
int cub_version();
/// thrust::lower_bound, vectorised: out[i] = lower bound of needles[i] in haystack.
void thrust_lower_bound(const std::uint32_t* haystack, std::size_t m, const std::uint32_t* needles,
                        std::size_t n, std::uint32_t* out);
/// thrust::set_union / intersection / difference / symmetric_difference (op 0..3); the count.
std::size_t thrust_set_operation(int op, const std::uint32_t* a, std::size_t m,
                                 const std::uint32_t* b, std::size_t n, std::uint32_t* out);
/// cub::DeviceMergeSort::SortKeysCopy of keys[0, n) into out (temporary storage kept between
/// calls, allocated outside the timing on the first).
void cub_merge_sort_copy(const std::uint32_t* keys, std::size_t n, std::uint32_t* out);

}  // namespace corank::bench::toolbox_peers

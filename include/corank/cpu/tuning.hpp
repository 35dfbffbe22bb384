// Tuning constants of the CPU backend, kept apart from the algorithms. Measured on the 2-core
// development machine; measurements in docs/notes/cpu.md.
#pragma once

#include <cstddef>

#include "corank/segmented_scan_contract.hpp"

namespace corank::cpu::tuning {

/// Below this many items an algorithm runs on the calling thread alone.
inline constexpr std::size_t sequential_below_items = std::size_t(1) << 15;

/// Parallel merges cut the output into up to this many chunks per thread, scheduled dynamically,
/// each of at least merge_min_chunk_items outputs.
inline constexpr int merge_chunks_per_thread = 8;
inline constexpr std::ptrdiff_t merge_min_chunk_items = std::ptrdiff_t(1) << 16;

/// Independent merge streams interleaved per thread (see merge_streams.hpp): enough to cover the
/// load-compare-advance latency without running out of registers.
inline constexpr int merge_streams = 4;

/// Below this many outputs per stream, fewer streams: the split costs co-rank searches.
inline constexpr std::ptrdiff_t merge_min_stream_items = 64;

/// The stable sort starts from blocks of this many items sorted by insertion.
inline constexpr std::ptrdiff_t sort_block_items = 16;

/// Stable SIMD sorts by key (cpu/sort.hpp) order chunks of at most this many items, one per
/// thread, before merging: the gather of their keys and values by index then stays in the
/// per-core caches (2^18 items: 2 MiB of 32-bit keys and values). A power of two below 2^32 (the
/// tags' index has 32 bits).
inline constexpr std::ptrdiff_t sort_tagged_chunk_items = std::ptrdiff_t(1) << 18;

/// The sparse-matrix iteration (scaled_segmented_scan_iterations) takes each element through this
/// many steps in one sweep (at most iteration_most_steps_per_pass: a kernel each), unless the
/// slices' leading parts (swept one after another, once the slices before are done) exceed
/// 1 / iteration_leading_share of the elements; then every step is a parallel scan of its own.
inline constexpr int iteration_steps_per_pass = 16;
inline constexpr int iteration_most_steps_per_pass = corank::segmented_scan_most_steps_per_pass;
inline constexpr std::size_t iteration_leading_share = 64;

}  // namespace corank::cpu::tuning

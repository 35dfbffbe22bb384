// Tuning constants of the CPU backend, kept apart from the algorithms. Measured on the 2-core
// development machine; measurements in docs/notes/cpu.md.
#pragma once

#include <cstddef>

#include "corank/segmented_scan_contract.hpp"

namespace corank::cpu::tuning {

/// Below this many items an algorithm runs on the calling thread alone.
inline constexpr std::size_t sequential_below_items = std::size_t(1) << 15;

/// lower_bound / upper_bound sort needles in any order first when there are at least
/// max(sort_needles_from, m / sort_needles_from_share) of them for m haystack keys and the haystack
/// is larger than haystack_cached_bytes; otherwise a binary search each: where the crossover fell
/// on 2 quiet cores (docs/notes/toolbox.md).
inline constexpr std::size_t sort_needles_from = std::size_t(1) << 12;
inline constexpr std::size_t sort_needles_from_share = 256;
inline constexpr std::size_t haystack_cached_bytes = std::size_t(256) << 10;

/// Parallel merges cut the output into up to this many chunks per thread, scheduled dynamically,
/// each of at least merge_min_chunk_items outputs.
inline constexpr int merge_chunks_per_thread = 8;
inline constexpr std::ptrdiff_t merge_min_chunk_items = std::ptrdiff_t(1) << 16;

/// Independent merge streams interleaved per thread (see merge_streams.hpp): enough to cover the
/// load-compare-advance latency without running out of registers.
inline constexpr int merge_streams = 4;

/// Below this many outputs per stream, fewer streams: the split costs co-rank searches.
inline constexpr std::ptrdiff_t merge_min_stream_items = 64;

/// The k-way merge (cpu/multiway_merge.hpp) runs in one pass up to this many runs, and above in
/// passes of at most multiway_most_runs_per_pass (2: the pairwise tree). On 2 quiet cores at 10M
/// one pass beat the tree 2.3x at 4 runs and 1.6x at 16, tied at 64; from 128 runs the tree won
/// (0.78-0.95x for one pass or passes of 12-32) (docs/notes/cpu.md, "k-way merge"); on 16 cores
/// the same: 2.8x at 4 runs, 1.3-1.5x at 16, 0.85-1.16x at 64, the tree at 1024.
inline constexpr std::size_t multiway_one_pass_most_runs = 64;
inline constexpr std::size_t multiway_most_runs_per_pass = 2;

/// The one-pass k-way merge's cascade of two-way merges keeps the buffers of its inner nodes in
/// this many bytes per thread (a Zen 4 core's L2: 64 KiB-4 MiB measured, 64 runs), each of at
/// least multiway_cascade_min_items items (a merge step costs three binary searches).
inline constexpr std::size_t multiway_cascade_bytes = std::size_t(1) << 20;
inline constexpr std::ptrdiff_t multiway_cascade_min_items = 256;

/// Pieces of a one-pass k-way merge take at least this many outputs per run: each piece's two
/// k-way co-ranks cost O(k log^2 n) comparisons.
inline constexpr std::ptrdiff_t multiway_min_piece_items_per_run = 1024;

/// The stable sort merges its sorted chunks by k-way passes (cpu/sort.hpp) from this many items
/// and this many chunks on, passes of at most sort_most_runs_per_pass runs (as few passes as
/// that allows, as narrow as they can be). On 16 cores (device machine, 10M and 100M): 16 chunks
/// (keys alone, one a thread) gained nothing in one 16-way pass (0.81-1.06x the 4 pairwise
/// passes); 38 and 382 chunks (by key, 32-bit keys in chunks of 2^18) gained 1.16-1.75x in two
/// passes of 7 and 20 runs in a first run, 0.86-1.02x in a second (docs/notes/cpu.md, "k-way
/// merge" and "16 cores, measured again"): kept, unresolved at 10M (the order of the variants
/// moved rows by up to 30% there).
inline constexpr std::size_t sort_multiway_from_items = 0;
inline constexpr std::size_t sort_multiway_from_chunks = 32;
inline constexpr std::size_t sort_one_pass_most_runs = 1;
inline constexpr std::size_t sort_most_runs_per_pass = 32;

/// The stable sort starts from blocks of this many items sorted by insertion.
inline constexpr std::ptrdiff_t sort_block_items = 16;

/// Stable SIMD sorts by key (cpu/sort.hpp) order chunks of at most this many items, one per
/// thread, before merging: the gather of their keys and values by index then stays in the
/// per-core caches (2^18 items: 2 MiB of 32-bit keys and values). A power of two below 2^32 (the
/// tags' index has 32 bits).
inline constexpr std::size_t sort_tagged_chunk_items = std::size_t(1) << 18;

/// The sparse-matrix iteration (scaled_segmented_scan_iterations) cuts the elements into slices
/// (whole segments, a segment longer than a thread's share cut into pipelined pieces),
/// iteration_slices_per_thread a thread and none shorter than iteration_min_slice_items, and takes
/// each slice through every iteration in sweeps of iteration_steps_per_pass steps (at most
/// iteration_most_steps_per_pass: a kernel each); as a parallel scan per step when the slowest
/// chain of pieces would take more than iteration_largest_slice_shares of a thread's share
/// (per-step scans balance any lengths but run 2-4x slower per step on 16 cores). On 16 cores
/// (device host, 26 real matrices, 200 iterations) 16 slices a thread of at least 256 elements ran
/// 0.035-0.051 ns per non-zero and iteration on 22 matrices; 4 a thread or 1024 elements, 1.0-3x
/// slower on the small ones; 128 elements 1.3x faster on the two smallest (2.4K and 3.2K
/// non-zeros), alike elsewhere (docs/notes/cpu.md).
inline constexpr int iteration_steps_per_pass = 16;
inline constexpr int iteration_most_steps_per_pass = corank::segmented_scan_most_steps_per_pass;
inline constexpr std::size_t iteration_slices_per_thread = 16;
inline constexpr std::size_t iteration_min_slice_items = 128;
inline constexpr std::size_t iteration_largest_slice_shares = 2;

/// The iteration takes at most one thread per this much work (elements x a pass's steps): a
/// thread woken for less costs the call more than its share of the sweeps saves. Larger floors
/// left the smallest real matrices on too few threads on 16 cores (docs/notes/cpu.md).
inline constexpr std::size_t iteration_min_work_per_thread = std::size_t(2) << 10;

/// The running values that pipelined pieces hand on (one per step and cut inside a segment) fill
/// at most this many bytes; beyond, the iterations run in batches of steps, a parallel region
/// each.
inline constexpr std::size_t iteration_handoff_bytes = std::size_t(1) << 20;

}  // namespace corank::cpu::tuning

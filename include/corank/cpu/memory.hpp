// Where the CPU algorithms' temporary storage comes from: the library's cache.
//
// The sorts, the k-way merge and the set operations need buffers of n items. Allocated and freed
// by every call, each call paid the page faults of touching fresh pages: on 16 threads a quarter
// to a third of a 10M sort (docs/notes/cpu.md, "16 cores, measured again"). So, as the GPU
// side's plain call (cuda/memory.cuh), the library keeps those blocks between calls:
//
// - A call takes the smallest free block that is large enough; else it allocates one (aligned to
//   2 MiB and, on Linux, advised to be backed by transparent huge pages), whose pages the
//   threads of the call touch first, each the part of the block its share of the work will use
//   (first touch places a page on the NUMA node of the thread that touches it). Free blocks
//   smaller than a request that misses are given back first: the cache grows by replacing.
// - At the end of the call the block returns to the cache. The bound: the free blocks kept
//   between calls total at most the cache limit (and number at most most_cached_blocks), the
//   least recently used given back first. The limit starts at a quarter of the physical memory
//   (default_cache_fraction, as on the GPU); set_cache_limit changes it (0: every call allocates
//   and frees, as before the cache), release_cached_memory gives back every free block.
// - Blocks below cached_from_bytes come from operator new as before (malloc keeps those pages
//   mapped itself), and so do buffers of items whose construction or destruction does something
//   (item_buffer): their constructors touch the memory anyway.
// - Host threads calling at once each take a block of their own; one mutex guards the
//   bookkeeping, never an allocation, a touch or a free.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace corank::cpu {

/// The cache limit starts at this fraction of the physical memory: above the temporary storage
/// of the largest sorts that leave room for their data (a sort of n pairs takes 2-3n more).
inline constexpr std::size_t default_cache_fraction = 4;  // one quarter

/// Free blocks kept at most (a by-key sort takes three blocks a call: a few host threads' worth).
inline constexpr std::size_t most_cached_blocks = 16;

/// Requests below this many bytes bypass the cache (malloc reuses small blocks without faults).
inline constexpr std::size_t cached_from_bytes = std::size_t(1) << 20;

namespace detail {

/// Blocks are aligned to, and sized in multiples of, a transparent huge page.
inline constexpr std::size_t cache_block_alignment = std::size_t(2) << 20;
/// A thread touching a new block writes one byte in each page of this size.
inline constexpr std::size_t touch_page_bytes = 4096;

inline std::size_t physical_memory_bytes() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) return std::size_t(pages) * std::size_t(page);
#endif
  return std::size_t(16) << 30;
}

struct cache_block {
  void* memory = nullptr;
  std::size_t bytes = 0;
  unsigned long long last_used = 0;
};

/// The library's cache: the free blocks, the limit and what they hold.
struct host_cache {
  std::mutex lock;
  std::vector<cache_block> free_blocks;  ///< capacity most_cached_blocks + 1: pushes never throw
  std::size_t free_bytes = 0;
  std::size_t limit = physical_memory_bytes() / default_cache_fraction;
  unsigned long long clock = 0;
  host_cache() { free_blocks.reserve(most_cached_blocks + 1); }
};

/// The process's cache. Never destroyed (a sort in a static destructor may still call it); the
/// blocks it holds stay reachable from here until exit.
inline host_cache& library_host_cache() {
  static host_cache* cache = new host_cache;
  return *cache;
}

/// Blocks unlinked from the cache under its lock, freed when this dies (after the lock).
struct dropped_blocks {
  cache_block blocks[most_cached_blocks + 1];
  std::size_t count = 0;
  dropped_blocks() = default;
  dropped_blocks(const dropped_blocks&) = delete;
  dropped_blocks& operator=(const dropped_blocks&) = delete;
  ~dropped_blocks() {
    for (std::size_t i = 0; i < count; ++i) std::free(blocks[i].memory);
  }
  /// Unlinks free block i of `cache` into this.
  void take_from(host_cache& cache, std::size_t i) {
    auto& free = cache.free_blocks;
    blocks[count++] = free[i];
    cache.free_bytes -= free[i].bytes;
    free[i] = free.back();
    free.pop_back();
  }
};

/// Unlinks the least recently used free blocks while the cache is above its bounds (under the
/// lock; at most most_cached_blocks + 1 blocks are free then).
inline void trim_to_bounds(host_cache& cache, dropped_blocks& dropped) {
  auto& free = cache.free_blocks;
  while (!free.empty() && (cache.free_bytes > cache.limit || free.size() > most_cached_blocks)) {
    std::size_t oldest = 0;
    for (std::size_t i = 1; i < free.size(); ++i)
      if (free[i].last_used < free[oldest].last_used) oldest = i;
    dropped.take_from(cache, oldest);
  }
}

/// A new block of `bytes` (a multiple of cache_block_alignment), its pages touched by `threads`
/// threads in even, consecutive shares (the split of the algorithms' static schedules); null
/// when the system has no memory for it.
inline void* new_cache_block(std::size_t bytes, int threads) {
  void* memory = std::aligned_alloc(cache_block_alignment, bytes);
  if (!memory) return nullptr;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  madvise(memory, bytes, MADV_HUGEPAGE);  // advice only: without THP the block keeps 4 KiB pages
#endif
  auto* bytes_at = static_cast<unsigned char*>(memory);
  const std::ptrdiff_t pages = std::ptrdiff_t(bytes / touch_page_bytes);
#pragma omp parallel for num_threads(threads > 0 ? threads : 1) schedule(static)
  for (std::ptrdiff_t p = 0; p < pages; ++p) bytes_at[std::size_t(p) * touch_page_bytes] = 0;
  return memory;
}

/// Frees every free block of the cache.
inline void release_free_blocks() {
  host_cache& cache = library_host_cache();
  std::vector<cache_block> released;
  released.reserve(most_cached_blocks + 1);  // swapped in: the cache's pushes never allocate
  {
    const std::lock_guard<std::mutex> lock(cache.lock);
    released.swap(cache.free_blocks);
    cache.free_bytes = 0;
  }
  for (const cache_block& b : released) std::free(b.memory);
}

/// A block of at least `bytes` bytes from the library's cache, touched first by `threads`
/// threads when new (see the top of this file); given back when this dies.
class cached_block {
 public:
  cached_block() = default;
  cached_block(std::size_t bytes, int threads) { take(bytes, threads); }
  cached_block(const cached_block&) = delete;
  cached_block& operator=(const cached_block&) = delete;
  ~cached_block() { give_back(); }

  void* data() const { return memory_; }
  std::size_t bytes() const { return bytes_; }

  /// Gives back the block held (its contents are dropped) and takes one of at least `bytes`.
  void take(std::size_t bytes, int threads) {
    give_back();
    if (bytes == 0) return;
    host_cache& cache = library_host_cache();
    const std::size_t rounded =
        (bytes + cache_block_alignment - 1) / cache_block_alignment * cache_block_alignment;
    bool cached = false;
    if (bytes >= cached_from_bytes) {
      dropped_blocks dropped;  // freed after the lock
      const std::lock_guard<std::mutex> lock(cache.lock);
      std::size_t best = cache.free_blocks.size();
      for (std::size_t i = 0; i < cache.free_blocks.size(); ++i) {
        const std::size_t b = cache.free_blocks[i].bytes;
        if (b >= bytes && (best == cache.free_blocks.size() || b < cache.free_blocks[best].bytes))
          best = i;
      }
      if (best < cache.free_blocks.size()) {
        const cache_block found = cache.free_blocks[best];
        cache.free_bytes -= found.bytes;
        cache.free_blocks[best] = cache.free_blocks.back();
        cache.free_blocks.pop_back();
        memory_ = found.memory, bytes_ = found.bytes, cached_ = true;
        return;
      }
      cached = rounded <= cache.limit;
      // The cache grows by replacing: the free blocks too small for this request go.
      for (std::size_t i = cache.free_blocks.size(); cached && i-- > 0;)
        if (cache.free_blocks[i].bytes < bytes) dropped.take_from(cache, i);
    }
    if (!cached) {
      memory_ = ::operator new(bytes);
      bytes_ = bytes;
      return;
    }
    void* memory = new_cache_block(rounded, threads);
    if (!memory) {  // what the cache still holds may be what is missing
      release_free_blocks();
      memory = new_cache_block(rounded, threads);
    }
    if (!memory) throw std::bad_alloc();
    memory_ = memory, bytes_ = rounded, cached_ = true;
  }

  /// Returns the block held (if any) to the cache, or frees it when the cache does not keep it.
  void give_back() noexcept {
    if (!memory_) return;
    void* memory = std::exchange(memory_, nullptr);
    const std::size_t bytes = std::exchange(bytes_, 0);
    if (!std::exchange(cached_, false)) {
      ::operator delete(memory);
      return;
    }
    host_cache& cache = library_host_cache();
    dropped_blocks dropped;  // freed after the lock
    const std::lock_guard<std::mutex> lock(cache.lock);
    cache.free_blocks.push_back({memory, bytes, ++cache.clock});  // within the reserved capacity
    cache.free_bytes += bytes;
    trim_to_bounds(cache, dropped);
  }

 private:
  void* memory_ = nullptr;
  std::size_t bytes_ = 0;
  bool cached_ = false;  ///< from the cache (returns there), else from operator new
};

}  // namespace detail

/// Sets the most bytes the cache keeps in free blocks between calls; blocks above it are given
/// back now, least recently used first. 0: every call allocates and frees its storage.
inline void set_cache_limit(std::size_t bytes) {
  detail::host_cache& cache = detail::library_host_cache();
  detail::dropped_blocks dropped;  // freed after the lock
  const std::lock_guard<std::mutex> lock(cache.lock);
  cache.limit = bytes;
  detail::trim_to_bounds(cache, dropped);
}

/// The cache limit, in bytes.
inline std::size_t cache_limit() {
  detail::host_cache& cache = detail::library_host_cache();
  const std::lock_guard<std::mutex> lock(cache.lock);
  return cache.limit;
}

/// Bytes the cache holds in free blocks now (blocks that calls in flight use are not counted).
inline std::size_t cached_memory_bytes() {
  detail::host_cache& cache = detail::library_host_cache();
  const std::lock_guard<std::mutex> lock(cache.lock);
  return cache.free_bytes;
}

/// Gives every free block of the cache back to the system; blocks that calls in flight on other
/// threads hold return to the cache when those calls end. The cache fills again on the next call.
inline void release_cached_memory() { detail::release_free_blocks(); }

}  // namespace corank::cpu

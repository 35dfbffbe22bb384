// Where the GPU entry points' temporary storage comes from.
//
// Every entry point that needs temporary storage takes it in one of three ways (the same shape
// for every algorithm; README, "GPU"):
//
//   f(args..., comp, stream)                     the library's cache (below): full speed from the
//                                                second call on, nothing to manage
//   f(resource, args..., comp, stream)           a stream-ordered memory resource of the caller
//                                                (memory_resource_ref: RMM, CCCL, an own pool)
//   f(args..., temp, temp_bytes, comp, stream)   the caller's buffer, of at least
//                                                f_temp_bytes<Types...>(sizes) bytes
//
// Storage is taken and given back in `stream`'s order (never cudaMalloc / cudaFree, which
// synchronise the device), so every form may be captured into a CUDA graph.
//
// The library's cache is one CUDA memory pool per device, created on the first call that needs
// it on that device (cudaMemPoolCreate; never the device's default pool, whose settings belong to
// the application). Calls take their storage from it with cudaMallocFromPoolAsync and return it
// with cudaFreeAsync in their stream, so calls on several streams and host threads share it
// safely (the pool orders reuse across streams). Those two calls cost a short call about 3 us of
// host time, so the cache also keeps, for each of up to stream_blocks_per_device streams, the
// block of its last call, which the stream's next call takes without asking the pool. The bound
// on what the cache keeps is the cache limit: the pool's release threshold (at each
// synchronisation it gives memory above the limit back to the driver and keeps the rest mapped
// for the next call), with the kept blocks, each at most the limit over
// stream_blocks_per_device. The limit starts at a quarter of the device's memory
// (default_cache_fraction); set_cache_limit changes it, and release_cached_memory gives back
// everything not in use now.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cuda/stream_ref>
#include <mutex>
#include <type_traits>
#include <utility>

#include "corank/cuda/error.cuh"

namespace corank::cuda {

/// The cache starts with a limit of this fraction of the device's memory: above the temporary
/// storage of the largest sorts that leave room for their data (a sort of n keys needs n more).
inline constexpr std::size_t default_cache_fraction = 4;  // one quarter

/// Streams per device whose last block the cache keeps for their next call (each block at most
/// the cache limit over this count). Enough for a few host threads with a stream or two each;
/// more streams take blocks from the pool each call (about 3 us more per call on an H100).
inline constexpr int stream_blocks_per_device = 8;

namespace detail {

/// A block of the cache kept for one stream between its calls, so that a call on that stream
/// takes its storage without a call into the pool (cudaMallocFromPoolAsync and cudaFreeAsync
/// cost about 3 us of host time per call, which a short call waits for). Only a call on the same
/// stream (the same cudaStreamGetId: ids are never reused) takes it, so the stream's order keeps
/// the calls apart; `returned` marks the stream's last use, so that another stream can take the
/// slot and free the block after it.
struct stream_block {
  unsigned long long stream_id = 0;  ///< 0: an empty slot
  void* memory = nullptr;
  std::size_t bytes = 0;
  bool in_use = false;
  cudaEvent_t returned = nullptr;
  unsigned long long last_used = 0;
};

/// The library's cache on one device: its pool (set once, then only read), its limit, and the
/// blocks kept for streams.
struct device_cache {
  std::atomic<cudaMemPool_t> pool{nullptr};
  std::atomic<std::size_t> limit{0};
  std::mutex blocks_lock;
  stream_block blocks[stream_blocks_per_device];
  unsigned long long clock = 0;  ///< counts takes, for least recently used
};

/// The caches of every device.
struct device_pools {
  static constexpr int most_devices = 64;
  std::mutex creating;  ///< held while a pool is created
  device_cache devices[most_devices];
};

/// The process's caches. Never destroyed: the driver reclaims them at exit, and a pool destroyed
/// by a static destructor could outlive its context.
inline device_pools& library_pools() {
  static device_pools* pools = new device_pools;
  return *pools;
}

/// `device`, or the current device when negative.
inline cudaError_t resolve_device(int& device) {
  CORANK_CUDA_TRY(device >= 0 ? cudaSuccess : cudaGetDevice(&device));
  return device < device_pools::most_devices ? cudaSuccess : cudaErrorInvalidDevice;
}

/// Creates the pool of `cache` on `device`. In relaxed capture mode: a call captured into a graph
/// may be the first (creating a pool is not a stream operation).
inline cudaError_t create_pool(device_cache& cache, int device) {
  auto mode = cudaStreamCaptureModeRelaxed;
  CORANK_CUDA_TRY(cudaThreadExchangeStreamCaptureMode(&mode));
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaDeviceProp properties{};
  cudaMemPool_t created = nullptr;
  cudaError_t status = cudaGetDeviceProperties(&properties, device);
  if (status == cudaSuccess) status = cudaMemPoolCreate(&created, &props);
  std::uint64_t limit = properties.totalGlobalMem / default_cache_fraction;
  if (status == cudaSuccess)
    status = cudaMemPoolSetAttribute(created, cudaMemPoolAttrReleaseThreshold, &limit);
  if (status == cudaSuccess) {
    cache.limit.store(std::size_t(limit));
    cache.pool.store(created, std::memory_order_release);
  } else if (created) {
    cudaMemPoolDestroy(created);
  }
  const cudaError_t restored = cudaThreadExchangeStreamCaptureMode(&mode);
  return status != cudaSuccess ? status : restored;
}

/// The library's cache on `device` (the current one when negative), its pool created on first
/// use.
inline cudaError_t library_cache(device_cache** cache, int device = -1) {
  CORANK_CUDA_TRY(resolve_device(device));
  device_pools& all = library_pools();
  *cache = &all.devices[device];
  if ((*cache)->pool.load(std::memory_order_acquire)) return cudaSuccess;
  const std::lock_guard<std::mutex> lock(all.creating);
  if ((*cache)->pool.load(std::memory_order_acquire)) return cudaSuccess;
  return create_pool(**cache, device);
}

inline cudaError_t library_pool(cudaMemPool_t* pool, int device = -1) {
  device_cache* cache = nullptr;
  CORANK_CUDA_TRY(library_cache(&cache, device));
  *pool = cache->pool.load(std::memory_order_acquire);
  return cudaSuccess;
}

/// `bytes` for a call on `stream` from the current device's cache: the stream's kept block when
/// it is large enough, else a block from the pool, kept for the stream's next call when a slot
/// is free (or the least recently used one, whose block is freed after its stream's last use)
/// and the block is at most the limit over stream_blocks_per_device. While the stream is being
/// captured into a graph, straight from the pool (the graph owns the allocation).
inline cudaError_t take_cached(void** memory, std::size_t bytes, cudaStream_t stream) {
  device_cache* cache = nullptr;
  CORANK_CUDA_TRY(library_cache(&cache));
  const cudaMemPool_t pool = cache->pool.load(std::memory_order_acquire);
  auto capture = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess ||
      capture != cudaStreamCaptureStatusNone || cudaStreamGetId(stream, &id) != cudaSuccess) {
    cudaGetLastError();  // whatever failed there, the pool decides
    return cudaMallocFromPoolAsync(memory, bytes, pool, stream);
  }
  const std::size_t most = cache->limit.load() / stream_blocks_per_device;
  const std::lock_guard<std::mutex> lock(cache->blocks_lock);
  stream_block* slot = nullptr;
  for (stream_block& b : cache->blocks)
    if (b.stream_id == id) slot = &b;
  if (slot && slot->in_use) return cudaMallocFromPoolAsync(memory, bytes, pool, stream);
  if (slot && slot->bytes >= bytes && slot->bytes <= most) {
    slot->in_use = true;
    slot->last_used = ++cache->clock;
    *memory = slot->memory;
    return cudaSuccess;
  }
  if (slot) {  // too small or above the limit now: freed after the stream's last use
    CORANK_CUDA_TRY(cudaFreeAsync(slot->memory, stream));
    slot->stream_id = 0;
  }
  if (bytes > most) return cudaMallocFromPoolAsync(memory, bytes, pool, stream);
  if (!slot)  // an empty slot, else the least recently used one not in use
    for (stream_block& b : cache->blocks)
      if (!b.in_use &&
          (!slot || (slot->stream_id != 0 && (b.stream_id == 0 || b.last_used < slot->last_used))))
        slot = &b;
  if (!slot) return cudaMallocFromPoolAsync(memory, bytes, pool, stream);  // all in use
  if (slot->stream_id != 0) {  // another stream's: freed once that stream is past its last use
    CORANK_CUDA_TRY(cudaStreamWaitEvent(stream, slot->returned, 0));
    CORANK_CUDA_TRY(cudaFreeAsync(slot->memory, stream));
    slot->stream_id = 0;
  }
  if (!slot->returned)
    CORANK_CUDA_TRY(cudaEventCreateWithFlags(&slot->returned, cudaEventDisableTiming));
  CORANK_CUDA_TRY(cudaMallocFromPoolAsync(memory, bytes, pool, stream));
  *slot = {id, *memory, bytes, true, slot->returned, ++cache->clock};
  return cudaSuccess;
}

/// Gives back what take_cached gave, after the work in `stream` that uses it.
inline cudaError_t give_back_cached(void* memory, cudaStream_t stream) {
  device_cache* cache = nullptr;
  CORANK_CUDA_TRY(library_cache(&cache));
  {
    const std::lock_guard<std::mutex> lock(cache->blocks_lock);
    for (stream_block& b : cache->blocks)
      if (b.in_use && b.memory == memory) {
        b.in_use = false;
        return cudaEventRecord(b.returned, stream);
      }
  }
  return cudaFreeAsync(memory, stream);
}

/// Whether R has CCCL's stream-ordered allocation members, in the shape of CCCL >= 3.1 and RMM
/// >= 25.10 (`allocate(stream, bytes, alignment)`) or of CCCL 3.0's cuda::mr::async_resource and
/// earlier RMM (`allocate_async(bytes, alignment, stream)`).
template <class R, class = void>
struct allocates_stream_first : std::false_type {};
template <class R>
struct allocates_stream_first<
    R, std::void_t<decltype(static_cast<void*>(std::declval<R&>().allocate(
                       ::cuda::stream_ref{cudaStream_t{}}, std::size_t{}, std::size_t{}))),
                   decltype(std::declval<R&>().deallocate(
                       ::cuda::stream_ref{cudaStream_t{}}, static_cast<void*>(nullptr),
                       std::size_t{}, std::size_t{}))>> : std::true_type {};
template <class R, class = void>
struct allocates_async : std::false_type {};
template <class R>
struct allocates_async<
    R, std::void_t<decltype(static_cast<void*>(std::declval<R&>().allocate_async(
                       std::size_t{}, std::size_t{}, ::cuda::stream_ref{cudaStream_t{}}))),
                   decltype(std::declval<R&>().deallocate_async(
                       static_cast<void*>(nullptr), std::size_t{}, std::size_t{},
                       ::cuda::stream_ref{cudaStream_t{}}))>> : std::true_type {};

}  // namespace detail

/// A non-owning reference to a stream-ordered device memory resource: anything with CCCL's
/// `cuda::mr` resource members, `void* allocate(cuda::stream_ref, bytes, alignment)` and
/// `void deallocate(cuda::stream_ref, ptr, bytes, alignment)` (CCCL >= 3.1, RMM >= 25.10), or
/// CCCL 3.0's `allocate_async(bytes, alignment, cuda::stream_ref)` and `deallocate_async(ptr,
/// bytes, alignment, cuda::stream_ref)` (RMM's device_async_resource_ref, cuda::mr::
/// async_resource_ref). The memory must be device-accessible; a call allocates and deallocates
/// on its own stream, with the same size and alignment. The resource must outlive the calls that
/// use it (a temporary passed to a call lives until the call returns).
///
/// Why not cuda::mr::async_resource_ref itself: in CUDA 13.0's CCCL (3.0) <cuda/memory_resource>
/// is experimental (only with LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE), and CCCL 3.1
/// changed the members' shape; this reference takes both shapes without the macro, and returns
/// errors as values: a resource that throws or returns null gives cudaErrorMemoryAllocation.
class memory_resource_ref {
 public:
  template <class Resource, class R = std::remove_reference_t<Resource>,
            std::enable_if_t<!std::is_same_v<std::remove_cv_t<R>, memory_resource_ref> &&
                                 (detail::allocates_stream_first<R>::value ||
                                  detail::allocates_async<R>::value),
                             int> = 0>
  memory_resource_ref(Resource&& resource) noexcept  // NOLINT: converts implicitly, like CCCL's
      : object_(const_cast<void*>(static_cast<const volatile void*>(&resource))),
        allocate_(&allocate_from<R>),
        deallocate_(&deallocate_to<R>) {}

  /// `bytes` (> 0) aligned to `alignment`, ready in `stream`'s order.
  cudaError_t allocate(void** memory, std::size_t bytes, std::size_t alignment,
                       cudaStream_t stream) const noexcept {
    *memory = nullptr;
    return allocate_(object_, memory, bytes, alignment, stream);
  }
  /// Gives back what allocate() gave, in `stream`'s order.
  cudaError_t deallocate(void* memory, std::size_t bytes, std::size_t alignment,
                         cudaStream_t stream) const noexcept {
    return deallocate_(object_, memory, bytes, alignment, stream);
  }

  /// The library's cache on the current device (see the top of this file).
  static memory_resource_ref library_cache() noexcept {
    return memory_resource_ref(nullptr, &allocate_cached, &deallocate_cached);
  }

 private:
  using allocate_fn = cudaError_t (*)(void*, void**, std::size_t, std::size_t, cudaStream_t);
  using deallocate_fn = cudaError_t (*)(void*, void*, std::size_t, std::size_t, cudaStream_t);
  memory_resource_ref(void* object, allocate_fn allocate, deallocate_fn deallocate) noexcept
      : object_(object), allocate_(allocate), deallocate_(deallocate) {}

  template <class R>
  static cudaError_t allocate_from(void* object, void** memory, std::size_t bytes,
                                   std::size_t alignment, cudaStream_t stream) noexcept {
    R& resource = *static_cast<R*>(object);
    try {
      if constexpr (detail::allocates_stream_first<R>::value)
        *memory = resource.allocate(::cuda::stream_ref{stream}, bytes, alignment);
      else
        *memory = resource.allocate_async(bytes, alignment, ::cuda::stream_ref{stream});
    } catch (...) {
      return cudaErrorMemoryAllocation;
    }
    return *memory ? cudaSuccess : cudaErrorMemoryAllocation;
  }
  template <class R>
  static cudaError_t deallocate_to(void* object, void* memory, std::size_t bytes,
                                   std::size_t alignment, cudaStream_t stream) noexcept {
    R& resource = *static_cast<R*>(object);
    try {
      if constexpr (detail::allocates_stream_first<R>::value)
        resource.deallocate(::cuda::stream_ref{stream}, memory, bytes, alignment);
      else
        resource.deallocate_async(memory, bytes, alignment, ::cuda::stream_ref{stream});
    } catch (...) {
      return cudaErrorUnknown;
    }
    return cudaSuccess;
  }
  // The pool hands out blocks aligned to at least 256 bytes, as much as any part asks.
  static cudaError_t allocate_cached(void*, void** memory, std::size_t bytes, std::size_t,
                                     cudaStream_t stream) noexcept {
    try {  // the lock may throw
      return detail::take_cached(memory, bytes, stream);
    } catch (...) {
      return cudaErrorMemoryAllocation;
    }
  }
  static cudaError_t deallocate_cached(void*, void* memory, std::size_t, std::size_t,
                                       cudaStream_t stream) noexcept {
    try {
      return detail::give_back_cached(memory, stream);
    } catch (...) {
      return cudaErrorUnknown;
    }
  }

  void* object_;
  allocate_fn allocate_;
  deallocate_fn deallocate_;
};

/// The library's cache on `device` (current when negative): its CUDA memory pool, e.g. to read
/// cudaMemPoolAttrReservedMemCurrent or to give other devices access (cudaMemPoolSetAccess).
inline cudaError_t library_memory_pool(cudaMemPool_t* pool, int device = -1) {
  if (!pool) return cudaErrorInvalidValue;
  return detail::library_pool(pool, device);
}

/// Sets the most bytes the cache on `device` keeps across synchronisations: the pool's release
/// threshold (memory above it goes back to the driver at the next synchronisation), and the
/// blocks kept for streams (each at most the limit over stream_blocks_per_device).
inline cudaError_t set_cache_limit(std::size_t bytes, int device = -1) {
  detail::device_cache* cache = nullptr;
  CORANK_CUDA_TRY(detail::library_cache(&cache, device));
  std::uint64_t limit = bytes;
  CORANK_CUDA_TRY(
      cudaMemPoolSetAttribute(cache->pool.load(), cudaMemPoolAttrReleaseThreshold, &limit));
  cache->limit.store(bytes);
  return cudaSuccess;
}

/// The cache limit on `device`, in *bytes.
inline cudaError_t cache_limit(std::size_t* bytes, int device = -1) {
  if (!bytes) return cudaErrorInvalidValue;
  detail::device_cache* cache = nullptr;
  CORANK_CUDA_TRY(detail::library_cache(&cache, device));
  *bytes = cache->limit.load();
  return cudaSuccess;
}

/// Gives the cache's memory on `device` back to the driver, all but what calls in flight on
/// other host threads hold: synchronises the device first, so that every block is free by then.
/// The cache fills again on the next call.
inline cudaError_t release_cached_memory(int device = -1) {
  CORANK_CUDA_TRY(detail::resolve_device(device));
  detail::device_cache& cache = detail::library_pools().devices[device];
  const cudaMemPool_t pool = cache.pool.load(std::memory_order_acquire);
  if (!pool) return cudaSuccess;  // nothing was ever cached there
  int current = 0;
  CORANK_CUDA_TRY(cudaGetDevice(&current));
  if (current != device) CORANK_CUDA_TRY(cudaSetDevice(device));
  cudaError_t status = cudaDeviceSynchronize();
  {
    const std::lock_guard<std::mutex> lock(cache.blocks_lock);
    for (detail::stream_block& b : cache.blocks)
      if (status == cudaSuccess && b.stream_id != 0 && !b.in_use) {
        status = cudaFreeAsync(b.memory, 0);  // after the synchronisation: no stream uses it
        b.stream_id = 0;
      }
  }
  if (status == cudaSuccess) status = cudaDeviceSynchronize();
  if (status == cudaSuccess) status = cudaMemPoolTrimTo(pool, 0);
  if (current != device) {
    const cudaError_t back = cudaSetDevice(current);
    if (status == cudaSuccess) status = back;
  }
  return status;
}

/// Where a call takes its temporary storage (the `temporary` member of an algorithm's options;
/// the overloads without options choose it by their form): by default the library's cache, else
/// a stream-ordered memory resource, else the caller's buffer of `bytes` bytes.
struct temporary_storage {
  temporary_storage() = default;
  /// From a memory_resource_ref or anything it refers to (a resource, which must outlive the
  /// calls).
  template <class Resource,
            std::enable_if_t<std::is_constructible_v<memory_resource_ref, Resource&&> &&
                                 !std::is_same_v<std::decay_t<Resource>, temporary_storage>,
                             int> = 0>
  temporary_storage(Resource&& resource)  // NOLINT: converts implicitly
      : resource(std::forward<Resource>(resource)) {}
  temporary_storage(void* buffer, std::size_t bytes)
      : buffer(buffer), buffer_bytes(bytes), callers_buffer(true) {}

  memory_resource_ref resource = memory_resource_ref::library_cache();
  void* buffer = nullptr;
  std::size_t buffer_bytes = 0;
  bool callers_buffer = false;
};

}  // namespace corank::cuda

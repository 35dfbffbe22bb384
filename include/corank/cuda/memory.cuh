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
// safely (the pool orders reuse across streams). The bound on what it keeps is its release
// threshold, the cache limit: at each synchronisation the pool gives memory above the limit back
// to the driver and keeps the rest mapped for the next call. The limit starts at a quarter of the
// device's memory (default_cache_fraction); set_cache_limit changes it, and
// release_cached_memory gives back everything not in use now.
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

namespace detail {

/// The library's pools, one per device (a pool handle is set once, then only read).
struct device_pools {
  static constexpr int most_devices = 64;
  std::mutex creating;  ///< held while a pool is created
  std::atomic<cudaMemPool_t> pools[most_devices] = {};
};

/// The process's pools. Never destroyed: the driver reclaims them at exit, and a pool destroyed
/// by a static destructor could outlive its context.
inline device_pools& library_pools() {
  static device_pools* pools = new device_pools;
  return *pools;
}

/// `device`, or the current device when negative.
inline cudaError_t resolve_device(int& device) {
  return device >= 0 ? cudaSuccess : cudaGetDevice(&device);
}

/// The library's pool on `device` (the current one when negative), created on first use.
inline cudaError_t library_pool(cudaMemPool_t* pool, int device = -1) {
  CORANK_CUDA_TRY(resolve_device(device));
  if (device >= device_pools::most_devices) return cudaErrorInvalidDevice;
  device_pools& all = library_pools();
  std::atomic<cudaMemPool_t>& slot = all.pools[device];
  if ((*pool = slot.load(std::memory_order_acquire))) return cudaSuccess;
  const std::lock_guard<std::mutex> lock(all.creating);
  if ((*pool = slot.load(std::memory_order_acquire))) return cudaSuccess;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaDeviceProp properties{};
  CORANK_CUDA_TRY(cudaGetDeviceProperties(&properties, device));
  cudaMemPool_t created = nullptr;
  CORANK_CUDA_TRY(cudaMemPoolCreate(&created, &props));
  std::uint64_t limit = properties.totalGlobalMem / default_cache_fraction;
  const cudaError_t status =
      cudaMemPoolSetAttribute(created, cudaMemPoolAttrReleaseThreshold, &limit);
  if (status != cudaSuccess) {
    cudaMemPoolDestroy(created);
    return status;
  }
  slot.store(created, std::memory_order_release);
  *pool = created;
  return cudaSuccess;
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
    cudaMemPool_t pool = nullptr;
    CORANK_CUDA_TRY(detail::library_pool(&pool));
    return cudaMallocFromPoolAsync(memory, bytes, pool, stream);
  }
  static cudaError_t deallocate_cached(void*, void* memory, std::size_t, std::size_t,
                                       cudaStream_t stream) noexcept {
    return cudaFreeAsync(memory, stream);
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

/// Sets the most bytes the cache on `device` keeps mapped across synchronisations (its release
/// threshold); memory above it goes back to the driver at the next synchronisation.
inline cudaError_t set_cache_limit(std::size_t bytes, int device = -1) {
  cudaMemPool_t pool = nullptr;
  CORANK_CUDA_TRY(detail::library_pool(&pool, device));
  std::uint64_t limit = bytes;
  return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &limit);
}

/// The cache limit on `device`, in *bytes.
inline cudaError_t cache_limit(std::size_t* bytes, int device = -1) {
  if (!bytes) return cudaErrorInvalidValue;
  cudaMemPool_t pool = nullptr;
  CORANK_CUDA_TRY(detail::library_pool(&pool, device));
  std::uint64_t limit = 0;
  CORANK_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &limit));
  *bytes = std::size_t(limit);
  return cudaSuccess;
}

/// Gives the cache's memory on `device` back to the driver, all but what calls still in flight
/// use: synchronises the device first, so that their storage is free by then. The cache fills
/// again on the next call.
inline cudaError_t release_cached_memory(int device = -1) {
  CORANK_CUDA_TRY(detail::resolve_device(device));
  if (device >= detail::device_pools::most_devices) return cudaErrorInvalidDevice;
  const cudaMemPool_t pool = detail::library_pools().pools[device].load(std::memory_order_acquire);
  if (!pool) return cudaSuccess;  // nothing was ever cached there
  int current = 0;
  CORANK_CUDA_TRY(cudaGetDevice(&current));
  if (current != device) CORANK_CUDA_TRY(cudaSetDevice(device));
  cudaError_t status = cudaDeviceSynchronize();
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

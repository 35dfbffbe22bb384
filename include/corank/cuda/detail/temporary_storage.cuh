// How a GPU entry point lays out and takes its temporary storage, written once for all of them:
// the parts of a call's storage (temporary_layout) and the call around a use of it, from wherever
// the storage comes (temporary_storage in memory.cuh: the library's cache, a memory resource or
// the caller's buffer).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>
#include <type_traits>

#include "corank/cuda/error.cuh"
#include "corank/cuda/memory.cuh"

namespace corank::cuda::detail {

/// One part of a call's temporary storage: where it starts and how long it is.
struct temporary_part {
  std::size_t offset = 0, bytes = 0;
  /// The part in the storage at `base` (null when the part is empty).
  template <class T>
  T* in(void* base) const {
    return bytes ? reinterpret_cast<T*>(static_cast<unsigned char*>(base) + offset) : nullptr;
  }
};

/// The parts of a call's temporary storage, one after another, each aligned to 256 bytes (as
/// cudaMalloc's blocks and CUB's temporaries are; every vector access is aligned). A size that
/// overflows makes bytes() the largest size_t, which no buffer or allocation can satisfy: the
/// call refuses it with cudaErrorInvalidValue.
class temporary_layout {
 public:
  static constexpr std::size_t alignment = 256;

  /// Room for `count` objects of type T after the parts so far.
  template <class T>
  temporary_part add(std::size_t count) {
    return add_bytes(count, sizeof(T));
  }
  temporary_part add_bytes(std::size_t count, std::size_t size) {
    constexpr std::size_t most = std::numeric_limits<std::size_t>::max();
    if (overflowed_ || (size && count > most / size)) return overflow();
    const std::size_t bytes = count * size;
    if (bytes > most - (alignment - 1)) return overflow();
    const std::size_t padded = (bytes + alignment - 1) / alignment * alignment;
    if (padded > most - bytes_) return overflow();
    const temporary_part part{bytes_, bytes};
    bytes_ += padded;
    return part;
  }
  /// The whole storage (the largest size_t if a size overflowed).
  std::size_t bytes() const {
    return overflowed_ ? std::numeric_limits<std::size_t>::max() : bytes_;
  }

 private:
  temporary_part overflow() {
    overflowed_ = true;
    return {};
  }
  std::size_t bytes_ = 0;
  bool overflowed_ = false;
};

/// For the functor of the overloads that take the library's cache: keeps it from matching a
/// caller's buffer, so that f(args..., temp, 0) takes the caller's-buffer overload.
template <class F>
using not_a_buffer = std::enable_if_t<!std::is_pointer_v<F> && !std::is_null_pointer_v<F>, int>;

/// Calls `use(void* temp)` (cudaError_t) with `bytes` of temporary storage from `storage`, in
/// `stream`'s order: the caller's buffer (cudaErrorInvalidValue if it is smaller, or null with a
/// non-zero size), or an allocation from the resource, given back in the stream after `use`
/// (which launches its work there). Null when bytes is 0: nothing is allocated.
template <class Use>
cudaError_t with_temporary_storage(const temporary_storage& storage, std::size_t bytes,
                                   cudaStream_t stream, Use&& use) {
  if (bytes == std::numeric_limits<std::size_t>::max()) return cudaErrorInvalidValue;
  if (storage.callers_buffer) {
    if (storage.buffer_bytes < bytes || (bytes && !storage.buffer)) return cudaErrorInvalidValue;
    return use(bytes ? storage.buffer : nullptr);
  }
  if (bytes == 0) return use(nullptr);
  void* temp = nullptr;
  CORANK_CUDA_TRY(storage.resource.allocate(&temp, bytes, temporary_layout::alignment, stream));
  const cudaError_t status = use(temp);
  const cudaError_t given_back =
      storage.resource.deallocate(temp, bytes, temporary_layout::alignment, stream);
  return status != cudaSuccess ? status : given_back;
}

}  // namespace corank::cuda::detail

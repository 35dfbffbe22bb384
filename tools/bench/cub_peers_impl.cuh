// Shared by the cub_peers_*.cu sources (see cub_peers.hpp): which build this translation unit is,
// the key types every peer is instantiated for, and the two-phase call helper.
#pragma once

#include <cstdint>
#include <cub/version.cuh>
#include <memory>

#include "bench/cub_peers.hpp"
#include "bench/gpu_timing.cuh"
#include "corank/functional.hpp"
#include "support/data/shapes.hpp"

#ifndef CORANK_CUB_BUILD
#error "compile the cub_peers sources through corank_add_cub_peers (tools/bench/CMakeLists.txt)"
#endif

namespace corank::bench::peers_detail {

constexpr cub_build this_build = cub_build::CORANK_CUB_BUILD;
using peers = cub_peers<this_build>;

/// Sizes a CUB two-phase call `call(temp, bytes)`, allocates its temporary storage once and
/// returns the run.
template <class Call>
device_run ready(Call call) {
  std::size_t bytes = 0;
  cuda_check(call(nullptr, bytes), "CUB temporary storage size");
  void* memory = nullptr;
  cuda_check(cudaMalloc(&memory, bytes ? bytes : 1), "CUB temporary storage");
  std::shared_ptr<void> temp(memory, cudaFree);
  return [call, temp, bytes] {
    std::size_t size = bytes;
    return call(temp.get(), size);
  };
}

}  // namespace corank::bench::peers_detail

// X(Key, Compare) for every key type of the sweeps: the 16-byte record by its comparator.
// clang-format off
#define CORANK_PEER_KEY_TYPES(X)                  \
  X(std::uint32_t, corank::less)                  \
  X(std::uint64_t, corank::less)                  \
  X(float, corank::less)                          \
  X(double, corank::less)                         \
  X(corank::data::record, corank::data::record_less)
// clang-format on
#define CORANK_PEER_PRIMITIVE_KEYS(X) X(std::uint32_t) X(std::uint64_t) X(float) X(double)

// Shared by the GPU sweeps (merge, sort, segmented scan): the CUBs to compare with, the key types
// by name, byte-exact output checks and the sweeps' timing.
#pragma once

#include <thrust/equal.h>
#include <thrust/execution_policy.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "bench/cub_peers.hpp"
#include "bench/gpu_timing.cuh"
#include "corank/functional.hpp"
#include "support/data/shapes.hpp"

namespace corank::bench {

/// Calls f(std::integral_constant<cub_build, B>{}, is_baseline) for each CUB built in: the newest
/// first (the baseline of every figure) when the build has it, then the toolkit's.
template <class F>
void for_each_cub(F&& f) {
#if CORANK_BENCH_NEWEST_CUB
  f(std::integral_constant<cub_build, cub_build::newest>{}, true);
  f(std::integral_constant<cub_build, cub_build::toolkit>{}, false);
#else
  f(std::integral_constant<cub_build, cub_build::toolkit>{}, true);
#endif
}

/// Which CUBs a report's rows come from, for its metadata.
inline std::string cub_meta() {
  std::string s = "baseline ";
  for_each_cub([&](auto build, bool baseline) {
    s += (baseline ? "" : "; also ") + cub_name(cub_peers<decltype(build)::value>::version()) +
         (decltype(build)::value == cub_build::newest
              ? " (cuda-cccl wheel headers, CORANK_BENCH_CUB_INCLUDE_DIR)"
              : " (the CUDA toolkit's)");
  });
  return s;
}

template <class T>
const char* key_type_name() {
  if constexpr (std::is_same_v<T, std::uint32_t>) return "u32";
  if constexpr (std::is_same_v<T, std::uint64_t>) return "u64";
  if constexpr (std::is_same_v<T, float>) return "f32";
  if constexpr (std::is_same_v<T, double>) return "f64";
  if constexpr (std::is_same_v<T, data::record>) return "record16";
}

/// f(Key{}, comparator) for the key type named `type`: u32, u64, f32, f64 (by corank::less), or
/// record16 (data::record by data::record_less).
template <class F>
auto with_key_type(const std::string& type, F&& f) {
  if (type == "u32") return f(std::uint32_t{}, corank::less{});
  if (type == "u64") return f(std::uint64_t{}, corank::less{});
  if (type == "f32") return f(float{}, corank::less{});
  if (type == "f64") return f(double{}, corank::less{});
  if (type == "record16") return f(data::record{}, data::record_less{});
  throw std::invalid_argument("unknown key type '" + type + "' (u32, u64, f32, f64, record16)");
}

/// Whether two device ranges hold the same bytes (`bytes` a multiple of 4, both 4-byte aligned):
/// stable results are unique, so every output is checked bit for bit against the reference.
inline bool same_bytes(const void* a, const void* b, std::size_t bytes) {
  const auto* x = static_cast<const std::uint32_t*>(a);
  const auto* y = static_cast<const std::uint32_t*>(b);
  return thrust::equal(thrust::device, x, x + bytes / 4, y);
}

inline void poison(void* p, std::size_t bytes) { cuda_check(cudaMemset(p, 0xA5, bytes), "poison"); }

}  // namespace corank::bench

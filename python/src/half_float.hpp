// 2-byte floating-point keys: float16 (IEEE binary16) and bfloat16, held as their bits, on both
// backends (the same type in the CPU module and in the GPU module's kernels, so both order them
// alike). C++17 has no 2-byte float, so this type defines the order on the bits: the numbers'
// order, as CUDA's __hlt compares __half and __nv_bfloat16 values, with -0.0 and +0.0 equal (a
// stable sort keeps them in input order), and every NaN equal to every other NaN and after
// +infinity (NumPy's and PyTorch's sort put NaN there; descending: first). A `<` that is false
// for NaN would make NaN keys break the strict weak order the sorts and merges need (on the GPU
// an output would then not even be a permutation of the input). An order-preserving uint16
// transform would have sorted faster on integer paths, but it orders -0.0 before +0.0 and NaNs by
// sign.
//
// Scans accumulate in float and round each output to the key type (round to nearest even), as
// PyTorch's CPU cumsum does: a running sum held in 11 (float16) or 8 (bfloat16) significant bits
// stops growing within a few thousand items. The conversions are integer code, so a thread that
// flushes subnormals (corank::cpu::detail::flush_subnormals) converts them exactly all the same.
#pragma once

#include <corank/config.hpp>
#ifdef __CUDACC__
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

namespace corank_py {

template <int ExponentBits>
struct half_float {
  static constexpr int mantissa_bits = 15 - ExponentBits;
  static constexpr std::uint16_t sign_mask = 0x8000, magnitude_mask = 0x7fff;
  static constexpr std::uint16_t infinity_bits =
      std::uint16_t(((1u << ExponentBits) - 1) << mantissa_bits);
  /// float's exponent bias minus ours (112 for float16, 0 for bfloat16).
  static constexpr int bias_difference = 127 - ((1 << (ExponentBits - 1)) - 1);
  /// The float mantissa bits a conversion drops (13 for float16, 16 for bfloat16).
  static constexpr int dropped_bits = 23 - mantissa_bits;

  std::uint16_t bits;

#ifdef __CUDACC__
  /// The bits as CUDA's own type (__half or __nv_bfloat16), for the device's comparisons.
  static __device__ __forceinline__ auto as_cuda(half_float h) {
    if constexpr (ExponentBits == 5)
      return __ushort_as_half(h.bits);
    else
      return __ushort_as_bfloat16(h.bits);
  }
#endif

  CORANK_HD constexpr bool is_nan() const { return (bits & magnitude_mask) > infinity_bits; }

  /// The place in the keys' order: sign-magnitude read as a signed integer (-0 and +0 both 0),
  /// every NaN one place past +infinity.
  CORANK_HD constexpr int ordinal() const {
    const int magnitude = bits & magnitude_mask;
    if (is_nan()) return infinity_bits + 1;
    return bits & sign_mask ? -magnitude : magnitude;
  }

  friend CORANK_HD bool operator<(half_float a, half_float b) {
#ifdef __CUDA_ARCH__
    // The same order from the GPU's own 2-byte comparisons (HSETP2: -0.0 == +0.0, false with a
    // NaN): a < b unless a >= b or a is NaN, so a number < NaN and NaN < nothing. Comparing
    // the ordinals (two selects and a negation per side) sorted 100M float16 keys in 7.66 ms,
    // this in 5.97 (int16 keys: 3.85; H100, docs/notes/python.md).
    const auto x = as_cuda(a), y = as_cuda(b);
    return !(__hge(x, y) | __hisnan(x));  // | : no branch
#else
    return a.ordinal() < b.ordinal();
#endif
  }

  /// The value as float (exact: float holds every float16 and bfloat16 value, NaN payloads too).
  explicit operator float() const {
    const std::uint32_t magnitude = bits & magnitude_mask, exponent = magnitude >> mantissa_bits,
                        mantissa = magnitude & ((1u << mantissa_bits) - 1);
    std::uint32_t out;
    if (exponent == (infinity_bits >> mantissa_bits)) {  // infinity, NaN
      out = 0x7f800000u | mantissa << dropped_bits;
    } else if (exponent != 0 || bias_difference == 0 || mantissa == 0) {
      // Normal, or zero, or a bfloat16 subnormal (a float subnormal too): rebias the exponent.
      out = exponent == 0 ? magnitude << dropped_bits
                          : (exponent + bias_difference) << 23 | mantissa << dropped_bits;
    } else {  // a float16 subnormal, normal as float: shift its leading 1 into the hidden bit
      std::uint32_t significand = mantissa;
      std::uint32_t float_exponent = 1 + bias_difference;
      while (!(significand & (1u << mantissa_bits))) significand <<= 1, --float_exponent;
      out = float_exponent << 23 | (significand & ((1u << mantissa_bits) - 1)) << dropped_bits;
    }
    out |= std::uint32_t(bits & sign_mask) << 16;
    float f;
    std::memcpy(&f, &out, sizeof f);
    return f;
  }

  /// f rounded to nearest, ties to even (overflow to infinity, NaN stays a quiet NaN).
  static half_float from(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    const auto sign = std::uint16_t((u >> 16) & sign_mask);
    const std::uint32_t magnitude = u & 0x7fffffffu, float_exponent = magnitude >> 23;
    if (magnitude > 0x7f800000u)  // NaN: quiet, with the payload's leading bits
      return {std::uint16_t(sign | infinity_bits | 1u << (mantissa_bits - 1) |
                            (magnitude & 0x7fffffu) >> dropped_bits)};
    // The significand with its hidden bit, and the exponent as ours (a float subnormal counts as
    // exponent 1 without the hidden bit).
    const std::uint32_t significand = (magnitude & 0x7fffffu) | (float_exponent ? 1u << 23 : 0u);
    const int exponent = int(float_exponent ? float_exponent : 1) - bias_difference;
    if (exponent >= int(infinity_bits >> mantissa_bits))
      return {std::uint16_t(sign | infinity_bits)};
    // Normal: (exponent - 1) above the significand's hidden bit makes the exponent field, and a
    // carry out of the rounded significand raises it (to infinity past the largest value).
    // Subnormal: the significand shifted down to units of our smallest subnormal.
    const std::uint32_t base = exponent >= 1 ? std::uint32_t(exponent - 1) << mantissa_bits : 0;
    int shift = exponent >= 1 ? dropped_bits : dropped_bits + 1 - exponent;
    if (shift > 31) shift = 31;  // significand < 2^24: rounds to 0 from a shift of 25 on
    std::uint32_t kept = significand >> shift;
    const std::uint32_t rest = significand & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (kept & 1))) ++kept;
    return {std::uint16_t(sign | (base + kept))};
  }
};

using float16 = half_float<5>;
using bfloat16 = half_float<8>;

/// A scan's input of 2-byte floats, read as float. The scans only index it (in[j]) and take its
/// value_type from std::iterator_traits, which wants the five names.
template <class H>
struct widened {
  using value_type = float;  // the scan accumulates in its input's value type
  using difference_type = std::ptrdiff_t;
  using pointer = const float*;
  using reference = float;
  using iterator_category = std::random_access_iterator_tag;
  const H* items;
  float operator[](std::size_t i) const { return static_cast<float>(items[i]); }
};

/// A scan's output of 2-byte floats: out[j] = (float) rounds to H.
template <class H>
struct narrowed {
  struct slot {
    H* item;
    void operator=(float v) const { *item = H::from(v); }
  };
  H* items;
  slot operator[](std::size_t i) const { return {items + i}; }
};

template <class K>
inline constexpr bool is_half_float = std::is_same_v<K, float16> || std::is_same_v<K, bfloat16>;

}  // namespace corank_py

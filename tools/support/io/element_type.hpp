// The element types the CLI handles (`--type u32` ...) and the one place that turns a runtime
// type tag into a template instantiation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace corank::io {

enum class element_type { u32, i32, u64, i64, f32, f64 };

/// Every CLI element type, for explicit instantiation: X(type, tag).
#define CORANK_FOR_EACH_ELEMENT_TYPE(X) \
  X(std::uint32_t, u32)                 \
  X(std::int32_t, i32)                  \
  X(std::uint64_t, u64)                 \
  X(std::int64_t, i64)                  \
  X(float, f32)                         \
  X(double, f64)

/// Parses "u32", "f64", ...; throws std::invalid_argument naming the accepted spellings.
element_type parse_element_type(std::string_view name);
std::string_view to_string(element_type t);
std::size_t size_of(element_type t);

template <class T>
struct type_tag {
  using type = T;
};

/// Calls f(type_tag<T>{}) for the C++ type T named by `t`.
template <class F>
decltype(auto) dispatch(element_type t, F&& f) {
  switch (t) {
    case element_type::u32:
      return f(type_tag<std::uint32_t>{});
    case element_type::i32:
      return f(type_tag<std::int32_t>{});
    case element_type::u64:
      return f(type_tag<std::uint64_t>{});
    case element_type::i64:
      return f(type_tag<std::int64_t>{});
    case element_type::f32:
      return f(type_tag<float>{});
    case element_type::f64:
      break;
  }
  return f(type_tag<double>{});
}

}  // namespace corank::io

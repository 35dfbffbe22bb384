#include "support/io/element_type.hpp"

#include <stdexcept>

namespace corank::io {

element_type parse_element_type(std::string_view name) {
#define CORANK_MATCH(T, tag) \
  if (name == #tag) return element_type::tag;
  CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_MATCH)
#undef CORANK_MATCH
  throw std::invalid_argument("unknown type '" + std::string(name) + "' (u32|i32|u64|i64|f32|f64)");
}

std::string_view to_string(element_type t) {
  switch (t) {
#define CORANK_NAME(T, tag) \
  case element_type::tag:   \
    return #tag;
    CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_NAME)
#undef CORANK_NAME
  }
  return "?";
}

std::size_t size_of(element_type t) {
  return dispatch(t, [](auto tag) { return sizeof(typename decltype(tag)::type); });
}

}  // namespace corank::io

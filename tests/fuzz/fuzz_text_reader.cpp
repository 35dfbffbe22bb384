// libFuzzer target: no input may crash, hang or exhaust memory in the text reader of key files
// (--format text), for any key type; every rejection must be a corank::io::file_error whose
// message stays short (the offending text is cut at 60 characters).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "support/io/array_file.hpp"
#include "support/io/element_type.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
#define CORANK_PARSE(T, tag)                                                    \
  try {                                                                         \
    const auto values = corank::io::parse_text_array<T>(text, "'fuzz'");        \
    if (values.size() > size) __builtin_trap(); /* one number a line at most */ \
  } catch (const corank::io::file_error& e) {                                   \
    if (std::strlen(e.what()) > 200) __builtin_trap();                          \
  }
  CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_PARSE)
#undef CORANK_PARSE
  return 0;
}

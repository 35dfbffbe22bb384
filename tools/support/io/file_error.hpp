// The one exception type of file I/O: its message names the file and, where it applies, the line
// or element.
#pragma once

#include <stdexcept>

namespace corank::io {

class file_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace corank::io

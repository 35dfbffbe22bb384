// Reading an input that must be sorted, for the commands that take sorted keys (merge, set,
// search): refused with the file and the first offending index otherwise.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "support/io/array_file.hpp"

namespace corank::cli {

template <class T>
std::vector<T> read_sorted(const std::string& path, io::file_format format,
                           const std::string& command) {
  std::vector<T> keys = io::read_array<T>(path, format);
  if (const std::size_t i = io::first_unsorted(keys.data(), keys.size()); i != keys.size())
    throw std::runtime_error("'" + path + "' is not sorted: element " + std::to_string(i) +
                             " is smaller than element " + std::to_string(i - 1) + " (" + command +
                             " needs ascending inputs; is --type right?)");
  return keys;
}

}  // namespace corank::cli

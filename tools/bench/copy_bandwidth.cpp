#include "bench/copy_bandwidth.hpp"

#include <omp.h>

#include <cstring>

#include "corank/merge_path.hpp"

namespace corank::bench {

stats measure_host_copy(void* dst, const void* src, std::size_t bytes, int threads,
                        const timing_config& cfg) {
  auto* to = static_cast<char*>(dst);
  const auto* from = static_cast<const char*>(src);
  return measure(
      [&] {
// Small copies on one thread: starting a team would cost more than the copy.
#pragma omp parallel num_threads(bytes >= (std::size_t(1) << 20) ? threads : 1)
        {
          const std::size_t parts = static_cast<std::size_t>(omp_get_num_threads());
          const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
          const std::size_t begin = corank::even_split(bytes, parts, t);
          const std::size_t end = corank::even_split(bytes, parts, t + 1);
          std::memcpy(to + begin, from + begin, end - begin);
        }
      },
      cfg);
}

}  // namespace corank::bench

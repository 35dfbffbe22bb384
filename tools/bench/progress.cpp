#include "bench/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace corank::bench {

progress::progress(int total_steps, bool enabled)
    : total_(total_steps),
      enabled_(enabled),
      terminal_(isatty(fileno(stderr)) != 0),
      start_(std::chrono::steady_clock::now()) {}

progress::~progress() {
  if (enabled_ && terminal_) std::fprintf(stderr, "\r\033[K");
}

void progress::step(const std::string& what) {
  if (!enabled_) return;
  ++done_;
  const double elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::fprintf(stderr, "%s[%d/%d %5.1fs] %s%s", terminal_ ? "\r\033[K" : "", done_, total_,
               elapsed_s, what.c_str(), terminal_ ? "" : "\n");
  std::fflush(stderr);
}

}  // namespace corank::bench

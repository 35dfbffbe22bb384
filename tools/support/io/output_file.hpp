// An output file, opened before the work that fills it and committed after, so that a run that
// fails or is killed never leaves a half-written output, nor clobbers the one that was there.
//
// - A regular file, or a name not taken yet, is written to a temporary file beside it
//   (`.NAME.corank-PID-XXXXXX`, mode 0666 & ~umask for a new file, the old file's mode for a
//   replaced one) and renamed over it by commit(). The temporary file is registered for removal
//   on SIGINT, SIGTERM and SIGHUP; one left by a killed run (SIGKILL, a crash) is removed by the
//   next run on the same output, once its PID is gone.
// - Anything else (a device such as /dev/null or /dev/full, a FIFO, a terminal, /dev/stdout) is
//   written directly: there is nothing to rename over, and the node itself is never replaced.
// - A symbolic link is followed: the file it names is replaced, the link stays.
// Bad outputs are refused when the output is opened, before any work: an empty name, a directory,
// a missing or unwritable folder, a read-only file. Every write, the flush, fsync and close are
// checked; a failure (ENOSPC on /dev/full or a full disk) is a file_error naming the output.
#pragma once

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "support/io/file_error.hpp"

namespace corank::io {

class output_file {
 public:
  /// Opens `path` for writing as described above; throws file_error saying what is wrong.
  explicit output_file(const std::filesystem::path& path);
  ~output_file();  // removes the temporary file unless committed
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;

  /// Writes `size` bytes; throws file_error naming the output on failure.
  void write(const void* data, std::size_t size);
  void write(std::string_view text) { write(text.data(), text.size()); }

  /// Flushes and syncs, then renames the temporary file into place. Throws file_error on any
  /// failure (the old output, if any, is then untouched).
  void commit();

  const std::filesystem::path& path() const { return path_; }
  /// True when the output is this process's standard output (e.g. -o /dev/stdout): messages
  /// then belong on stderr.
  bool is_stdout() const { return is_stdout_; }

 private:
  [[noreturn]] void fail(const std::string& what, int error) const;
  void discard() noexcept;

  std::filesystem::path path_;    // as given
  std::filesystem::path target_;  // symbolic links resolved
  std::string temp_;              // empty when written directly
  std::FILE* file_ = nullptr;
  int temp_slot_ = -1;
  bool is_stdout_ = false;
};

/// Opens `path`, runs `write(out)`, commits. For outputs whose content is ready before the open.
void write_atomically(const std::filesystem::path& path,
                      const std::function<void(output_file&)>& write);

}  // namespace corank::io

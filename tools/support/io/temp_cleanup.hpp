// Temporary files that a signal must not leave behind. While an output is being written to a
// temporary file beside it, the file's path is registered here; SIGINT, SIGTERM and SIGHUP then
// unlink every registered path and end the process with the signal's default action (so the exit
// status still says which signal it was). The handler only reads fixed slots and calls unlink,
// signal and raise: all async-signal-safe. A signal that was ignored when the process started
// (nohup, `cmd &` in a script) stays ignored.
#pragma once

#include <signal.h>

#include <string>

namespace corank::io {

/// Registers `path` for removal on SIGINT, SIGTERM or SIGHUP (installing the handlers the first
/// time); returns a slot for unregister_temp. Throws file_error when every slot is taken.
int register_temp(const std::string& path);

/// Forgets the path in `slot` (after the file was renamed into place or removed).
void unregister_temp(int slot);

/// Blocks SIGINT, SIGTERM and SIGHUP for its lifetime, so that creating a temporary file and
/// registering it happen as one step; a signal that arrives meanwhile is handled at the end.
class signals_deferred {
 public:
  signals_deferred();
  ~signals_deferred();
  signals_deferred(const signals_deferred&) = delete;
  signals_deferred& operator=(const signals_deferred&) = delete;

 private:
  sigset_t saved_;
};

}  // namespace corank::io

#include "support/io/temp_cleanup.hpp"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "support/io/array_file.hpp"

namespace corank::io {
namespace {

// Two outputs at most per command today (bench --json and --csv); room to spare.
constexpr int slot_count = 16;
enum slot_state : int { free_slot = 0, filling = 1, armed = 2 };

struct temp_slot {
  std::atomic<int> state{free_slot};
  char path[PATH_MAX];
};
temp_slot slots[slot_count];
static_assert(std::atomic<int>::is_always_lock_free, "the handler reads the slots lock-free");

constexpr int handled_signals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temps_and_reraise(int sig) {
  const int saved_errno = errno;
  for (temp_slot& s : slots)
    if (s.state.load() == armed) ::unlink(s.path);
  // Die of the same signal, with its default action, once this handler returns.
  ::signal(sig, SIG_DFL);
  ::raise(sig);
  errno = saved_errno;
}

void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : handled_signals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      struct sigaction action {};
      action.sa_handler = remove_temps_and_reraise;
      sigemptyset(&action.sa_mask);
      for (int other : handled_signals) sigaddset(&action.sa_mask, other);
      ::sigaction(sig, &action, nullptr);
    }
  });
}

sigset_t handled_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : handled_signals) sigaddset(&set, sig);
  return set;
}

}  // namespace

int register_temp(const std::string& path) {
  install_handlers();
  if (path.size() >= PATH_MAX) throw file_error("path too long: '" + path + "'");
  for (int i = 0; i < slot_count; ++i) {
    int expected = free_slot;
    if (!slots[i].state.compare_exchange_strong(expected, filling)) continue;
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].state.store(armed);
    return i;
  }
  throw file_error("too many outputs open at once (at most " + std::to_string(slot_count) + ")");
}

void unregister_temp(int slot) {
  if (slot >= 0 && slot < slot_count) slots[slot].state.store(free_slot);
}

signals_deferred::signals_deferred() {
  const sigset_t set = handled_set();
  ::pthread_sigmask(SIG_BLOCK, &set, &saved_);
}

signals_deferred::~signals_deferred() { ::pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }

}  // namespace corank::io

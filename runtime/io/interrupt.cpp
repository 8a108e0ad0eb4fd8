#include "runtime/io/interrupt.h"

#include <atomic>
#include <csignal>
#include <cstring>

#include <limits.h>
#include <unistd.h>

namespace tujit::runtime::io {

namespace {

// A process writes a handful of outputs at once (bench: JSON, CSV, SVG); 32 leaves room.
constexpr int kSlots = 32;
enum : int { kFree = 0, kFilling = 1, kLive = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX] = {};
};

Slot g_slots[kSlots];
std::atomic<int> g_graceful_depth{0};
volatile std::sig_atomic_t g_stop_signal = 0;
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

void on_signal(int sig) {
  if (g_graceful_depth.load() > 0 && g_stop_signal == 0) {
    g_stop_signal = sig;
    return;
  }
  // unlink() and raise() are async-signal-safe; the slots hold plain copies of the paths.
  for (auto& s : g_slots)
    if (s.state.load() == kLive) ::unlink(s.path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Over the default disposition only: a signal the parent ignores, or one another component
// handles, is left alone. Checked on every use (three sigaction calls), so a process that
// restores the default later (a forked child) gets the cleanup too.
void install_handlers() {
  for (int sig : kSignals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    struct sigaction sa {};
    sa.sa_handler = &on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(sig, &sa, nullptr);
  }
}

} // namespace

int register_temporary(const char* path) {
  install_handlers();
  if (std::strlen(path) >= PATH_MAX) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::strcpy(g_slots[i].path, path);
    g_slots[i].state.store(kLive);
    return i;
  }
  return -1;
}

void release_temporary(int slot) {
  if (slot >= 0 && slot < kSlots) g_slots[slot].state.store(kFree);
}

GracefulStop::GracefulStop() {
  install_handlers();
  g_graceful_depth.fetch_add(1);
}

GracefulStop::~GracefulStop() {
  g_graceful_depth.fetch_sub(1);
}

int stop_requested() {
  return g_stop_signal;
}

void clear_stop_request() {
  g_stop_signal = 0;
}

} // namespace tujit::runtime::io

// The resource-limit options of `tujit run`: --max-bytes, the memory a run may need, checked
// BEFORE anything is allocated (harness/run/run_footprint.h), and --timeout, whose watchdog stops
// a run that outlives it. Both end in a diagnostic of the E-LIMIT family (docs/errors.md) and exit
// status 1 (docs/cli.md: the kernel, as asked to run, is the problem), never in an out-of-memory
// kill or a hung CI job.
#pragma once

#include "ir/support/diagnostic.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace tujit::cli {

/// `--max-bytes` values: a natural number of bytes with an optional binary suffix
/// (`K`/`KiB`, `M`/`MiB`, `G`/`GiB`, `T`/`TiB`; case-insensitive; `B` alone = bytes), e.g.
/// "4GiB", "512M", "1048576". nullopt for anything else, 0, or more than 2^64 - 1.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

/// `--timeout` values: seconds as a decimal number ("30", "2.5"); "0" = no timeout. nullopt for
/// a negative, non-numeric or absurd (over a year) value.
std::optional<std::chrono::milliseconds> parse_timeout(std::string_view text);

/// Runs `on_expire` once on its own thread when `limit` passes before disarm() (or destruction).
/// A zero limit arms nothing. disarm() returns once the action can no longer start; if it has
/// started already, disarm() waits for it to return. expired() lets an engine with cancellation
/// points (the JIT's slot-group loop) poll instead of relying on the action.
class Watchdog {
public:
  using Action = std::function<void()>;
  Watchdog(std::chrono::milliseconds limit, Action on_expire);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void disarm();
  bool expired() const { return expired_.load(); }

private:
  void wait(std::chrono::milliseconds limit);

  Action on_expire_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool disarmed_ = false;
  std::atomic<bool> expired_{false};
  std::thread thread_;
};

/// E-LIMIT-003: "kernel 'K' did not finish within the --timeout of S s".
Diagnostic timeout_diagnostic(std::string_view kernel, std::chrono::milliseconds limit);

/// The action `tujit run --timeout` arms: renders timeout_diagnostic() on `err`, flushes it and
/// ends the process with exit status 1 (std::_Exit: the interpreter has no cancellation point,
/// and nothing else must run on a half-finished simulation). Arm it just around the run and
/// write nothing else to `err` while it is armed.
Watchdog::Action exit_on_timeout(std::string kernel, std::chrono::milliseconds limit,
                                 std::ostream& err);

} // namespace tujit::cli

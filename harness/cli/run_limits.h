// Resource limits of `tujit run`: the memory a run will need is checked BEFORE anything is
// allocated (--max-bytes), and a watchdog stops a run that outlives --timeout. Both end in a
// diagnostic of the E-LIMIT family (docs/errors.md) and exit status 1 (docs/cli.md: the kernel,
// as asked to run, is the problem), never in an out-of-memory kill or a hung CI job.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/seq/run_operands.h"
#include "ir/seq/run_program.h"
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
#include <vector>

namespace tujit::cli {

/// Default of `--max-bytes`: what the run allocates (run_footprint).
inline constexpr std::uint64_t kDefaultMaxRunBytes = std::uint64_t{4} << 30;
/// What the footprint model charges: logical tensors at their natural width
/// (runtime::element_bytes); a position of a view dimension while its address streams are made
/// (its coordinates: 8 bytes per axis, a state, and an explicit table entry of 16 bytes); an entry
/// of the JIT's per-flit and per-output-cell tables; a device cell of the stage-by-stage executor
/// (runtime/device/device_image.h: 32-bit container + state byte + presence byte); the --verify
/// oracle's double per output element.
inline constexpr std::uint64_t kStreamPositionBytes = 17;
inline constexpr std::uint64_t kJitTableEntryBytes = 9;
inline constexpr std::uint64_t kDeviceCellBytes = 6;
inline constexpr std::uint64_t kOracleElementBytes = 8;

/// One tensor the run will hold in memory.
struct FootprintItem {
  std::string what;        // "input 'lhs' (logical [M=32, K=64])", "output image …"
  std::uint64_t cells = 0; // elements or device cells (saturated at 2^64 - 1)
  std::uint64_t bytes = 0; // cells × bytes per cell (saturated)
  SourceSpan span;         // the parameter or stage it belongs to
};

struct RunFootprint {
  std::vector<FootprintItem> items;
  std::uint64_t total_bytes = 0; // saturated sum
  /// The input tiles found on the way (ir::seq::input_tiles), when inputs are generated: the run
  /// takes them instead of evaluating the views again.
  std::optional<ir::seq::InputShapes> tiles;
};

/// What running `ops` of `kernel` will allocate: every input's logical tensor (its tile, or the
/// whole tensor when `inputs_given`), the logical output, the address streams of every view the
/// run reads or writes and the JIT's tables; with `verify` the other engine's output, the
/// oracle's float64 output and its views of the inputs. A run of part of a chain (the
/// stage-by-stage executor) holds device images instead: of each input, each collected stream,
/// the stored TRF and the output. Everything comes from the types' mappings; finding the tiles
/// evaluates view dimensions of at most max_bytes / kStreamPositionBytes positions, so nothing
/// larger than the budget is allocated. E-RUN-003 when a size overflows.
Result<RunFootprint> run_footprint(const ir::SpecFile& file, const ir::Kernel& kernel,
                                   const ir::seq::RunOperands& ops, bool verify,
                                   bool inputs_given = false,
                                   std::uint64_t max_bytes = kDefaultMaxRunBytes);

/// run_footprint(), then the limit: the footprint when total_bytes <= max_bytes, else one
/// E-LIMIT-002 diagnostic naming the total, the limit and the largest tensor (pointing at its
/// parameter), with one note per tensor.
Result<RunFootprint> check_run_size(const ir::SpecFile& file, const ir::Kernel& kernel,
                                    const ir::seq::RunOperands& ops, bool verify,
                                    std::uint64_t max_bytes, bool inputs_given = false);

/// `--max-bytes` values: a natural number of bytes with an optional binary suffix
/// (`K`/`KiB`, `M`/`MiB`, `G`/`GiB`, `T`/`TiB`; case-insensitive; `B` alone = bytes), e.g.
/// "4GiB", "512M", "1048576". nullopt for anything else, 0, or more than 2^64 - 1.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

/// `--timeout` values: seconds as a decimal number ("30", "2.5"); "0" = no timeout. nullopt for
/// a negative, non-numeric or absurd (over a year) value.
std::optional<std::chrono::milliseconds> parse_timeout(std::string_view text);

/// "512 B", "3.0 KiB", "4.0 GiB" (for messages).
std::string human_bytes(std::uint64_t bytes);

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

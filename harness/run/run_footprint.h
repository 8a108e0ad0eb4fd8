// The memory a run of a kernel will need, from its types alone, and the limit on it
// (`--max-bytes`, docs/cli.md): `tujit run` checks it before anything is allocated, and the
// commands that lower, compile or time a kernel without running it (explain, cycles, compile,
// bench, tune) refuse a kernel `run` would refuse, since lowering and the cycle models walk the
// kernel's streams and grow with its tensors. Too much ends in E-LIMIT-002 (docs/errors.md) and
// exit status 1 (docs/cli.md: the kernel, as asked to run, is the problem), never in an
// out-of-memory kill.
#pragma once

#include "harness/run/run_plan.h"
#include "ir/lang/kernel.h"
#include "ir/seq/run_operands.h"
#include "ir/seq/run_program.h"
#include "ir/support/diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tujit::run {

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

/// check_run_size of a run plan: of its one command, or the sum of its commands' footprints (a
/// bound on what is alive at once), each item named after its command.
Result<RunFootprint> check_run_size(const ir::SpecFile& file, const RunPlan& plan, bool verify,
                                    std::uint64_t max_bytes, bool inputs_given = false);

/// E-LIMIT-002 when running `kernel` (without --verify) would need more than `max_bytes`
/// (check_run_size); nullopt when it fits, or when it is no kernel `run` could execute (then
/// nothing sizes it, and the command's own checks refuse it).
std::optional<Diagnostic> kernel_size_error(const ir::SpecFile& file,
                                            const ir::verify::CheckedKernel& kernel,
                                            std::uint64_t max_bytes);

/// "512 B", "3.0 KiB", "4.0 GiB" (for messages).
std::string human_bytes(std::uint64_t bytes);

} // namespace tujit::run

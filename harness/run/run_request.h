// What one run of a kernel asks for and what it returns (docs/cli.md `tujit run`): the types of
// the run pipeline (run_pipeline.h) that `tujit run`, `tujit bench` and the tests share.
#pragma once

#include "codegen/contraction_jit.h"
#include "ir/seq/fetch_program.h"
#include "ir/seq/run_operands.h"
#include "ir/seq/run_program.h"
#include "runtime/tensor/logical_tensor.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::run {

using ir::seq::RunOperands;
using ir::seq::RunShape;

enum class Engine { Jit, Interp };
std::string_view engine_name(Engine e);

struct RunRequest {
  Engine engine = Engine::Jit;
  unsigned threads = 0; // worker threads (JIT slices, input generation), 0 = every hardware thread
  codegen::JitOptions jit;
  bool ftz_results = false; // docs/contraction.md §9.3 switch
  std::uint64_t seed = 0;
  /// Parameter name → its logical contents: the whole logical tensor, or just the tile the kernel
  /// reads (input_tiles). Parameters not listed get seeded random contents over their tile.
  std::map<std::string, runtime::LogicalTensor> given;
  /// The input tiles when the caller has found them already (ir::seq::input_tiles of the same
  /// kernel and operands); found by the run otherwise.
  std::optional<ir::seq::InputShapes> tiles;
  bool verify = false;
  /// Called with the lowered program before it runs, on the thread that lowers it: work that
  /// needs only the program (tujit run's cycle counts) then overlaps the inputs' making.
  std::function<void(const ir::seq::RunProgram&)> on_lowered;
};

struct RunVerification {
  /// The other engine's result equals this one's bit for bit (output, poison report, simulated
  /// MACs); else `engine_difference` names the first difference.
  bool engines_bit_exact = false;
  std::string other_engine;
  /// Why no second engine ran (then engines_bit_exact is false and means nothing).
  std::optional<std::string> engines_not_compared;
  std::string engine_difference;
  /// Why the float64 oracle does not describe the kernel (then no oracle fields). For a Store /
  /// Collect run the "oracle" is the input itself: every output element must equal the input
  /// element (after the Fetch Adapter) bit for bit.
  std::optional<std::string> oracle_not_applicable;
  double oracle_max_abs_err = 0;
  bool oracle_ok = false;
  std::uint64_t mismatches = 0;
  std::string worst; // coordinate of the largest error
};

/// A command of a kernel run command by command, before the result's (docs/kernels.md §3): what
/// it committed and how its run went.
struct CommandOutcome {
  std::string value;   // the DmTensor it commits, as later commands read it
  std::string summary; // its output's axes, shape and dtype ("[A] = [2048] i32")
  std::string sha256;  // of its output's bytes
  std::uint64_t simulated_macs = 0;
  std::uint64_t poisoned_outputs = 0;
  double run_ms = 0;
  std::optional<RunVerification> verify;
};

struct RunOutcome {
  RunShape shape = RunShape::Contraction;
  /// What the engines ran: the chain and the address streams (Contraction, Store, Collect runs).
  ir::seq::RunProgram program;
  /// The DM fetch chains the kernel composes before its consumer (stream first, then the TRF's).
  std::vector<ir::seq::FetchProgram> fetches;
  std::string engine = "jit";
  unsigned threads = 1;
  runtime::LogicalTensor output; // over the output's held axes, the output type's dtype
  std::vector<std::string> output_axes;
  std::string sha256; // of the output's bytes (docs/cli.md)
  std::uint64_t poisoned_outputs = 0;
  std::uint64_t simulated_macs = 0;
  std::optional<RunVerification> verify;
  double lower_ms = 0;   // verifiers + lowering to the Sequencer IR (address streams included)
  double inputs_ms = 0;  // making the inputs (seeded random contents, or the given tile)
  double compile_ms = 0; // JIT: the IR → native (a cache hit loads an object)
  bool cache_hit = false;
  double run_ms = 0;    // the engine on the inputs, output written
  double verify_ms = 0; // the other engine and the oracle
  /// A kernel run command by command: the commands before the result's, in execution order. The
  /// fields above are the result command's, but for the times and simulated MACs, which are the
  /// sums over every command, and `verify`, which passes only when every command's passes.
  std::vector<CommandOutcome> earlier;
};

} // namespace tujit::run

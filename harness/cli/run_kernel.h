// The "lower → lay out → run → read back → verify" pipeline of `tujit run` (spec/cli.md), kept
// apart from the command line: one engine runs the kernel's Sequencer IR program; `--verify` runs
// the other engine on the same images and compares bit for bit, then checks the float64 oracle.
#pragma once

#include "codegen/contraction_jit.h"
#include "ir/lang/kernel.h"
#include "ir/seq/contraction_program.h"
#include "ir/support/diagnostic.h"
#include "runtime/tensor/logical_tensor.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tujit::cli {

/// Which kernel parameters feed the contraction chain (contraction.md §5): the stream is the
/// CollectTensor parameter the contract_outer stage is called on; the TRF is either a TrfTensor
/// parameter or made in the kernel by `.to_trf()` of another CollectTensor parameter.
struct RunOperands {
  const ir::Stage* outer = nullptr;        // the contract_outer stage
  const ir::Stage* lane = nullptr;         // the contract_lane stage of the same chain
  const ir::KernelParam* stream = nullptr; // CollectTensor parameter
  const ir::KernelParam* trf = nullptr;    // TrfTensor parameter, or the source of trf_store
  const ir::Stage* trf_store = nullptr;    // the in-kernel to_trf stage, when there is one
  /// The parameters whose contents the run needs (stream, then TRF or its source).
  std::vector<const ir::KernelParam*> inputs() const { return {stream, trf}; }
};

/// Finds the operands, or an E-RUN-101 diagnostic "tujit run: … not supported yet: …" for a
/// kernel shape the interpreter cannot be fed yet (DmTensor fetch path = issue 8, ambiguous
/// parameters).
Result<RunOperands> find_run_operands(const ir::Kernel& kernel);

enum class Engine { Jit, Interp };
std::string_view engine_name(Engine e);

struct RunRequest {
  Engine engine = Engine::Jit;
  unsigned threads = 0; // JIT worker threads, 0 = every hardware thread
  codegen::JitOptions jit;
  bool ftz_results = false; // contraction.md §9.3 switch
  std::uint64_t seed = 0;
  /// Parameter name → its logical contents; parameters not listed get seeded random contents
  /// (fill_random with parameter_seed(seed, name)).
  std::map<std::string, runtime::LogicalTensor> given;
  bool verify = false;
};

struct RunVerification {
  /// The other engine's result equals this one's bit for bit (outputs, cell states, poison,
  /// simulated MACs); else `engine_difference` names the first difference.
  bool engines_bit_exact = false;
  std::string other_engine;
  std::string engine_difference;
  /// Why the float64 oracle does not describe the kernel (then no oracle fields).
  std::optional<std::string> oracle_not_applicable;
  double oracle_max_abs_err = 0;
  bool oracle_ok = false;
  std::uint64_t mismatches = 0;
  std::string worst; // coordinate of the largest error
};

struct RunOutcome {
  ir::seq::ContractionProgram program; // what the engines ran (cycle reports, benchmarks)
  std::string engine = "jit";
  unsigned threads = 1;
  runtime::LogicalTensor output; // over tensor_axes(output type), the accumulator dtype
  std::vector<std::string> output_axes;
  std::string sha256; // of tensor_bytes(output) (spec/cli.md)
  std::uint64_t poisoned_outputs = 0;
  std::uint64_t simulated_macs = 0;
  std::optional<RunVerification> verify;
  double lower_ms = 0;   // verifiers + lowering to the Sequencer IR
  double compile_ms = 0; // JIT: parse of the IR → native (a cache hit loads an object)
  bool cache_hit = false;
  double run_ms = 0;    // lay out, execute, read back
  double verify_ms = 0; // the other engine and the oracle
};

/// Runs `kernel` of `file` on the requested engine. Diagnostics for a kernel the
/// interpreter refuses (E-RUN-1xx), a given tensor of the wrong type/shape (E-RUN-004), …
Result<RunOutcome> run_kernel(const ir::SpecFile& file, const ir::Kernel& kernel,
                              const RunOperands& ops, const RunRequest& req);

} // namespace tujit::cli

// The "load → lay out → run → read back → verify" pipeline of `tujit run` (spec/cli.md), kept
// apart from the command line so the JIT engine (issue 6) can run the same inputs through a
// second engine and compare. Today it drives the reference interpreter only.
#pragma once

#include "ir/lang/kernel.h"
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

struct RunRequest {
  std::uint64_t seed = 0;
  /// Parameter name → its logical contents; parameters not listed get seeded random contents
  /// (fill_random with parameter_seed(seed, name)).
  std::map<std::string, runtime::LogicalTensor> given;
  bool verify = false;
};

struct RunVerification {
  /// Why the float64 oracle does not describe the kernel (then no oracle fields).
  std::optional<std::string> oracle_not_applicable;
  double oracle_max_abs_err = 0;
  bool oracle_ok = false;
  std::uint64_t mismatches = 0;
  std::string worst; // coordinate of the largest error
};

struct RunOutcome {
  std::string engine = "interp";
  runtime::LogicalTensor output; // over tensor_axes(output type), the accumulator dtype
  std::vector<std::string> output_axes;
  std::string sha256; // of tensor_bytes(output) (spec/cli.md)
  std::uint64_t poisoned_outputs = 0;
  std::uint64_t simulated_macs = 0;
  std::optional<RunVerification> verify;
  double plan_ms = 0, run_ms = 0, verify_ms = 0;
};

/// Runs `kernel` of `file` on the reference interpreter. Diagnostics for a kernel the
/// interpreter refuses (E-RUN-1xx), a given tensor of the wrong type/shape (E-RUN-004), …
Result<RunOutcome> run_kernel(const ir::SpecFile& file, const ir::Kernel& kernel,
                              const RunOperands& ops, const RunRequest& req);

} // namespace tujit::cli

// The "lower → lay out → run → read back → verify" pipeline of `tujit run` (spec/cli.md), kept
// apart from the command line: one engine runs the kernel's Sequencer IR programs (the DM fetch
// chains, then the contraction); `--verify` runs the other engine on the same inputs and compares
// bit for bit, then checks the float64 oracle (or, for a kernel that only moves data, that every
// element arrived unchanged).
#pragma once

#include "codegen/contraction_jit.h"
#include "harness/cli/run_operands.h"
#include "ir/lang/kernel.h"
#include "ir/seq/contraction_program.h"
#include "ir/seq/fetch_program.h"
#include "ir/support/diagnostic.h"
#include "runtime/tensor/logical_tensor.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tujit::cli {

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
  /// The other engine's result equals this one's bit for bit (the collected streams, outputs,
  /// cell states, poison, simulated MACs); else `engine_difference` names the first difference.
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

struct RunOutcome {
  RunShape shape = RunShape::Contraction;
  /// What the engines ran (cycle reports, benchmarks); Contraction runs only.
  ir::seq::ContractionProgram program;
  /// The DM fetch chains the kernel runs before its consumer (stream first, then the TRF's).
  std::vector<ir::seq::FetchProgram> fetches;
  std::string engine = "jit";
  unsigned threads = 1;
  runtime::LogicalTensor output; // over tensor_axes(output type), the output type's dtype
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

/// A parameter's contents over its tile `axes.at(p.name)` (run_input_axes.h): as given in `req` —
/// a whole logical tensor is cut to the tile, whose elements are all the kernel reads — or seeded
/// random. E-RUN-007 for given contents that do not cover the tile.
Result<runtime::LogicalTensor> run_input(const ir::KernelParam& p,
                                         const std::map<std::string, std::vector<ir::Axis>>& axes,
                                         const RunRequest& req);

/// The inputs of the engines for one run: the parameters' logical contents (given, or seeded
/// random), laid out by their types, fetched and collected from DM and stored into the TRF as the
/// kernel does, by `engine` (the DM fetch chains have an interpreter and a JIT form).
struct RunImages {
  runtime::LogicalTensor stream_input, trf_input; // the parameters' logical contents
  runtime::LogicalTensor buffer_input;            // Write runs: the buffer before the write
  runtime::DeviceImage stream;                    // what the consumer reads (a Collect image)
  runtime::DeviceImage trf;                       // Contraction runs: the TRF operand
  runtime::DeviceImage buffer;                    // Write runs: the buffer before the write
  std::vector<ir::seq::FetchProgram> fetches;     // stream's, then the TRF source's
};
/// With `inputs`, the parameters' contents are taken from it (its stream_input / trf_input)
/// instead of being made again, and the result's own stream_input / trf_input stay empty.
Result<RunImages> make_run_images(const ir::SpecFile& file, const ir::Kernel& kernel,
                                  const RunOperands& ops, const RunRequest& req, Engine engine,
                                  const RunImages* inputs = nullptr);

/// Runs `kernel` of `file` on the requested engine. Diagnostics for a kernel the
/// interpreter refuses (E-RUN-1xx), a given tensor of the wrong type/shape (E-RUN-004), …
Result<RunOutcome> run_kernel(const ir::SpecFile& file, const ir::Kernel& kernel,
                              const RunOperands& ops, const RunRequest& req);

} // namespace tujit::cli

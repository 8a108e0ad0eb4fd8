// The LLVM JIT back end of the Sequencer IR (docs/design.md): a run program
// (ir/seq/run_program.h, a contraction or a data movement) becomes one native function that runs
// one slice bit-exactly like the reference interpreter (runtime::interpret, docs/design.md §2.4),
// specialised on everything the program fixes at compile time, reading the logical tensors
// through the program's address streams.
// Compiled objects are cached on disk under the program's fingerprint (plus the LLVM version,
// the host CPU and the code generator's version) so re-running an unchanged kernel does not
// recompile, and are placed by tujit's own loader (object_loader.h): a cached run never starts
// LLVM (compile_backend.h).
#pragma once

#include "codegen/jit_options.h"
#include "codegen/native_compiler.h"
#include "ir/seq/run_program.h"
#include "ir/support/diagnostic.h"
#include "runtime/engine/run_io.h"
#include "runtime/tensor/random_fill.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace tujit::codegen {

struct ContractionPlan; // contraction_plan.h
class JitCore;          // jit_core.h

/// One compiled run program (a whole chain, a part of one, or a data move) with its poison shadow
/// (poison_emit.h) when compiled with one: owns the linked code and frees it when it dies.
class CompiledContraction {
public:
  CompiledContraction(CompileStats stats, LinkedFunction code, LinkedFunction shadow = {});
  ~CompiledContraction();
  CompiledContraction(const CompiledContraction&) = delete;
  CompiledContraction& operator=(const CompiledContraction&) = delete;

  const CompileStats& stats() const { return stats_; }
  /// The compiled function as the C type of its code generator (contraction_emit.h ContractionFn,
  /// move_emit.h MoveFn, partial_emit.h PartialFn).
  template <typename Fn>
  Fn function() const {
    return code_.as<Fn>();
  }
  /// The poison shadow as poison_emit.h's PoisonFn, or null (the run reports
  /// runtime::analyze_poison's set).
  template <typename Fn>
  Fn poison_function() const {
    return shadow_.address != 0 ? shadow_.as<Fn>() : nullptr;
  }
  /// The plan of the program this code ran last (contraction_plan.h), or null. Runs of one code
  /// may be concurrent: each takes its own reference.
  std::shared_ptr<const ContractionPlan> kept_plan() const;
  void keep_plan(std::shared_ptr<const ContractionPlan> plan) const;

private:
  CompileStats stats_;
  LinkedFunction code_, shadow_;
  mutable std::mutex plan_mu_;
  mutable std::shared_ptr<const ContractionPlan> plan_;
};

class ContractionJit {
public:
  /// The JIT and its object cache (LLVM is started by the first cache miss: E-JIT-001 then when
  /// LLVM cannot target the host or its library cannot be loaded).
  static Result<std::unique_ptr<ContractionJit>> create(JitOptions options = {});
  explicit ContractionJit(std::unique_ptr<JitCore> core);
  ~ContractionJit();
  /// Compiles (or loads from the cache). E-JIT-002 with the kernel's name when LLVM fails.
  Result<std::shared_ptr<const CompiledContraction>> compile(const ir::seq::RunProgram& program);

private:
  std::unique_ptr<JitCore> core_;
};

struct JitRunOptions {
  unsigned threads = 0; // 0 = every hardware thread; results are identical for any count
  /// The stream operand's seeded contents, when its tensor in the inputs was allocated but not
  /// filled: each slice's part is generated where the slice runs (slice_parts.h), or, when the
  /// parts overlap, the TRF reads the same tensor or the program is a part of a chain, the run
  /// fills a copy first. Null: the tensor holds the contents.
  const runtime::SeededContents* stream_contents = nullptr;
  /// Compute the output's digest (RunResult::sha256) as the slices finish, where the output is a
  /// row of blocks, one per slice (slice_parts.h); else it is left to the caller.
  bool digest_output = false;
};

/// Runs a compiled program on the logical inputs (checked like the interpreter's,
/// runtime::check_run_inputs). The result is bit-identical to runtime::interpret's, poison and
/// simulated_macs included: with JitOptions::poison_shadow (or checked) the poisoned set comes from
/// the JIT's own shadow (codegen/poison_emit.h), else from runtime::analyze_poison.
Result<runtime::RunResult> run_contraction_jit(const CompiledContraction& compiled,
                                               const ir::seq::RunProgram& program,
                                               const runtime::RunInputs& inputs,
                                               JitRunOptions options = {});

/// The part of a run's plan that needs no code (contraction_plan.h prepare_plan), for code
/// compiled without JitOptions::poison_shadow: made from the program and the inputs' shapes and
/// types, on one thread while another compiles or loads the code. Null when there is none.
using PreparedPlan = std::shared_ptr<const ContractionPlan>;
PreparedPlan prepare_contraction_plan(const ir::seq::RunProgram& program,
                                      const runtime::RunInputs& inputs);

/// Checks `program` against its code and keeps the plan run_contraction_jit would make on its
/// first run (contraction_plan.h), from `prepared` when it serves: reading only the inputs' shapes
/// and types, not their contents, so it may run while another thread fills them. A no-op for a
/// part of a chain. The run repeats any diagnostic.
Status plan_contraction_run(const CompiledContraction& compiled, const ir::seq::RunProgram& program,
                            const runtime::RunInputs& inputs, PreparedPlan prepared = {});

/// Runs a compiled data-movement program (a move, MoveRun) the same way: bit-identical to
/// runtime::interpret's result.
Result<runtime::RunResult> run_move_jit(const CompiledContraction& compiled,
                                        const ir::seq::RunProgram& program,
                                        const runtime::RunInputs& inputs,
                                        JitRunOptions options = {});

/// `tujit compile --emit llvm` (optimised module text) and `--emit asm` (host assembly).
Result<std::string> emit_llvm_ir(const ir::seq::RunProgram& program, bool checked = false);
Result<std::string> emit_assembly(const ir::seq::RunProgram& program, bool checked = false);

} // namespace tujit::codegen

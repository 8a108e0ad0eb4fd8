// What a run of compiled contraction code needs besides its inputs, derived from the program
// alone: the checks' verdict, the live slices, the staging tables and TRF plan, whether the slices
// write every output element, the poisoned outputs and the simulated MACs. It is made on a code's
// first run of a program, after the checks of checked_jit_run (jit_run_checks.h), and kept by the
// code (CompiledContraction::kept_plan) for its next runs: a benchmark runs one program
// thousands of times, and deriving all this took a fifth of each run. A kept plan serves only a
// program equal to the one it was made from, field for field over everything the fingerprint reads
// (ir::seq::FieldEqual), so code compiled from another program is still refused (E-JIT-002), and
// the inputs are checked on every run (runtime::check_input_tensors). Internal to codegen/.
#pragma once

#include "codegen/contraction_jit.h"
#include "codegen/slice_parts.h"
#include "ir/seq/run_program.h"
#include "runtime/engine/poison.h"
#include "runtime/exec/operand_staging.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tujit::codegen {

struct ContractionPlan {
  ir::seq::RunProgram program; // the program it was made from
  std::vector<std::uint64_t> live;
  runtime::exec::StagedShape shape;
  runtime::exec::ProgramTables tables;
  runtime::exec::TrfPlan trf;
  std::uint64_t stream_load_bytes = 0;
  /// The live slices write every element of the output (each writes every output cell it holds,
  /// contraction_emit.h), so the output need not be cleared first.
  bool writes_whole_output = false;
  StreamParts stream_parts;
  OutputBlocks output_blocks;
  runtime::PoisonReport poison;
  std::uint64_t simulated_macs = 0;
};

/// A whole-chain contraction ready to run: its code and its plan.
struct PlannedRun {
  const CompiledContraction* code = nullptr;
  std::shared_ptr<const ContractionPlan> plan;
};

/// The plan of `program` made without its code, for code compiled without a poison shadow (the
/// poisoned outputs come from runtime::analyze_poison): it reads the program and the inputs'
/// shapes and types only, so it is made while the code is compiled or loaded. Null when the
/// program is not a contraction or lacks its TRF input; the run then plans and reports.
std::shared_ptr<const ContractionPlan> prepare_plan(const ir::seq::RunProgram& program,
                                                    const runtime::RunInputs& inputs);

/// The code and plan of running `compiled` on `program` with `inputs`: the kept plan when
/// `program` equals its program, else checked_jit_run's checks and a new plan (kept) — `prepared`
/// (prepare_plan) when it was made from `program` and serves the code; the inputs checked either
/// way. E-JIT-002 when `compiled` is not this program's code, E-JIT-003 when the poison shadow
/// stops an out-of-bounds access, else checked_jit_run's diagnostics.
Result<PlannedRun> planned_contraction_run(const CompiledContraction& compiled,
                                           const ir::seq::RunProgram& program,
                                           const runtime::RunInputs& inputs,
                                           std::shared_ptr<const ContractionPlan> prepared = {});

} // namespace tujit::codegen

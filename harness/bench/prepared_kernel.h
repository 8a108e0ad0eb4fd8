// What bench_prepare.cpp hands to bench_measure.cpp for one kernel: its programs, logical
// inputs, compiled code and sgemm operands (private to harness/bench/).
#pragma once

#include "codegen/contraction_jit.h"
#include "harness/bench/bench_runner.h"
#include "harness/run/run_inputs.h"
#include "harness/run/run_request.h"
#include "ir/seq/run_program.h"

#include <memory>
#include <vector>

namespace tujit::bench {

struct PreparedKernel {
  KernelResult result;
  // The kernel as `tujit run` runs it (the end-to-end rate); the spec outlives the measurement.
  const ir::SpecFile* file = nullptr;
  const ir::Kernel* kernel = nullptr;
  ir::verify::KernelCheck check; // the kernel's, read by lowering
  ir::verify::CheckedKernel checked() const { return {*kernel, check}; }
  ir::seq::RunOperands ops;
  ir::seq::RunProgram program, interp_program; // interp_program: capped live slices
  run::RunInputTensors inputs;
  std::unique_ptr<codegen::ContractionJit> jit;
  std::shared_ptr<const codegen::CompiledContraction> compiled;
  std::vector<float> a, b, c; // sgemm operands (one batch each, reused over the batch)
};

/// What the end-to-end rate runs: `tujit run` with the bench's seed and threads, JIT, cache on.
run::RunRequest end_to_end_request(const BenchOptions& options);

} // namespace tujit::bench

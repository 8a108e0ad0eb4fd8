// What bench_prepare.cpp hands to bench_measure.cpp for one kernel: its programs, logical
// inputs, compiled code and sgemm operands (private to harness/bench/).
#pragma once

#include "codegen/contraction_jit.h"
#include "harness/bench/bench_runner.h"
#include "harness/run/run_inputs.h"
#include "ir/seq/run_program.h"

#include <memory>
#include <vector>

namespace tujit::bench {

struct PreparedKernel {
  KernelResult result;
  ir::seq::RunProgram program, interp_program; // interp_program: capped live slices
  run::RunInputTensors inputs;
  std::unique_ptr<codegen::ContractionJit> jit;
  std::shared_ptr<const codegen::CompiledContraction> compiled;
  std::vector<float> a, b, c; // sgemm operands (one batch each, reused over the batch)
};

/// The process's peak resident set so far (getrusage), MiB.
double peak_rss_mib();

} // namespace tujit::bench

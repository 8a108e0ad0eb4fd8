// What bench_prepare.cpp hands to bench_measure.cpp for one kernel: its programs, staged
// operand images, compiled code and sgemm operands (private to harness/bench/).
#pragma once

#include "codegen/contraction_jit.h"
#include "harness/bench/bench_runner.h"
#include "ir/seq/contraction_program.h"
#include "runtime/device/device_image.h"

#include <memory>
#include <vector>

namespace tujit::bench {

struct PreparedKernel {
  KernelResult result;
  ir::seq::ContractionProgram program, interp_program; // interp_program: capped live slices
  runtime::DeviceImage stream, trf;
  std::unique_ptr<codegen::ContractionJit> jit;
  std::shared_ptr<const codegen::CompiledContraction> compiled;
  std::vector<float> a, b, c; // sgemm operands (one batch each, reused over the batch)
};

/// The process's peak resident set so far (getrusage), MiB.
double peak_rss_mib();

} // namespace tujit::bench

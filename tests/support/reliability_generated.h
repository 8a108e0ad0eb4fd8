// A generated kernel (tests/support/kernel_gen.h) through the front end, for the tests that run
// generated kernels on the engines (checked JIT, determinism).
#pragma once

#include "ir/lang/kernel.h"
#include "tests/support/kernel_gen.h"

#include <catch2/catch.hpp>

#include <utility>

namespace tujit::testing {

struct AnalyzedKernel {
  GeneratedKernel generated;
  ir::SpecFile file;
  const ir::Kernel& kernel() const { return file.kernels.front(); }
  /// What a failed check should show: the generator's summary and the spec text.
  std::string context() const { return generated.description + "\n" + generated.spec; }
};

/// The generator's next kernel, analysed. The generator makes valid kernels, so the front end
/// must accept it, as one kernel.
inline AnalyzedKernel next_analyzed(KernelGenerator& gen) {
  GeneratedKernel g = gen.next();
  INFO(g.description << "\n" << g.spec);
  auto file = ir::analyze_spec(SourceBuffer(g.kernel_name + ".rs", g.spec));
  if (!file)
    for (const auto& d : file.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(file.ok());
  REQUIRE(file->kernels.size() == 1);
  return {std::move(g), std::move(*file)};
}

} // namespace tujit::testing

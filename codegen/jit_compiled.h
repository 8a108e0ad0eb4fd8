// The concrete CompiledContraction of the LLVM back end, shared by the compiler
// (contraction_jit.cpp) and the runner (contraction_run.cpp). Internal to codegen/.
#pragma once

#include "codegen/contraction_emit.h"
#include "codegen/contraction_jit.h"

#include <functional>
#include <string>

namespace tujit::codegen {

class JitCompiledContraction final : public CompiledContraction {
public:
  JitCompiledContraction(CompileStats stats, ContractionFn fn, bool checked, bool ftz,
                         std::string kernel, std::function<void()> release)
      : stats_(stats), fn_(fn), checked_(checked), ftz_(ftz), kernel_(std::move(kernel)),
        release_(std::move(release)) {}
  ~JitCompiledContraction() override {
    if (release_) release_();
  }
  JitCompiledContraction(const JitCompiledContraction&) = delete;
  JitCompiledContraction& operator=(const JitCompiledContraction&) = delete;

  const CompileStats& stats() const override { return stats_; }
  ContractionFn function() const { return fn_; }
  bool checked() const { return checked_; }
  bool ftz_results() const { return ftz_; }
  const std::string& kernel_name() const { return kernel_; }

private:
  CompileStats stats_;
  ContractionFn fn_;
  bool checked_;
  bool ftz_;
  std::string kernel_;
  std::function<void()> release_; // frees the JIT code (owned by the LLJIT instance)
};

} // namespace tujit::codegen

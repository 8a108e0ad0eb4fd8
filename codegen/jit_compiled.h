// The concrete CompiledContraction of the LLVM back end, shared by the compiler
// (contraction_jit.cpp) and the runner (contraction_run.cpp). Internal to codegen/.
#pragma once

#include "codegen/contraction_emit.h"
#include "codegen/contraction_jit.h"
#include "codegen/move_emit.h"
#include "codegen/native_compiler.h"

#include <string>

namespace tujit::codegen {

class JitCompiledContraction final : public CompiledContraction {
public:
  JitCompiledContraction(CompileStats stats, LinkedFunction fn, bool checked, std::string kernel)
      : stats_(stats), fn_(std::move(fn)), checked_(checked), kernel_(std::move(kernel)) {}
  ~JitCompiledContraction() override {
    if (fn_.release) fn_.release();
  }
  JitCompiledContraction(const JitCompiledContraction&) = delete;
  JitCompiledContraction& operator=(const JitCompiledContraction&) = delete;

  const CompileStats& stats() const override { return stats_; }
  ContractionFn function() const { return fn_.as<ContractionFn>(); }
  MoveFn move_function() const { return fn_.as<MoveFn>(); }
  bool checked() const { return checked_; }
  const std::string& kernel_name() const { return kernel_; }

private:
  CompileStats stats_;
  LinkedFunction fn_;
  bool checked_;
  std::string kernel_;
};

} // namespace tujit::codegen

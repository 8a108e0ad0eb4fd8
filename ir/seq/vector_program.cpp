#include "ir/seq/vector_program.h"

#include <fmt/format.h>

namespace tujit::ir::seq {
namespace {

Diagnostic lower_error(std::string message, SourceSpan span) {
  Diagnostic d = make_error("E-RUN-101", std::move(message), span);
  d.stage = "run";
  return d;
}

} // namespace

bool is_value_call(VectorCallKind k) {
  switch (k) {
  case VectorCallKind::Fxp:
  case VectorCallKind::Logic:
  case VectorCallKind::FxpToFp:
  case VectorCallKind::FpToFxp:
  case VectorCallKind::FpUnary:
  case VectorCallKind::FpBinary:
  case VectorCallKind::FpTernary:
  case VectorCallKind::FpDiv:
  case VectorCallKind::Clip:
  case VectorCallKind::Reinterpret: // the bits stay; the scalar they are read as changes
    return true;
  default:
    return false;
  }
}

Result<VectorChain> lower_vector(const Kernel& kernel, std::size_t final_index) {
  const SourceSpan span =
      final_index < kernel.stages.size() ? kernel.stages[final_index].name_span : SourceSpan{};
  if (final_index >= kernel.stages.size() || !kernel.stages[final_index].vector ||
      kernel.stages[final_index].vector->kind != VectorCallKind::Final)
    return lower_error("internal: lower_vector needs a vector_final stage", span);
  std::vector<const Stage*> chain;
  for (std::optional<std::size_t> at = final_index; at;) {
    const Stage& s = kernel.stages[*at];
    if (!s.vector) break; // not a Vector Engine call
    if (s.vector->kind == VectorCallKind::Init) {
      VectorChain out;
      out.init = *at;
      out.program.in_type = s.input.dtype;
      out.program.out_type = kernel.stages[final_index].output.dtype;
      for (auto it = chain.rbegin(); it != chain.rend(); ++it)
        if (is_value_call((*it)->vector->kind))
          out.program.steps.push_back(VectorStepIR{*(*it)->vector, (*it)->input.dtype});
      return out;
    }
    chain.push_back(&s);
    at = s.producer;
  }
  return lower_error("this vector_final does not end a vector_init chain", span);
}

std::string to_text(const VectorProgram& p) {
  std::string s = fmt::format("  vector pass  {} → {}", name(p.in_type), name(p.out_type));
  if (p.steps.empty()) s += " (no value call)";
  s += "\n";
  for (const VectorStepIR& st : p.steps)
    s += fmt::format("    {}   ({} stream)\n", st.call.describe(), name(st.dtype));
  return s;
}

} // namespace tujit::ir::seq

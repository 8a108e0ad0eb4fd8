// Placeholder bodies until the code generator lands (the declarations are the contract the CLI
// is written against); every entry point reports E-JIT-001.
#include "codegen/contraction_jit.h"

namespace tujit::codegen {
namespace {
Diagnostic not_built() {
  return make_error("E-JIT-001", "the JIT back end is not built yet");
}
} // namespace

Result<std::unique_ptr<ContractionJit>> ContractionJit::create(JitOptions) {
  return not_built();
}
Result<runtime::ContractionResult> run_contraction_jit(const CompiledContraction&,
                                                       const ir::seq::ContractionProgram&,
                                                       const runtime::DeviceImage&,
                                                       const runtime::DeviceImage&, JitRunOptions) {
  return not_built();
}
Result<std::string> emit_llvm_ir(const ir::seq::ContractionProgram&, bool) {
  return not_built();
}
Result<std::string> emit_assembly(const ir::seq::ContractionProgram&, bool) {
  return not_built();
}

} // namespace tujit::codegen

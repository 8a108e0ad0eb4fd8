#include "codegen/write_jit.h"

#include "codegen/program_jit.h"
#include "codegen/write_emit.h"
#include "runtime/interp/write_exec.h"

#include <fmt/format.h>
#include <llvm/IR/Module.h>

namespace tujit::codegen {

Result<runtime::DeviceImage> run_write_jit(const ir::seq::WriteProgram& program,
                                           const runtime::DeviceImage& stream,
                                           const runtime::DeviceImage& buffer,
                                           const ir::AxisTable& table, JitOptions options) {
  if (stream.dtype != program.dtype || stream.cells() != program.stream_cells() ||
      buffer.dtype != program.dtype || buffer.cells() != program.buffer_cells)
    return runtime::run_write(program, stream, buffer, table); // its E-RUN-102
  auto live = runtime::write_live_positions(program, table);
  if (!live) return std::move(live).take_diagnostics();
  auto jit = ProgramJit::create(options);
  if (!jit) return jit.diagnostics();
  CompileStats stats;
  const std::uint64_t fp = ir::seq::fingerprint(program);
  const std::string key = fmt::format("tujit write object; write codegen {}; program {:016x}; {}",
                                      kWriteCodegenVersion, fp, (*jit)->target_text());
  const bool checked = options.checked;
  auto linked =
      (*jit)->compile([&](llvm::LLVMContext& c) { return emit_write_module(program, checked, c); },
                      fp, key, kWriteSymbol, program.kernel_name, stats);
  if (!linked) return linked.diagnostics();
  runtime::DeviceImage out = buffer;
  // States as the interpreter sets them; the native code moves the bits.
  ir::datapath::for_each_offset(program.sequencer, [&](std::uint64_t pos, std::uint64_t addr) {
    if ((*live)[pos] && addr < out.cells()) out.state[addr] = stream.state[pos];
  });
  const std::int32_t rc = linked->as<WriteFn>()(stream.bits.data(), live->data(), out.bits.data());
  linked->release();
  if (rc != kRunOk) {
    Diagnostic d = make_error("E-JIT-003",
                              fmt::format("kernel `{}`: the checked JIT code stopped a store past "
                                          "the buffer `{}`",
                                          program.kernel_name, program.target));
    d.stage = "run";
    return d;
  }
  return out;
}

} // namespace tujit::codegen

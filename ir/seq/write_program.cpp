#include "ir/seq/write_program.h"

#include "ir/datapath/sequencer_derive.h"
#include "ir/seq/fnv1a.h"
#include "ir/seq/lower_support.h"

#include <fmt/format.h>

namespace tujit::ir::seq {

namespace {

const KernelParam* param_of(const Kernel& k, const std::string& name, TensorKind kind) {
  for (const auto& p : k.params)
    if (p.name == name && p.tensor && p.tensor->kind == kind) return &p;
  return nullptr;
}

} // namespace

Result<WriteProgram> lower_mem_write(const Kernel& kernel, std::size_t write_index) {
  if (write_index >= kernel.stages.size() || kernel.stages[write_index].op != StageOp::MemWrite)
    return lower_error("internal: lower_mem_write needs a write stage");
  const Stage& w = kernel.stages[write_index];
  const KernelParam* stream = param_of(kernel, w.source, TensorKind::Stream);
  const KernelParam* buffer = param_of(kernel, w.target, TensorKind::Mem);
  if (w.producer || stream == nullptr || buffer == nullptr)
    return lower_error("tujit runs a write of a StreamTensor parameter into a MemTensor "
                       "parameter",
                       w.name_span);
  WriteProgram p;
  p.kernel_name = kernel.name;
  p.source = stream->name;
  p.target = buffer->name;
  p.stream = *stream->tensor;
  p.buffer = *buffer->tensor;
  p.dtype = p.buffer.dtype;
  auto d = datapath::derive_sequencer(p.buffer.mapping(Slot::Element), p.stream.mapping(Slot::Time),
                                      p.stream.mapping(Slot::Packet), datapath::SeqMode::Write);
  if (!d) return std::move(d).take_diagnostics();
  p.sequencer = d->config;
  p.time = p.stream.mapping(Slot::Time).size();
  p.packet = p.stream.mapping(Slot::Packet).size();
  p.buffer_cells = p.buffer.mapping(Slot::Element).size();
  p.written = d->live_positions;
  if (p.sequencer.stream_size() != p.stream_cells() || d->live_footprint > p.buffer_cells)
    return lower_error("internal: the write's loops do not line up with its stream and buffer",
                       w.name_span);
  return p;
}

std::string to_text(const WriteProgram& p) {
  return fmt::format("write `{}` → `{}`: {} × {} positions of {}, {} written (padded ones "
                     "dropped) into {} cells\n  sequencer {}\n",
                     p.source, p.target, p.time, p.packet, name(p.dtype), p.written, p.buffer_cells,
                     p.sequencer.to_string());
}

std::uint64_t fingerprint(const WriteProgram& p) {
  Fnv1a h;
  h.add(static_cast<std::uint64_t>(p.dtype));
  h.add(p.sequencer.entries.size());
  for (const auto& e : p.sequencer.entries) {
    h.add(e.size);
    h.add(e.stride);
  }
  h.add(p.time);
  h.add(p.packet);
  h.add(p.buffer_cells);
  return h.value();
}

} // namespace tujit::ir::seq

#include "harness/cli/run_operands.h"

#include "runtime/interp/stage_exec.h"

#include <fmt/format.h>

namespace tujit::cli {
namespace {

Diagnostic unsupported(std::string message, SourceSpan span) {
  Diagnostic d = make_error("E-RUN-110", std::move(message), span);
  d.stage = "run";
  return d;
}

const ir::KernelParam* param_named(const ir::Kernel& k, const std::string& name) {
  for (const auto& p : k.params)
    if (p.name == name && p.tensor) return &p;
  return nullptr;
}

/// Where a stage's input stream comes from: a CollectTensor parameter, or a Collect stage that
/// fetched a DmTensor parameter. `role` names the operand in diagnostics.
Result<bool> stream_source(const ir::Kernel& k, const ir::Stage& reader, const std::string& role,
                           const ir::KernelParam*& param, std::optional<std::size_t>& collect);

/// A store or result read through a Vector Engine pass: the pass's vector_final, and the stream
/// its vector_init reads.
Result<bool> pass_source(const ir::Kernel& k, std::size_t final_index, RunOperands& ops) {
  ops.vector_final = final_index;
  for (std::optional<std::size_t> at = final_index; at; at = k.stages[*at].producer) {
    const ir::Stage& s = k.stages[*at];
    if (s.vector && s.vector->kind == ir::VectorCallKind::Init)
      return stream_source(k, s, "stream of the Vector Engine pass", ops.stream,
                           ops.stream_collect);
  }
  return unsupported("tujit run: this vector_final does not end a vector_init chain",
                     k.stages[final_index].name_span);
}

Result<bool> stream_source(const ir::Kernel& k, const ir::Stage& reader, const std::string& role,
                           const ir::KernelParam*& param, std::optional<std::size_t>& collect) {
  if (reader.producer) {
    const ir::Stage& made_by = k.stages[*reader.producer];
    if (made_by.op != ir::StageOp::Collect)
      return unsupported(fmt::format("tujit run: the {} is made by `{}`, which tujit does not "
                                     "feed to `{}`",
                                     role, ir::to_string(made_by.op), ir::to_string(reader.op)),
                         made_by.name_span);
    collect = *reader.producer;
    param = param_named(k, made_by.source);
    if (param == nullptr ||
        (param->tensor->kind != ir::TensorKind::Dm && param->tensor->kind != ir::TensorKind::Begin))
      return unsupported(fmt::format("tujit run: the {} is fetched from `{}`, which is not a "
                                     "DmTensor parameter of the kernel",
                                     role, made_by.source),
                         made_by.name_span);
    return true;
  }
  param = param_named(k, reader.source);
  if (param == nullptr || param->tensor->kind != ir::TensorKind::Collect)
    return unsupported(fmt::format("tujit run: the {} `{}` is not a CollectTensor parameter, nor "
                                   "collected in the kernel from a DmTensor",
                                   role, reader.source),
                       reader.name_span);
  return true;
}

/// The first contract_outer whose chain reaches contract_lane: the chain lower_contraction lowers.
void find_contraction(const ir::Kernel& kernel, RunOperands& ops) {
  for (const auto& s : kernel.stages) {
    if (ops.lane) return;
    if (s.op != ir::StageOp::ContractOuter) continue;
    for (const auto& l : kernel.stages)
      if (l.op == ir::StageOp::ContractLane && l.chain == s.chain && !ops.lane) {
        ops.outer = &s;
        ops.lane = &l;
      }
  }
}

Result<bool> find_trf(const ir::Kernel& k, RunOperands& ops) {
  const ir::Stage& outer = *ops.outer;
  if (!outer.trf_producer) {
    ops.trf = param_named(k, outer.trf_source);
    if (ops.trf == nullptr || ops.trf->tensor->kind != ir::TensorKind::Trf)
      return unsupported(fmt::format("tujit run: the TRF operand `{}` is neither a TrfTensor "
                                     "parameter nor made by `.to_trf()` in the kernel",
                                     outer.trf_name),
                         outer.trf_span);
    return true;
  }
  const ir::Stage& store = k.stages[*outer.trf_producer];
  if (store.op != ir::StageOp::ToTrf)
    return unsupported(fmt::format("tujit run: the TRF operand `{}` is made by `{}`",
                                   outer.trf_name, ir::to_string(store.op)),
                       outer.trf_span);
  ops.trf_store = &store;
  return stream_source(k, store, "TRF source", ops.trf, ops.trf_collect);
}

} // namespace

const ir::TensorType& RunOperands::stream_type(const ir::Kernel& kernel) const {
  if (stream_collect) return kernel.stages[*stream_collect].output;
  return *stream->tensor;
}

const ir::TensorType& RunOperands::output_type(const ir::Kernel& kernel) const {
  switch (shape) {
  case RunShape::Contraction:
    return lane->output;
  case RunShape::Store:
    return store->output;
  case RunShape::Partial:
    return kernel.stages[partial_last].output;
  case RunShape::Collect:
    if (vector_final) return kernel.stages[*vector_final].output;
    break;
  case RunShape::Write:
    return write->output;
  }
  return stream_type(kernel);
}

Result<RunOperands> find_run_operands(const ir::Kernel& kernel) {
  RunOperands ops;
  find_contraction(kernel, ops);
  if (ops.lane) {
    ops.shape = RunShape::Contraction;
    if (auto r = stream_source(kernel, *ops.outer, "stream", ops.stream, ops.stream_collect); !r)
      return std::move(r).take_diagnostics();
    if (auto r = find_trf(kernel, ops); !r) return std::move(r).take_diagnostics();
    return ops;
  }
  // Part of a chain: run stage by stage (runtime/interp/stage_exec.h).
  if (auto span = runtime::find_contraction_stages(kernel)) {
    ops.shape = RunShape::Partial;
    ops.partial_first = span->first;
    ops.partial_last = span->last;
    const ir::Stage& first = kernel.stages[span->first];
    if (first.op == ir::StageOp::ContractOuter) {
      ops.outer = &first;
      if (auto r = stream_source(kernel, first, "stream", ops.stream, ops.stream_collect); !r)
        return std::move(r).take_diagnostics();
      if (auto r = find_trf(kernel, ops); !r) return std::move(r).take_diagnostics();
      return ops;
    }
    ops.stream = param_named(kernel, first.source);
    if (first.producer || ops.stream == nullptr)
      return unsupported(fmt::format("tujit run: `{}` reads `{}`, which is not a parameter of "
                                     "the kernel",
                                     ir::to_string(first.op), first.source),
                         first.name_span);
    return ops;
  }
  // No contraction: a kernel that loads a register file, or fetches a stream, returns that.
  const ir::Stage* last = kernel.stages.empty() ? nullptr : &kernel.stages.back();
  if (last && (last->op == ir::StageOp::ToTrf || last->op == ir::StageOp::ToVrf)) {
    ops.shape = RunShape::Store;
    ops.store = last;
    const bool after_pass = last->producer && kernel.stages[*last->producer].vector;
    auto r = after_pass
                 ? pass_source(kernel, *last->producer, ops)
                 : stream_source(kernel, *last, "stored stream", ops.stream, ops.stream_collect);
    if (!r) return std::move(r).take_diagnostics();
    return ops;
  }
  if (last && last->vector && last->vector->kind == ir::VectorCallKind::Final) {
    ops.shape = RunShape::Collect;
    if (auto r = pass_source(kernel, kernel.stages.size() - 1, ops); !r)
      return std::move(r).take_diagnostics();
    return ops;
  }
  // The book's sequencer pseudo types (sequencer.md): a MemTensor read as a stream (run like a
  // fetch of one slice), or a stream written into a MemTensor.
  if (last && last->op == ir::StageOp::MemRead) {
    ops.shape = RunShape::Collect;
    ops.stream_collect = kernel.stages.size() - 1;
    ops.stream = param_named(kernel, last->source);
    if (last->producer || ops.stream == nullptr)
      return unsupported(fmt::format("tujit run: `read` reads `{}`, which is not a MemTensor "
                                     "parameter",
                                     last->source),
                         last->name_span);
    return ops;
  }
  if (last && last->op == ir::StageOp::MemWrite) {
    ops.shape = RunShape::Write;
    ops.write = last;
    ops.stream = param_named(kernel, last->source);
    ops.buffer = param_named(kernel, last->target);
    if (last->producer || ops.stream == nullptr || ops.buffer == nullptr)
      return unsupported("tujit run: `write` writes a StreamTensor parameter into a MemTensor "
                         "parameter",
                         last->name_span);
    return ops;
  }
  if (last && last->op == ir::StageOp::Collect && last->producer) {
    ops.shape = RunShape::Collect;
    ops.stream_collect = kernel.stages.size() - 1;
    ops.stream = param_named(kernel, last->source);
    if (ops.stream == nullptr || (ops.stream->tensor->kind != ir::TensorKind::Dm &&
                                  ops.stream->tensor->kind != ir::TensorKind::Begin))
      return unsupported(fmt::format("tujit run: the collected stream is fetched from `{}`, which "
                                     "is not a DmTensor parameter",
                                     last->source),
                         last->name_span);
    return ops;
  }
  Diagnostic d = make_error(
      "E-RUN-101",
      fmt::format("tujit run: kernel '{}' has nothing tujit can run: no contract_outer … "
                  "contract_lane chain, and it does not end with a to_trf / to_vrf store or a "
                  "collect",
                  kernel.name),
      kernel.name_span);
  d.stage = "run";
  return d;
}

} // namespace tujit::cli

#include "ir/seq/run_program.h"

#include "ir/seq/field_hash.h"
#include "ir/seq/lower_contraction.h"
#include "ir/seq/operand_streams.h"
#include "ir/seq/view_streams.h"

#include <fmt/format.h>

#include <algorithm>

namespace tujit::ir::seq {
namespace {

Result<std::vector<HeldAxis>> type_held_axes(const TensorType& type, const AxisTable& table,
                                             std::uint64_t max_positions = kMaxStreamPositions) {
  return held_axes(type, type_axes(type, table), max_positions);
}

/// The stream a consumer reads: fetched from a DmTensor parameter by the Collect stage `collect`,
/// or a CollectTensor parameter read directly.
Result<OperandStreams> stream_operand(const SpecFile& file, const verify::CheckedKernel& checked,
                                      const KernelParam& param, std::optional<std::size_t> collect,
                                      const InputShapes& shapes, RunProgram& out) {
  const Kernel& kernel = checked;
  auto shape = shapes.find(param.name);
  if (shape == shapes.end())
    return run_error("E-RUN-102", fmt::format("internal: no shape for input `{}`", param.name));
  if (!collect) return direct_operand(param, shape->second, file.axes);
  auto fetch = kernel.stages[*collect].unit() == StageUnit::MemReader
                   ? lower_mem_read(checked, *collect)
                   : lower_fetch(checked, *collect);
  if (!fetch) return std::move(fetch).take_diagnostics();
  // A DM tensor `to_dm` wrote is read as its HBM source through the DM layout (docs/dma.md §1),
  // an interleaved pair through its sides' (RunOperands::Interleaved).
  if (param.tensor->kind == TensorKind::Dm || param.tensor->kind == TensorKind::Begin)
    fetch->dm = *param.tensor;
  auto o = fetched_operand(*fetch, param, shape->second, file.axes);
  out.fetches.push_back(std::move(*fetch));
  return o;
}

/// The TRF operand of a contraction: a TrfTensor parameter, or the store of its source stream.
Result<OperandStreams> trf_operand(const SpecFile& file, const verify::CheckedKernel& checked,
                                   const RunOperands& ops, const InputShapes& shapes,
                                   RunProgram& p) {
  if (ops.trf_store) {
    auto source = stream_operand(file, checked, *ops.trf, ops.trf_collect, shapes, p);
    if (!source) return std::move(source).take_diagnostics();
    return stored_operand(*ops.trf_store, checked.facts(*ops.trf_store), *source);
  }
  auto shape = shapes.find(ops.trf->name);
  if (shape == shapes.end())
    return run_error("E-RUN-102", fmt::format("internal: no shape for input `{}`", ops.trf->name));
  return direct_operand(*ops.trf, shape->second, file.axes);
}

/// A `&vrf` operand of the pass ending in `final` (docs/vector-engine.md §3.2): the VRF's
/// streams (a VrfTensor parameter's own, or the store of its source stream) read at the pass's
/// output cells.
Result<OperandStreams> vrf_operand(const SpecFile& file, const verify::CheckedKernel& checked,
                                   const RunOperands::VrfOperand& v, const TensorType& final,
                                   const InputShapes& shapes, RunProgram& p) {
  Result<OperandStreams> vrf = run_error("E-RUN-102", "internal: a VRF operand without a source");
  if (v.store) {
    auto source = stream_operand(file, checked, *v.param, v.collect, shapes, p);
    if (!source) return std::move(source).take_diagnostics();
    vrf = stored_operand(*v.store, checked.facts(*v.store), *source);
  } else {
    auto shape = shapes.find(v.param->name);
    if (shape == shapes.end())
      return run_error("E-RUN-102",
                       fmt::format("internal: no shape for input `{}`", v.param->name));
    vrf = direct_operand(*v.param, shape->second, file.axes);
  }
  if (!vrf) return vrf;
  return vrf_read_operand(final, *v.call->vrf, *vrf);
}

/// Every live slice reads its `&vrf` operands from a VRF the store wrote there: a slice whose VRF
/// position holds padding would read what the register file happens to hold (docs/vector-engine.md
/// §3.2), so the run refuses it rather than read 0.
Status vrf_slices_written(const RunProgram& p) {
  for (std::uint64_t s : p.live_slices())
    for (const OperandStreams& v : p.vrf_operands) {
      const CellState st = v.streams.spatial.state(s);
      if (st == CellState::Live || st == CellState::Zero) continue;
      return run_error("E-RUN-110", fmt::format("kernel `{}`: slice {} reads a `&vrf` operand of "
                                                "`{}` from a VRF position that holds padding",
                                                p.kernel_name, s, v.streams.tensor));
    }
  return {};
}

} // namespace

Result<RunProgram> with_output(const TensorType& type, const std::vector<Axis>& axes,
                               ScalarType dtype, RunProgram p) {
  auto coords = view_coordinates(type, axes, kMaxStreamPositions);
  if (!coords) return std::move(coords).take_diagnostics();
  auto held = held_axes(*coords, to_string(type));
  if (!held) return std::move(held).take_diagnostics();
  auto out = tensor_streams("output", dtype, *coords, held_tensor_axes(*held), held_strides(*held));
  if (!out) return std::move(out).take_diagnostics();
  const StreamCoverage cov = stream_coverage(*out, element_count(out->axes));
  if (cov.unreached != 0) {
    std::string coord;
    std::uint64_t rest = cov.first_unreached;
    std::vector<std::string> parts(out->axes.size());
    for (std::size_t a = out->axes.size(); a-- > 0;) {
      parts[a] = fmt::format("{}={}", out->axes[a].name, rest % out->axes[a].size);
      rest /= out->axes[a].size;
    }
    for (const auto& s : parts) coord += (coord.empty() ? "" : ", ") + s;
    return run_error("E-RUN-005",
                     fmt::format("the output {} cannot be read back: element {} of the held "
                                 "coordinates is not produced",
                                 to_string(type), coord));
  }
  p.duplicated_outputs = cov.duplicated;
  p.output = std::move(*out);
  return p;
}

const OperandStreams& RunProgram::input() const {
  return is_move() ? move().source : contraction().stream;
}

const OperandStreams* RunProgram::trf_operand() const {
  if (is_move() || !contraction().chain.forms_products()) return nullptr;
  return &contraction().trf;
}

std::vector<std::uint64_t> RunProgram::live_slices() const {
  std::vector<std::uint64_t> v;
  if (const auto* run = std::get_if<ContractionRun>(&body)) {
    for (std::uint64_t s = 0; s < run->chain.spatial; ++s)
      if (run->chain.spatial_live[s]) v.push_back(s);
    return v;
  }
  for (std::uint64_t s = 0; s < output.spatial.size(); ++s)
    if (output.spatial.state(s) == CellState::Live) v.push_back(s);
  return v;
}

Result<InputShapes> input_tiles(const SpecFile& file, const Kernel& kernel, const RunOperands& ops,
                                std::uint64_t max_positions) {
  std::map<std::string, std::uint64_t> extent;
  const auto widen = [&](const TensorType& type) {
    const auto axes = type_axes(type, file.axes);
    auto held = type_held_axes(type, file.axes, max_positions);
    for (std::size_t a = 0; a < axes.size(); ++a) {
      // A tensor whose held coordinates have no such pattern counts as whole.
      const std::uint64_t e = held ? (*held)[a].extent() : axes[a].size;
      extent[axes[a].name] = std::max(extent[axes[a].name], e);
    }
  };
  std::vector<const KernelParam*> read = ops.inputs();
  // An interleaved pair is read over its sides' tile and its grouping axis.
  for (const RunOperands::Interleaved& i : ops.interleaved) read.push_back(i.param.get());
  for (const KernelParam* p : read)
    if (p && p->tensor) widen(*p->tensor);
  // The output too: the oracle walks the output's coordinates over the inputs.
  widen(ops.output_type(kernel));
  InputShapes out;
  for (const KernelParam* p : read) {
    if (!p || !p->tensor) continue;
    auto axes = type_axes(*p->tensor, file.axes);
    for (auto& a : axes) a.size = extent.at(a.name);
    out[p->name] = std::move(axes);
  }
  return out;
}

Result<std::vector<HeldAxis>> output_held_axes(const SpecFile& file, const Kernel& kernel,
                                               const RunOperands& ops) {
  return type_held_axes(ops.output_type(kernel), file.axes);
}

std::optional<OutputCast> output_cast(const RunOperands& ops, ScalarType engines) {
  const Stage* c = ops.commit_cast ? ops.commit_cast : ops.cast;
  if (c == nullptr) return std::nullopt;
  return OutputCast{engines, c->output.dtype, c->op == StageOp::CommitCastRelu};
}

namespace {

/// A whole kernel's result is the tensor its output path commits, moved to HBM: the engines' view
/// must hold what the returned HbmTensor holds (the DMA and commit verifiers' rules, checked again
/// here on the lowered view; a difference is a lowering bug).
/// Whether tensors `a` and `b` hold the same logical elements (their held axes).
Result<bool> holds_same(const SpecFile& file, const TensorType& a, const TensorType& b) {
  auto ha = type_held_axes(a, file.axes);
  if (!ha) return std::move(ha).take_diagnostics();
  auto hb = type_held_axes(b, file.axes);
  if (!hb) return std::move(hb).take_diagnostics();
  return held_tensor_axes(*ha) == held_tensor_axes(*hb);
}

Status check_returned(const SpecFile& file, const Kernel& kernel, const RunOperands& ops,
                      const TensorType& view) {
  if (ops.transfers && kernel.returned) {
    // The run hands on the parameter's tensor as it is: a transfer that broadcasts it along an
    // axis it lacks (docs/dma.md §1) would return more.
    auto same = holds_same(file, view, *kernel.returned);
    if (!same) return std::move(same).take_diagnostics();
    if (*same) return {};
    return run_error("E-RUN-110",
                     fmt::format("tujit run: kernel `{}` broadcasts `{}` {} by DMA into {}; tujit "
                                 "runs a kernel of transfers only when they keep its axes",
                                 kernel.name, ops.stream->name, to_string(view),
                                 to_string(*kernel.returned)));
  }
  if (!ops.commit || !kernel.returned) return {};
  auto same = holds_same(file, view, *kernel.returned);
  if (!same) return std::move(same).take_diagnostics();
  if (*same) return {};
  return run_error("E-RUN-102",
                   fmt::format("internal: kernel `{}` commits {} but returns {}", kernel.name,
                               to_string(view), to_string(*kernel.returned)));
}

} // namespace

Result<RunProgram> lower_run(const SpecFile& file, const verify::CheckedKernel& checked,
                             const RunOperands& ops, const InputShapes& shapes, bool ftz_results) {
  const Kernel& kernel = checked;
  RunProgram p;
  p.kernel_name = kernel.name;
  auto stream = stream_operand(file, checked, *ops.stream, ops.stream_collect, shapes, p);
  if (!stream) return std::move(stream).take_diagnostics();
  if (ops.switch_engine) {
    // A FetchTensor parameter through the Switch Engine (docs/switch.md §4).
    auto sw =
        lower_switch(checked, static_cast<std::size_t>(ops.switch_engine - kernel.stages.data()));
    if (!sw) return std::move(sw).take_diagnostics();
    stream = switched_operand(*sw, *stream, file.axes);
    if (!stream) return std::move(stream).take_diagnostics();
  }
  const TensorType& out_type = ops.output_type(kernel);

  if (ops.shape != RunShape::Contraction && ops.shape != RunShape::Partial) {
    std::vector<OperandStreams> vrf_reads;
    std::string pair_group_axis;
    std::vector<std::string> reduce_axes;
    if (ops.vector_final) {
      // The Vector Engine pass between the stream and the store or the result.
      auto chain = lower_vector(kernel, *ops.vector_final);
      if (!chain) return std::move(chain).take_diagnostics();
      const TensorType& final = kernel.stages[*ops.vector_final].output;
      const TensorType& init = kernel.stages[chain->init].input;
      if (!chain->group_axis.empty()) {
        // Pair mode (docs/vector-engine.md §3.5): the output cell with coordinates c takes group
        // 0's element (c, I = 0) as its stream and group 1's (c, I = 1) as the unzip's operand.
        auto group1 = passed_operand(init, final, *stream, Index{{chain->group_axis, 1}});
        if (!group1) return std::move(group1).take_diagnostics();
        vrf_reads.push_back(std::move(*group1));
        pair_group_axis = chain->group_axis;
      }
      // A reduce (docs/vector-engine.md §3.6, §3.7): the output cell with coordinates c takes
      // term k, the entering element (c, reduced axes at reduce_terms[k]), from its own slice
      // (intra-slice) or the reduction group's (inter-slice); term 0 is its stream, the others
      // operand streams the reduce reads in order.
      const auto term = [&](const Index& fixed) {
        return chain->across_slices ? gathered_operand(init, final, *stream, fixed, file.axes)
                                    : passed_operand(init, final, *stream, fixed);
      };
      for (std::size_t k = 1; k < chain->reduce_terms.size(); ++k) {
        auto t = term(chain->reduce_terms[k]);
        if (!t) return std::move(t).take_diagnostics();
        vrf_reads.push_back(std::move(*t));
      }
      reduce_axes = chain->reduce_axes;
      auto passed = chain->reduce_terms.empty() ? passed_operand(init, final, *stream)
                                                : term(chain->reduce_terms.front());
      if (passed) passed->type = final.dtype;
      if (!passed) return std::move(passed).take_diagnostics();
      stream = std::move(passed);
      p.vector = std::move(chain->program);
      for (const RunOperands::VrfOperand& v : ops.vrf) {
        auto read = vrf_operand(file, checked, v, final, shapes, p);
        if (!read) return std::move(read).take_diagnostics();
        vrf_reads.push_back(std::move(*read));
      }
    }
    // What follows the pass moves the stream's cells; the VRF operands' cells move with them.
    auto after_pass = [&](const OperandStreams& in) -> Result<OperandStreams> {
      Result<OperandStreams> moved = in;
      // The Transpose Engine after the stream or the pass (docs/transpose.md §4).
      if (ops.transpose)
        moved = transposed_operand(*ops.transpose, checked.facts(*ops.transpose), *moved);
      if (!moved) return moved;
      if (ops.shape == RunShape::Store)
        return stored_operand(*ops.store, checked.facts(*ops.store), *moved);
      if (ops.shape == RunShape::Write)
        return written_operand(*ops.write, checked.facts(*ops.write), *moved);
      return moved;
    };
    auto moved = after_pass(*stream);
    if (!moved) return std::move(moved).take_diagnostics();
    p.body = MoveRun{std::move(*moved), std::move(pair_group_axis), std::move(reduce_axes)};
    for (const OperandStreams& read : vrf_reads) {
      auto cells = after_pass(read);
      if (!cells) return std::move(cells).take_diagnostics();
      cells->type = read.type; // the operand keeps its own scalar
      p.vrf_operands.push_back(std::move(*cells));
    }
    if (auto ok = check_returned(file, kernel, ops, out_type); !ok) return ok.diagnostics();
    p.output_cast = output_cast(ops, out_type.dtype);
    auto lowered = with_output(out_type, type_axes(out_type, file.axes),
                               ops.output_dtype(out_type.dtype), std::move(p));
    if (!lowered) return lowered;
    if (auto ok = verify(*lowered); !ok) return ok.diagnostics();
    if (auto ok = vrf_slices_written(*lowered); !ok) return ok.diagnostics();
    return lowered;
  }

  auto chain = ops.shape == RunShape::Partial
                   ? lower_contraction(checked, ops.partial_first, ops.partial_last)
                   : lower_contraction(checked);
  if (!chain) return std::move(chain).take_diagnostics();
  ContractionRun run{std::move(*chain), std::move(*stream), {}};
  run.chain.ftz_results = ftz_results;
  // A part from a ContractOuter / Packet / Time tensor reads that parameter alone.
  if (run.chain.forms_products()) {
    auto trf = trf_operand(file, checked, ops, shapes, p);
    if (!trf) return std::move(trf).take_diagnostics();
    run.trf = std::move(*trf);
  }
  const ScalarType accumulator = run.chain.accumulator;
  p.body = std::move(run);
  // A Vector Engine pass after the chain keeps every element's coordinates (docs/vector-engine.md
  // §4.1): the chain writes its output cells, each through the pass's value calls, and the pass's
  // result (or its to_vrf store) holds the same logical tensor.
  // With an output path, the pass's trimmed view is the chain's when the pass keeps the packet's
  // layout (docs/output-path.md §2.1: the trim is positional).
  TensorType chain_out = ops.vector_final || ops.transpose ? ops.lane->output : out_type;
  if (ops.transpose) {
    // The Transpose Engine relays the chain's output out (docs/transpose.md §4): the logical
    // elements stay, so the chain writes them at its own cells when the trimmed, transposed view
    // holds exactly what the chain produces.
    auto same = holds_same(file, chain_out, out_type);
    if (!same) return std::move(same).take_diagnostics();
    if (!*same)
      return run_error("E-RUN-110",
                       fmt::format("kernel `{}`: the trim after the transpose keeps other elements "
                                   "({}) than the contraction produces ({}); tujit runs a "
                                   "transposed contraction result when the trim drops only "
                                   "padding (docs/transpose.md §4)",
                                   kernel.name, to_string(out_type), to_string(chain_out)));
  } else if (ops.vector_final && ops.output_view) {
    if (!same_mapping(ops.lane->output.mapping(Slot::Packet),
                      kernel.stages[*ops.vector_final].output.mapping(Slot::Packet)) ||
        !same_mapping(ops.lane->output.mapping(Slot::Time),
                      kernel.stages[*ops.vector_final].output.mapping(Slot::Time)))
      return run_error("E-RUN-110",
                       fmt::format("kernel `{}`: the Vector Engine pass after the contraction "
                                   "relays its stream out, and its result is trimmed: tujit "
                                   "trims a pass's result only in the chain's own layout",
                                   kernel.name));
    chain_out.set(Slot::Packet, *ops.output_view->get(Slot::Packet));
  }
  ScalarType out_dtype = accumulator;
  if (ops.vector_final) {
    auto pass = lower_vector(kernel, *ops.vector_final);
    if (!pass) return std::move(pass).take_diagnostics();
    if (!pass->group_axis.empty())
      return run_error("E-RUN-110", fmt::format("kernel `{}`: tujit runs pair mode on a fetched or "
                                                "collected stream, not after a contraction "
                                                "(docs/vector-engine.md §3.5)",
                                                kernel.name));
    if (!pass->reduce_axes.empty())
      return run_error("E-RUN-110", fmt::format("kernel `{}`: tujit runs the intra- and "
                                                "inter-slice reductions on a fetched or collected "
                                                "stream, not after a contraction "
                                                "(docs/vector-engine.md §3.6, §3.7)",
                                                kernel.name));
    auto same = holds_same(file, chain_out, out_type);
    if (!same) return std::move(same).take_diagnostics();
    if (!*same)
      return run_error("E-RUN-110",
                       fmt::format("kernel `{}`: the Vector Engine pass's output {} holds other "
                                   "elements than the contraction's output {}",
                                   kernel.name, to_string(out_type), to_string(chain_out)));
    out_dtype = pass->program.out_type;
    p.vector = std::move(pass->program);
    // Its `&vrf` operands, read at the output cells the Lane Folder drains (the pass keeps every
    // element's coordinates, docs/vector-engine.md §3.2, §4.1).
    for (const RunOperands::VrfOperand& v : ops.vrf) {
      auto read = vrf_operand(file, checked, v, chain_out, shapes, p);
      if (!read) return std::move(read).take_diagnostics();
      p.vrf_operands.push_back(std::move(*read));
    }
  }
  if (auto ok = check_returned(file, kernel, ops, chain_out); !ok) return ok.diagnostics();
  p.output_cast = output_cast(ops, out_dtype);
  out_dtype = ops.output_dtype(out_dtype);
  auto lowered = with_output(chain_out, type_axes(chain_out, file.axes), out_dtype, std::move(p));
  if (!lowered) return lowered;
  if (auto ok = verify(*lowered); !ok) return ok.diagnostics();
  if (auto ok = vrf_slices_written(*lowered); !ok) return ok.diagnostics();
  return lowered;
}

namespace {

/// The Vector Engine pass verifies, and each call reading the VRF has one operand stream of the
/// output's cells (the pass runs on the cells a move moves or the Lane Folder drains).
Status verify_vrf_operands(const RunProgram& p) {
  if (p.vector)
    if (auto ok = verify(*p.vector); !ok) return ok;
  std::size_t reads = 0;
  if (p.vector)
    for (const VectorStepIR& st : p.vector->steps) reads += st.call.operand_streams();
  if (reads != p.vrf_operands.size())
    return run_error("E-RUN-102", fmt::format("internal: `{}` has {} VRF operand streams for {} "
                                              "calls reading the VRF",
                                              p.kernel_name, p.vrf_operands.size(), reads));
  const CellStreams& o = p.output.cells;
  for (const OperandStreams& v : p.vrf_operands)
    if (v.streams.cells.outer_size != o.outer_size || v.streams.cells.inner_size != o.inner_size ||
        v.streams.spatial.size() != p.output.spatial.size())
      return run_error("E-RUN-102", fmt::format("internal: a VRF operand of `{}` is not a view of "
                                                "its output's shape",
                                                p.kernel_name));
  return {};
}

} // namespace

Status verify(const RunProgram& p) {
  for (const FetchProgram& f : p.fetches)
    if (auto ok = verify(f); !ok) return ok;
  if (p.is_move()) {
    const OperandStreams& source = p.move().source;
    const CellStreams& s = source.streams.cells;
    const CellStreams& o = p.output.cells;
    if (s.outer_size != o.outer_size || s.inner_size != o.inner_size ||
        source.streams.spatial.size() != p.output.spatial.size())
      return run_error("E-RUN-102", fmt::format("internal: the source of `{}` is not a view of its "
                                                "output's shape",
                                                p.kernel_name));
    if (!p.move().pair_group_axis.empty() && (!p.vector || p.vrf_operands.empty()))
      return run_error("E-RUN-102", fmt::format("internal: `{}` pairs its source along `{}` with "
                                                "no Vector Engine operand holding the group 1 "
                                                "elements",
                                                p.kernel_name, p.move().pair_group_axis));
    return verify_vrf_operands(p);
  }
  const ContractionRun& run = p.contraction();
  const ContractionProgram& c = run.chain;
  if (auto ok = verify(c); !ok) return ok;
  if (auto ok = verify_vrf_operands(p); !ok) return ok;
  const CellStreams& s = run.stream.streams.cells;
  const CellStreams& w = run.trf.streams.cells;
  const CellStreams& o = p.output.cells;
  const bool products = c.forms_products();
  const std::uint64_t in_outer = products ? c.time : c.input_outer();
  const std::uint64_t in_inner = products ? c.packet : c.input_inner();
  const ScalarType in_type = products ? c.stream_type : c.accumulator;
  if (s.outer_size != in_outer || s.inner_size != in_inner || o.outer_size != c.output_outer() ||
      o.inner_size != c.output_inner() || run.stream.streams.spatial.size() != c.spatial ||
      p.output.spatial.size() != c.spatial || run.stream.type != in_type ||
      (products && (w.outer_size != c.lanes || w.inner_size != c.element ||
                    run.trf.streams.spatial.size() != c.spatial || run.trf.type != c.trf_type)))
    return run_error("E-RUN-102",
                     fmt::format("internal: the operand streams of `{}` do not match its "
                                 "contraction chain (stream [{}][{}] vs [{}][{}], TRF [{}][{}] vs "
                                 "[{}][{}], output [{}][{}] vs [{}][{}])",
                                 p.kernel_name, s.outer_size, s.inner_size, in_outer, in_inner,
                                 w.outer_size, w.inner_size, c.lanes, c.element, o.outer_size,
                                 o.inner_size, c.output_outer(), c.output_inner()));
  return {};
}

std::uint64_t fingerprint(const RunProgram& p) {
  return field_fingerprint(p);
}

std::string to_text(const RunProgram& p) {
  std::string out;
  for (const auto& f : p.fetches) out += to_text(f) + "\n";
  if (!p.is_move())
    out += to_text(p.contraction().chain);
  else
    out += fmt::format(
        "move {} ; {} → {}{}{}\n", p.kernel_name, name(p.move().source.type), name(p.output.dtype),
        p.move().pair_group_axis.empty()
            ? ""
            : fmt::format(" ; pairs along {}", p.move().pair_group_axis),
        p.move().reduce_axes.empty() ? ""
                                     : fmt::format(" ; reduces {} (operand streams: its terms)",
                                                   fmt::join(p.move().reduce_axes, ", ")));
  const auto operand = [&](const char* role, const OperandStreams& o) {
    std::string adapter;
    if (o.adapter.lookup_to)
      adapter = fmt::format(", fetch_table_lookup to {}", name(*o.adapter.lookup_to));
    if (o.adapter.cast_to) adapter += fmt::format(", fetch_cast to {}", name(*o.adapter.cast_to));
    if (o.adapter.zero_point) adapter = fmt::format(", zero point {}", *o.adapter.zero_point);
    out += fmt::format("  {:<12} {}{} → {}\n", role, o.streams.text(), adapter, name(o.type));
  };
  const OperandStreams* trf = p.trf_operand();
  operand(trf != nullptr ? "stream in" : !p.is_move() ? "part input" : "source", p.input());
  if (p.vector) out += to_text(*p.vector);
  for (std::size_t k = 0; k < p.vrf_operands.size(); ++k)
    operand(fmt::format("vrf operand {}", k).c_str(), p.vrf_operands[k]);
  if (p.output_cast)
    out += fmt::format("  {:<12} {} → {}{}\n", "output cast", name(p.output_cast->from),
                       name(p.output_cast->to), p.output_cast->relu ? " (ReLU)" : "");
  if (trf != nullptr) operand("trf in", *trf);
  out += fmt::format(
      "  {:<12} {}{}\n", "output", p.output.text(),
      p.duplicated_outputs ? fmt::format(", {} duplicated cells", p.duplicated_outputs) : "");
  return out;
}

} // namespace tujit::ir::seq

#include "ir/seq/vector_program.h"

#include "ir/seq/fnv1a.h"
#include "ir/seq/lower_support.h"

#include <fmt/format.h>

#include <algorithm>

namespace tujit::ir::seq {

namespace {

std::uint64_t cells_of(const TensorType& t, Slot s) {
  return t.mapping(s).size();
}

} // namespace

VectorSource vector_source(const VectorProgram& p, std::uint64_t n) {
  // Walk the calls backwards, mapping the position through each layout call.
  for (std::size_t i = p.steps.size(); i-- > 0;) {
    switch (p.steps[i].call.kind) {
    case VectorCallKind::NarrowTrim:
      n = (n / 4) * 8 + n % 4;
      break;
    case VectorCallKind::WidenPad:
      if (n % 8 >= 4) return VectorSource{true, 0, i + 1};
      n = (n / 8) * 4 + n % 8;
      break;
    default:
      break;
    }
  }
  return VectorSource{false, n, 0};
}

Result<VectorProgram> lower_vector(const Kernel& kernel, std::size_t final_index) {
  if (final_index >= kernel.stages.size() || !kernel.stages[final_index].vector ||
      kernel.stages[final_index].vector->kind != VectorCallKind::Final)
    return lower_error("internal: lower_vector needs a vector_final stage");
  std::vector<const Stage*> chain;
  const Stage* init = nullptr;
  for (std::optional<std::size_t> at = final_index; at;) {
    const Stage& s = kernel.stages[*at];
    if (s.op != StageOp::Vector || !s.vector)
      return lower_error("this vector_final does not end a vector_init chain", s.name_span);
    if (s.vector->kind == VectorCallKind::Init) {
      init = &s;
      break;
    }
    chain.push_back(&s);
    at = s.producer;
  }
  if (init == nullptr)
    return lower_error("this vector_final does not end a vector_init chain",
                       kernel.stages[final_index].name_span);
  std::reverse(chain.begin(), chain.end());

  VectorProgram p;
  p.kernel_name = kernel.name;
  p.input = init->input;
  p.output = kernel.stages[final_index].output;
  for (const Stage* s : chain) p.steps.push_back(VectorStepIR{*s->vector, s->input.dtype});
  p.in_type = p.input.dtype;
  p.out_type = p.output.dtype;
  for (Slot s : {Slot::Chip, Slot::Cluster, Slot::Slice}) p.spatial *= cells_of(p.input, s);
  p.in_time = cells_of(p.input, Slot::Time);
  p.in_packet = cells_of(p.input, Slot::Packet);
  p.out_time = cells_of(p.output, Slot::Time);
  p.out_packet = cells_of(p.output, Slot::Packet);
  // The layout calls keep the cell count (split / concat) or change it by the trimmed / padded
  // half; a program whose positions do not trace back inside the input is not simulated.
  if (p.out_cells() > 0) {
    const VectorSource last = vector_source(p, p.out_cells() - 1);
    if (!last.pad && last.input >= p.in_cells())
      return lower_error(
          fmt::format("internal: the Vector Engine pass of `{}` maps {} output cells onto {} "
                      "input cells",
                      kernel.name, p.out_cells(), p.in_cells()),
          kernel.stages[final_index].name_span);
  }
  return p;
}

Result<std::vector<VectorProgram>> lower_vectors(const Kernel& kernel) {
  return lower_each<VectorProgram>(
      kernel, [](const Stage& s) { return s.vector && s.vector->kind == VectorCallKind::Final; },
      lower_vector);
}

std::string to_text(const VectorProgram& p) {
  std::string s = fmt::format("vector pass: [{}][{}] {} per slice × {} slices → [{}][{}] {}\n",
                              p.in_time, p.in_packet, name(p.in_type), p.spatial, p.out_time,
                              p.out_packet, name(p.out_type));
  for (const VectorStepIR& st : p.steps)
    s += fmt::format("  {}   ({} stream)\n", st.call.describe(), name(st.dtype));
  return s;
}

std::uint64_t fingerprint(const VectorProgram& p) {
  Fnv1a h;
  h.add(static_cast<std::uint64_t>(p.in_type));
  h.add(static_cast<std::uint64_t>(p.out_type));
  h.add(p.spatial);
  h.add(p.in_time);
  h.add(p.in_packet);
  h.add(p.out_time);
  h.add(p.out_packet);
  h.add(p.steps.size());
  for (const VectorStepIR& st : p.steps) {
    const VectorCall& c = st.call;
    h.add(static_cast<std::uint64_t>(c.kind));
    h.add(c.op.index());
    std::visit(
        [&](auto v) {
          if constexpr (!std::is_same_v<decltype(v), std::monostate>)
            h.add(static_cast<std::uint64_t>(v));
        },
        c.op);
    h.add(static_cast<std::uint64_t>(c.mul));
    h.add(static_cast<std::uint64_t>(c.mode));
    h.add(c.operand[0]);
    h.add(c.operand[1]);
    h.add(c.int_width);
    h.add(static_cast<std::uint64_t>(st.dtype));
  }
  return h.value();
}

} // namespace tujit::ir::seq

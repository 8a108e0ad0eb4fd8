#include "runtime/engine/run_io.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace tujit::runtime {
namespace {

using ir::seq::OperandStreams;
using ir::seq::RunProgram;
using ir::seq::TensorStreams;

/// The largest offset any live cell of the streams addresses.
std::uint64_t max_reach(const TensorStreams& t) {
  const auto& c = t.cells;
  const std::uint64_t cells =
      c.separable ? c.outer.max_offset() + c.inner.max_offset() : c.full.max_offset();
  return t.spatial.max_offset() + cells;
}

std::uint64_t elements_of(const std::vector<ir::Axis>& axes) {
  std::uint64_t n = 1;
  for (const auto& a : axes) n *= a.size;
  return n;
}

} // namespace

Status check_run_inputs(const RunProgram& p, const RunInputs& inputs) {
  if (auto ok = ir::seq::verify(p); !ok) return ok.diagnostics();
  return check_input_tensors(p, inputs);
}

Status check_input_tensors(const RunProgram& p, const RunInputs& inputs) {
  std::vector<const OperandStreams*> operands{&p.input()};
  if (const OperandStreams* trf = p.trf_operand()) operands.push_back(trf);
  for (const OperandStreams& v : p.vrf_operands) operands.push_back(&v);
  for (const OperandStreams* o : operands) {
    const TensorStreams& s = o->streams;
    auto it = inputs.find(s.tensor);
    if (it == inputs.end() || it->second == nullptr)
      return run_error("E-RUN-004", fmt::format("no contents for input `{}`", s.tensor));
    const LogicalTensor& t = *it->second;
    if (t.dtype != s.dtype || t.axes != s.axes)
      return run_error("E-RUN-004", fmt::format("input `{}` is {} {}, the program reads {} {}",
                                                s.tensor, ir::name(t.dtype), axes_text(t.axes),
                                                ir::name(s.dtype), axes_text(s.axes)));
    if (max_reach(s) >= std::max<std::uint64_t>(t.elements(), 1) && t.elements() > 0)
      return run_error("E-RUN-102",
                       fmt::format("internal: the streams of `{}` reach element {} of {}", s.tensor,
                                   max_reach(s), t.elements()));
  }
  if (max_reach(p.output) >= std::max<std::uint64_t>(elements_of(p.output.axes), 1))
    return run_error("E-RUN-102", "internal: the output streams reach outside the output");
  return {};
}

} // namespace tujit::runtime

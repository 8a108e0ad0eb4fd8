#include "runtime/interp/vector_exec.h"

#include "runtime/vector/ve_scalar.h"

#include <fmt/format.h>

namespace tujit::runtime {

namespace {

bool is_zero(std::uint32_t bits) {
  return (bits & 0x7FFFFFFFu) == 0;
}

} // namespace

Result<DeviceImage> run_vector(const ir::seq::VectorProgram& p, const DeviceImage& in,
                               bool values) {
  if (in.dtype != p.in_type || in.spatial != p.spatial || in.outer * in.inner != p.in_cells())
    return make_run_error(
        "E-RUN-102", fmt::format("the stream entering the Vector Engine is {} [{}][{}][{}], the "
                                 "pass reads {} [{}][{}][{}]",
                                 ir::name(in.dtype), in.spatial, in.outer, in.inner,
                                 ir::name(p.in_type), p.spatial, p.in_time, p.in_packet));
  DeviceImage out(p.out_type, p.spatial, p.out_time, p.out_packet);
  const std::uint64_t per_out = p.out_cells(), per_in = p.in_cells();
  for (std::uint64_t n = 0; n < per_out; ++n) {
    const ir::seq::VectorSource src = ir::seq::vector_source(p, n);
    for (std::uint64_t s = 0; s < p.spatial; ++s) {
      std::uint32_t v = poison_bits(p.in_type);
      CellState st = CellState::Top;
      if (!src.pad) {
        v = in.bits[s * per_in + src.input];
        st = in.state[s * per_in + src.input];
      } else if (src.first_op > 0) {
        v = poison_bits(p.steps[src.first_op - 1].dtype);
      }
      for (std::size_t i = src.first_op; i < p.steps.size(); ++i) {
        const ir::seq::VectorStepIR& step = p.steps[i];
        v = vector::apply_call(step.call, step.dtype, v);
        if (st == CellState::Zero && !is_zero(v)) st = CellState::Top;
      }
      const std::uint64_t o = s * per_out + n;
      out.bits[o] = values ? v : poison_bits(p.out_type);
      out.state[o] = st;
    }
  }
  return out;
}

} // namespace tujit::runtime

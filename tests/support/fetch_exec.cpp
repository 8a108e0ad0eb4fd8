#include "tests/support/fetch_exec.h"

#include "runtime/layout/layout.h"
#include "runtime/scalar/fetch_adapter.h"

#include <fmt/format.h>

namespace tujit::testing {

using runtime::CellState;
using runtime::DeviceImage;

Result<DeviceImage> run_fetch(const ir::seq::FetchProgram& p, const DeviceImage& dm,
                              const ir::AxisTable& table, bool values) {
  // Slice by slice: a switch moves packets across slices, so its chain runs only composed into
  // the operand streams (ir/seq/operand_streams.h switched_operand).
  if (p.switch_engine)
    return run_error("E-RUN-110", fmt::format("the fetch of `{}` goes through the Switch Engine, "
                                              "which the slice-by-slice executor does not run",
                                              p.source));
  // The buffer position order is the image's (outer, inner) order: Buf = Time ⊗ Packet.
  if (dm.dtype != p.dm_type || dm.spatial != p.spatial || dm.outer * dm.inner != p.buffer)
    return run_error("E-RUN-102",
                     fmt::format("the DM image of `{}` is {} [{}][{}][{}], the fetch reads {} "
                                 "[{}][{}]",
                                 p.source, ir::name(dm.dtype), dm.spatial, dm.outer, dm.inner,
                                 ir::name(p.dm_type), p.spatial, p.buffer));
  // What each fetched position stands for, from the Fetch output's mappings.
  auto positions = runtime::layout_cells(p.fetched, runtime::tensor_axes(p.fetched, table));
  if (!positions) return std::move(positions).take_diagnostics();
  const std::uint64_t per_slice = p.time * p.packet;
  if (positions->state.size() != p.spatial * per_slice)
    return run_error("E-RUN-102", "internal: the fetched stream's layout does not match the "
                                  "fetch program's shape");

  DeviceImage out(p.stream_type, p.spatial, p.collected_time(), p.flit_elements);
  std::fill(out.bits.begin(), out.bits.end(), runtime::poison_bits(p.stream_type));
  std::fill(out.state.begin(), out.state.end(), CellState::Top);
  std::optional<std::uint64_t> bottom_read; // first DM cell read that is `#{!}`
  for (std::uint64_t s = 0; s < p.spatial; ++s) {
    const std::uint64_t dm_base = s * p.buffer;
    const std::uint64_t pos_base = s * per_slice;
    ir::datapath::for_each_offset(p.sequencer, [&](std::uint64_t pos, std::uint64_t offset) {
      // A padded position that over-reads past the buffer keeps the poison fill (Top): the
      // verifier allows it for padding only (fetch_engine.h), and nothing outside the buffer is
      // simulated.
      if (offset >= p.buffer) return;
      const std::uint64_t src = dm_base + offset;
      const std::uint64_t t = pos / p.packet, e = pos % p.packet;
      const std::uint64_t dst =
          out.index(s, t * p.flits_per_packet + e / p.flit_elements, e % p.flit_elements);
      if (dm.state[src] == CellState::Bottom && !bottom_read) bottom_read = src;
      out.state[dst] = ir::fetched_state(positions->state[pos_base + pos], dm.state[src]);
      if (values)
        out.bits[dst] = runtime::fetch_adapter_bits(p.dm_type, p.lookup_to, p.cast_to, p.zero_point,
                                                    dm.bits[src]);
    });
  }
  if (bottom_read) {
    const std::uint64_t s = *bottom_read / p.buffer, i = *bottom_read % p.buffer;
    return run_error("E-RUN-111",
                     fmt::format("the fetch of `{}` reads DM cell {} of slice position {}, which "
                                 "is `#{{!}}` padding: such cells are never touched "
                                 "(docs/mapping.md §2)",
                                 p.source, i, s));
  }
  return out;
}

} // namespace tujit::testing

#include "ir/seq/operand_streams.h"

#include "ir/datapath/sequencer_derive.h"
#include "ir/seq/view_streams.h"
#include "ir/verify/to_trf.h"
#include "ir/verify/to_vrf.h"
#include "ir/verify/transpose.h"
#include "ir/verify/vrf_operand.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace tujit::ir::seq {
namespace {

Result<TensorStreams> param_streams(const std::string& name, const TensorType& type,
                                    const std::vector<Axis>& shape, const AxisTable& table) {
  const std::vector<Axis> axes = type_axes(type, table);
  if (shape.size() == axes.size())
    return view_streams(name, type, axes, shape, kMaxStreamPositions);
  // The view's own diagnostics come first.
  auto coords = view_coordinates(type, axes, kMaxStreamPositions);
  if (!coords) return std::move(coords).take_diagnostics();
  return run_error("E-RUN-004", fmt::format("`{}` has {} axes, its type {} names {}", name,
                                            shape.size(), to_string(type), axes.size()));
}

/// The DM buffer offset the Fetch sequencer reads at stream position `pos` (docs/datapath.md §4:
/// the innermost entry counts fastest).
std::uint64_t sequencer_offset(const datapath::SequencerConfig& c, std::uint64_t pos) {
  std::uint64_t off = 0;
  for (std::size_t k = c.entries.size(); k-- > 0;) {
    const auto& e = c.entries[k];
    off += (pos % e.size) * e.stride;
    pos /= e.size;
  }
  return off;
}

// Coordinates with zero entries dropped, so equal cells compare equal (docs/mapping.md §2).
Index key_of(const Cell& c) {
  Index k;
  for (const auto& [axis, v] : c.index)
    if (v != 0) k.emplace(axis, v);
  return k;
}

/// E-RUN-102 when a stage reads a stream whose cells are not [|time|][|packet|] (a lowering bug).
std::optional<Diagnostic> shape_mismatch(const CellStreams& src, const Mapping& time,
                                         const Mapping& packet, const char* reader) {
  if (src.outer_size == time.size() && src.inner_size == packet.size()) return std::nullopt;
  return run_error("E-RUN-102", fmt::format("internal: {} reads a stream of another shape than its "
                                            "input type's",
                                            reader));
}

/// Live cells of a stream view by their coordinates (zero coordinates dropped): (time, packet).
std::map<Index, std::pair<std::uint64_t, std::uint64_t>>
cells_by_coordinates(const Mapping& time, const Mapping& packet) {
  std::map<Index, std::pair<std::uint64_t, std::uint64_t>> by_coords;
  for (std::uint64_t f = 0; f < time.size(); ++f) {
    const Cell tc = time.map(f);
    if (!tc.is_live()) continue;
    for (std::uint64_t e = 0; e < packet.size(); ++e) {
      const Cell c = combine(tc, packet.map(e));
      if (c.is_live()) by_coords.emplace(key_of(c), std::make_pair(f, e));
    }
  }
  return by_coords;
}

} // namespace

std::vector<Axis> type_axes(const TensorType& type, const AxisTable& table) {
  std::set<std::string> used;
  for (const auto& arg : tensor_args(type.kind)) {
    if (arg.kind != TensorArg::Kind::Mapping) continue;
    for (const auto& a : type.mapping(arg.slot).axes()) used.insert(a.name);
  }
  std::vector<Axis> out;
  for (const auto& a : table.axes())
    if (used.count(a.name) != 0) out.push_back(a);
  return out;
}

Result<OperandStreams> direct_operand(const KernelParam& param, const std::vector<Axis>& shape,
                                      const AxisTable& table) {
  auto s = param_streams(param.name, *param.tensor, shape, table);
  if (!s) return std::move(s).take_diagnostics();
  OperandStreams o;
  o.streams = std::move(*s);
  o.type = param.tensor->dtype;
  return o;
}

Result<OperandStreams> fetched_operand(const FetchProgram& f, const KernelParam& dm,
                                       const std::vector<Axis>& shape, const AxisTable& table) {
  auto dm_streams = param_streams(dm.name, f.dm, shape, table);
  if (!dm_streams) return std::move(dm_streams).take_diagnostics();
  // Which fetched positions are padding (the Fetch output's mappings); its axes are the DM's.
  auto positions = view_coordinates(f.fetched, type_axes(f.fetched, table), kMaxStreamPositions);
  if (!positions) return std::move(positions).take_diagnostics();
  const TensorStreams& d = *dm_streams;
  if (d.cells.outer_size * d.cells.inner_size != f.buffer || positions->outer.size != f.time ||
      positions->inner.size != f.packet)
    return run_error("E-RUN-102", fmt::format("internal: the fetch of `{}` does not match the "
                                              "shapes of its DM tensor and stream",
                                              f.source));
  const std::uint64_t dm_inner = d.cells.inner_size;
  const DimCoordinates& pos_t = positions->outer;
  const DimCoordinates& pos_p = positions->inner;
  std::optional<std::uint64_t> bottom;
  const auto cell = [&](std::uint64_t t2, std::uint64_t e2) -> CellAddress {
    const std::uint64_t t = t2 / f.flits_per_packet;
    const std::uint64_t e = (t2 % f.flits_per_packet) * f.flit_elements + e2;
    if (e >= f.packet) return {0, CellState::Top}; // Collect pads the flit (docs/datapath.md §8)
    const std::uint64_t b = sequencer_offset(f.sequencer, t * f.packet + e);
    // A padded position may read past the buffer's end (the verifier allows no live one to):
    // whatever lies there is top padding (docs/datapath.md §4.2).
    if (b >= f.buffer) return {0, CellState::Top};
    const CellAddress c = d.cells.at(b / dm_inner, b % dm_inner);
    if (c.state == CellState::Bottom && !bottom) bottom = b;
    const CellState position = combine_states(pos_t.state[t], pos_p.state[e]);
    const CellState st = fetched_state(position, c.state);
    return {st == CellState::Live ? c.offset : 0, st};
  };
  OperandStreams o;
  o.streams.tensor = dm.name;
  o.streams.dtype = f.dm_type;
  o.streams.axes = d.axes;
  o.streams.cells = CellStreams::from_function(f.collected_time(), f.flit_elements, cell);
  // A slice whose DM or fetched position is padding reads nothing live.
  o.streams.spatial = AddressTable::from_function(d.spatial.size(), [&](std::uint64_t s) {
    const CellAddress a = d.spatial.at(s);
    const CellState position =
        s < positions->spatial.size ? positions->spatial.state[s] : CellState::Bottom;
    const CellState st = combine_states(position, a.state);
    return CellAddress{st == CellState::Live ? a.offset : 0, st};
  });
  if (bottom || d.spatial.any(CellState::Bottom))
    return run_error("E-RUN-111",
                     fmt::format("the fetch of `{}` reads DM cell {}, which is `#{{!}}` padding: "
                                 "such cells are never touched (docs/mapping.md §2)",
                                 f.source, bottom.value_or(0)));
  o.adapter.cast_to = f.cast_to;
  o.adapter.zero_point = f.zero_point;
  o.type = f.stream_type;
  return o;
}

Result<OperandStreams> stored_operand(const Stage& store, const OperandStreams& source) {
  const Mapping& time = store.input.mapping(Slot::Time);
  const Mapping& packet = store.input.mapping(Slot::Packet);
  const CellStreams& src = source.streams.cells;
  if (auto bad = shape_mismatch(src, time, packet, "a register-file store")) return *bad;
  OperandStreams o = source;
  o.type = store.output.dtype;
  if (store.unit() == StageUnit::TrfStore) {
    const Mapping& lane = store.output.mapping(Slot::Lane);
    const Mapping& element = store.output.mapping(Slot::Element);
    auto v = verify::verify_to_trf({source.type, time, packet, lane, element});
    if (!v) return v.diagnostics();
    const std::uint64_t fpl = v->flits_per_lane, np = packet.size();
    // docs/contraction.md §4.2: flit f fills lane f / FPL at element (f mod FPL)·|Packet|; TRF
    // cells no flit fills are never written.
    o.streams.cells = CellStreams::from_function(
        lane.size(), element.size(), [&](std::uint64_t l, std::uint64_t x) -> CellAddress {
          const std::uint64_t f = l * fpl + x / np;
          if (x / np >= fpl || f >= time.size()) return {0, CellState::Bottom};
          return src.at(f, x % np);
        });
    return o;
  }
  if (store.unit() == StageUnit::VrfStore) {
    const Mapping& element = store.output.mapping(Slot::Element);
    auto v = verify::verify_to_vrf({store.output.dtype, element});
    if (!v) return v.diagnostics();
    // docs/contraction.md §4.3: each VRF element takes the live stream cell with the same
    // coordinates; the rest of the VRF is zero-initialised.
    const auto by_coords = cells_by_coordinates(time, packet);
    o.streams.cells =
        CellStreams::from_function(1, element.size(), [&](std::uint64_t, std::uint64_t a) {
          const Cell c = element.map(a);
          if (!c.is_live()) return CellAddress{0, CellState::Zero};
          auto it = by_coords.find(key_of(c));
          if (it == by_coords.end()) return CellAddress{0, CellState::Zero};
          return src.at(it->second.first, it->second.second);
        });
    return o;
  }
  return run_error("E-RUN-101",
                   fmt::format("`{}` is not a register-file store", to_string(store.op)));
}

Result<OperandStreams> passed_operand(const TensorType& init, const TensorType& final,
                                      const OperandStreams& source, const Index& fixed) {
  const Mapping& time = init.mapping(Slot::Time);
  const Mapping& packet = init.mapping(Slot::Packet);
  const CellStreams& src = source.streams.cells;
  if (auto bad = shape_mismatch(src, time, packet, "a Vector Engine pass")) return *bad;
  const auto by_coords = cells_by_coordinates(time, packet);
  const Mapping& out_time = final.mapping(Slot::Time);
  const Mapping& out_packet = final.mapping(Slot::Packet);
  std::optional<std::uint64_t> lost;
  OperandStreams o = source;
  o.type = final.dtype;
  o.streams.cells = CellStreams::from_function(
      out_time.size(), out_packet.size(), [&](std::uint64_t t, std::uint64_t e) -> CellAddress {
        const Cell c = combine(out_time.map(t), out_packet.map(e));
        // Lanes the pass pads (widen_pad) or leaves as padding hold arbitrary values.
        if (!c.is_live()) return {0, CellState::Top};
        Index key = key_of(c);
        for (const auto& [axis, v] : fixed)
          if (v != 0) key[axis] = v;
        auto it = by_coords.find(key);
        if (it == by_coords.end()) {
          if (!lost) lost = t * out_packet.size() + e;
          return {0, CellState::Top};
        }
        return src.at(it->second.first, it->second.second);
      });
  if (lost)
    return run_error("E-RUN-102", fmt::format("internal: cell {} of the Vector Engine pass's "
                                              "output holds coordinates its input does not",
                                              *lost));
  return o;
}

Result<OperandStreams> vrf_read_operand(const TensorType& final, const TensorType& vrf_type,
                                        const OperandStreams& vrf) {
  const Mapping& time = final.mapping(Slot::Time);
  const Mapping& packet = final.mapping(Slot::Packet);
  const Mapping& element = vrf_type.mapping(Slot::Element);
  const CellStreams& src = vrf.streams.cells;
  if (src.outer_size * src.inner_size != element.size())
    return run_error("E-RUN-102", "internal: a VRF operand's streams are not one row of its "
                                  "Element per slice");
  auto read = verify::verify_vrf_operand({time, packet, element});
  if (!read) return std::move(read).take_diagnostics();
  std::optional<std::uint64_t> padding;
  OperandStreams o = vrf;
  o.streams.cells = CellStreams::from_function(
      time.size(), packet.size(), [&](std::uint64_t t, std::uint64_t e) -> CellAddress {
        const std::int64_t a = read->element_of[t * packet.size() + e];
        if (a < 0) return {0, CellState::Top}; // the pass's padding reads nothing
        const auto x = static_cast<std::uint64_t>(a);
        const CellAddress c = src.at(x / src.inner_size, x % src.inner_size);
        if (c.state != CellState::Live && c.state != CellState::Zero && !padding) padding = x;
        return c;
      });
  if (padding)
    return run_error("E-RUN-110",
                     fmt::format("a Vector Engine call reads VRF element {} of {}, which holds "
                                 "padding (the store that filled the VRF wrote no element there)",
                                 *padding, to_string(vrf_type)));
  return o;
}

Result<OperandStreams> transposed_operand(const Stage& transpose, const OperandStreams& source) {
  const TensorType& in = transpose.input;
  const TensorType& out = transpose.output;
  auto v = verify::verify_transpose({in.dtype, in.mapping(Slot::Time), in.mapping(Slot::Packet),
                                     out.mapping(Slot::Time), out.mapping(Slot::Packet)});
  if (!v)
    return run_error("E-RUN-102", fmt::format("internal: a transpose that does not verify ({}) "
                                              "reached lowering",
                                              v.diagnostics().front().code));
  const CellStreams& src = source.streams.cells;
  if (src.outer_size != in.mapping(Slot::Time).size() ||
      src.inner_size > in.mapping(Slot::Packet).size())
    return run_error("E-RUN-102", "internal: the Transpose Engine reads a stream of another shape "
                                  "than its input type's");
  OperandStreams o = source;
  o.streams.cells =
      CellStreams::from_function(out.mapping(Slot::Time).size(), out.mapping(Slot::Packet).size(),
                                 [&](std::uint64_t t, std::uint64_t r) -> CellAddress {
                                   const auto at = verify::transpose_source(*v, t, r);
                                   // Align pads each row to a flit; a cast's re-padding lies past
                                   // the source's cells.
                                   if (!at || at->packet >= src.inner_size)
                                     return {0, CellState::Top};
                                   return src.at(at->time, at->packet);
                                 });
  return o;
}

Result<OperandStreams> written_operand(const Stage& write, const OperandStreams& source) {
  const Mapping& time = write.input.mapping(Slot::Time);
  const Mapping& packet = write.input.mapping(Slot::Packet);
  const Mapping& buf = write.output.mapping(Slot::Element);
  const CellStreams& src = source.streams.cells;
  if (auto bad = shape_mismatch(src, time, packet, "a MemTensor write")) return *bad;
  auto d = datapath::derive_sequencer(buf, time, packet, datapath::SeqMode::Write);
  if (!d) return d.diagnostics();
  // The write-mode loops visit every stream position; a live one writes its buffer cell.
  constexpr std::uint64_t kUnwritten = ~std::uint64_t{0};
  std::vector<std::uint64_t> writer(buf.size(), kUnwritten);
  const std::uint64_t positions = time.size() * packet.size();
  for (std::uint64_t pos = 0; pos < positions; ++pos) {
    const std::uint64_t t = pos / packet.size(), e = pos % packet.size();
    if (!combine(time.map(t), packet.map(e)).is_live()) continue;
    const std::uint64_t a = sequencer_offset(d->config, pos);
    if (a < writer.size()) writer[a] = pos;
  }
  std::optional<std::uint64_t> unwritten;
  OperandStreams o = source;
  o.type = write.output.dtype;
  o.streams.cells = CellStreams::from_function(1, buf.size(), [&](std::uint64_t, std::uint64_t a) {
    const Cell c = buf.map(a);
    if (!c.is_live()) return CellAddress{0, cell_state_of(c.padding)};
    if (writer[a] == kUnwritten) {
      if (!unwritten) unwritten = a;
      return CellAddress{0, CellState::Bottom};
    }
    return src.at(writer[a] / packet.size(), writer[a] % packet.size());
  });
  if (unwritten)
    return run_error("E-RUN-102",
                     fmt::format("internal: the write into `{}` leaves live buffer cell {} "
                                 "unwritten",
                                 write.target, *unwritten));
  return o;
}

} // namespace tujit::ir::seq

#include "ir/seq/operand_streams.h"

#include "ir/datapath/sequencer_derive.h"
#include "ir/seq/view_streams.h"
#include "ir/verify/vrf_operand.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace tujit::ir::seq {
namespace {

/// A stage whose verifier's result lowering needs and the kernel's check does not hold.
Diagnostic unverified(const Stage& stage) {
  return run_error("E-RUN-102",
                   fmt::format("internal: `{}` reached lowering without its verifier's result",
                               to_string(stage.op)));
}

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
  // Fetched position (packet t, element e) of a slice, before Collect.
  const auto fetched = [&](std::uint64_t t, std::uint64_t e) -> CellAddress {
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
  // Collected cell (t2, e2): flit t2 mod F of packet t2 / F; Collect pads the flit past the
  // packet (docs/datapath.md §8).
  const auto collected = [&](auto&& packet_cell) {
    return [&, packet_cell](std::uint64_t t2, std::uint64_t e2) -> CellAddress {
      const std::uint64_t e = (t2 % f.flits_per_packet) * f.flit_elements + e2;
      if (e >= f.packet) return {0, CellState::Top};
      return packet_cell(t2 / f.flits_per_packet, e);
    };
  };
  OperandStreams o;
  o.streams.tensor = dm.name;
  o.streams.dtype = f.dm_type;
  o.streams.axes = d.axes;
  if (!f.switch_engine)
    o.streams.cells =
        CellStreams::from_function(f.collected_time(), f.flit_elements, collected(fetched));
  else
    o.streams.cells = CellStreams::from_function(f.time, f.packet, fetched);
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
  o.adapter.lookup_to = f.lookup_to;
  o.adapter.cast_to = f.cast_to;
  o.adapter.zero_point = f.zero_point;
  o.type = f.stream_type;
  if (!f.switch_engine) return o;
  // The Switch Engine moves the fetched packets across slices before Collect (docs/switch.md).
  auto switched = switched_operand(*f.switch_engine, o, table);
  if (!switched) return switched;
  const CellStreams packets = switched->streams.cells;
  switched->streams.cells = CellStreams::from_function(
      f.collected_time(), f.flit_elements,
      collected([&](std::uint64_t t, std::uint64_t e) { return packets.at(t, e); }));
  return switched;
}

Result<OperandStreams> stored_operand(const Stage& store, const verify::StageFacts& derived,
                                      const OperandStreams& source) {
  const Mapping& time = store.input.mapping(Slot::Time);
  const Mapping& packet = store.input.mapping(Slot::Packet);
  const CellStreams& src = source.streams.cells;
  if (auto bad = shape_mismatch(src, time, packet, "a register-file store")) return *bad;
  OperandStreams o = source;
  o.type = store.output.dtype;
  if (store.unit() == StageUnit::TrfStore) {
    const Mapping& lane = store.output.mapping(Slot::Lane);
    const Mapping& element = store.output.mapping(Slot::Element);
    const auto* v = std::get_if<verify::ToTrfDerived>(&derived);
    if (v == nullptr) return unverified(store);
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
    if (!std::holds_alternative<verify::ToVrfDerived>(derived)) return unverified(store);
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

Result<OperandStreams> transposed_operand(const Stage& transpose, const verify::StageFacts& derived,
                                          const OperandStreams& source) {
  const TensorType& in = transpose.input;
  const TensorType& out = transpose.output;
  const auto* v = std::get_if<verify::TransposeDerived>(&derived);
  if (v == nullptr) return unverified(transpose);
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

namespace {

/// The switch's input position (slice of InSlice, step of InTime) whose cells hold the output
/// position's coordinates, per output position (slice·|OutTime| + time), −1 where the output
/// position holds no element of the input: the book's move for a regular configuration, the input
/// position of the same coordinates (broadcast axes aside) for a CustomBroadcast.
Result<std::vector<std::int64_t>> switch_moves(const SwitchStep& sw) {
  const Mapping& in_slice = sw.input.mapping(Slot::Slice);
  const Mapping& in_time = sw.input.mapping(Slot::Time);
  const Mapping& out_slice = sw.output.mapping(Slot::Slice);
  const Mapping& out_time = sw.output.mapping(Slot::Time);
  const std::uint64_t n_slice = out_slice.size(), n_time = out_time.size();
  if (n_slice * n_time > kMaxStreamPositions)
    return run_error("E-RUN-001", fmt::format("the switch moves {} × {} packets, more than tujit "
                                              "evaluates",
                                              n_slice, n_time));
  std::vector<std::int64_t> moves(n_slice * n_time, -1);
  if (sw.kind != SwitchKind::CustomBroadcast) {
    if (book_out_time(sw) != n_time || in_slice.size() != n_slice)
      return run_error("E-RUN-102", fmt::format("internal: the {} switch's OutTime {} does not "
                                                "span its sub-dimensions",
                                                to_string(sw.kind), out_time.to_string()));
    for (std::uint64_t s = 0; s < n_slice; ++s)
      for (std::uint64_t t = 0; t < n_time; ++t)
        if (auto at = book_source(sw, s, t))
          moves[s * n_time + t] = static_cast<std::int64_t>(at->slice * in_time.size() + at->time);
    return moves;
  }
  // The axes the input carries: the others are the broadcast ones.
  std::set<std::string> carried;
  for (const Axis& a : in_slice.axes()) carried.insert(a.name);
  for (const Axis& a : in_time.axes()) carried.insert(a.name);
  std::map<Index, std::int64_t> by_coords;
  for (std::uint64_t s = 0; s < in_slice.size(); ++s) {
    const Cell sc = in_slice.map(s);
    if (!sc.is_live()) continue;
    for (std::uint64_t t = 0; t < in_time.size(); ++t) {
      const Cell c = combine(sc, in_time.map(t));
      if (c.is_live())
        by_coords.emplace(key_of(c), static_cast<std::int64_t>(s * in_time.size() + t));
    }
  }
  for (std::uint64_t s = 0; s < n_slice; ++s) {
    const Cell sc = out_slice.map(s);
    if (!sc.is_live()) continue;
    for (std::uint64_t t = 0; t < n_time; ++t) {
      const Cell c = combine(sc, out_time.map(t));
      if (!c.is_live()) continue;
      Index k = key_of(c);
      std::erase_if(k, [&](const auto& e) { return carried.count(e.first) == 0; });
      if (auto it = by_coords.find(k); it != by_coords.end()) moves[s * n_time + t] = it->second;
    }
  }
  return moves;
}

} // namespace

Result<OperandStreams> switched_operand(const SwitchStep& sw, const OperandStreams& source,
                                        const AxisTable& table) {
  const TensorStreams& src = source.streams;
  const std::uint64_t groups =
      sw.input.mapping(Slot::Chip).size() * sw.input.mapping(Slot::Cluster).size();
  const std::uint64_t in_slices = sw.input.mapping(Slot::Slice).size();
  const std::uint64_t in_time = sw.input.mapping(Slot::Time).size();
  const std::uint64_t packet = sw.input.mapping(Slot::Packet).size();
  if (src.spatial.size() != groups * in_slices || src.cells.outer_size != in_time ||
      src.cells.inner_size != packet)
    return run_error("E-RUN-102", "internal: the Switch Engine reads a stream of another shape "
                                  "than its input type's");
  auto moves = switch_moves(sw);
  if (!moves) return std::move(moves).take_diagnostics();
  // The output type read over the source's logical tensor: axes it does not hold are broadcasts.
  std::vector<std::string> fresh;
  std::vector<Axis> axes;
  for (const Axis& a : src.axes) {
    const Axis* declared = table.find(a.name);
    axes.push_back(declared != nullptr ? *declared : a);
  }
  for (const Axis& a : type_axes(sw.output, table))
    if (std::none_of(src.axes.begin(), src.axes.end(),
                     [&](const Axis& b) { return b.name == a.name; }))
      fresh.push_back(a.name);
  TensorType view = sw.output;
  for (std::size_t i = 0; i < kSlotCount && !fresh.empty(); ++i) {
    if (!view.slots[i]) continue;
    auto m = broadcast_axes(view.slots[i]->mapping, fresh);
    if (!m) return std::move(m).take_diagnostics();
    view.slots[i]->mapping = std::move(*m);
  }
  auto out = view_streams(src.tensor, view, axes, src.axes, kMaxStreamPositions);
  if (!out) return std::move(out).take_diagnostics();
  out->dtype = src.dtype;
  const std::uint64_t out_slices = sw.output.mapping(Slot::Slice).size();
  const std::uint64_t out_time = sw.output.mapping(Slot::Time).size();
  for (std::uint64_t g = 0; g < groups; ++g)
    for (std::uint64_t s = 0; s < out_slices; ++s)
      for (std::uint64_t t = 0; t < out_time; ++t) {
        const std::int64_t m = (*moves)[s * out_time + t];
        for (std::uint64_t p = 0; p < packet; ++p) {
          const CellAddress o = out->at(g * out_slices + s, t, p);
          if (o.state != CellState::Live) continue;
          const auto from = static_cast<std::uint64_t>(m);
          const CellAddress i = m < 0 ? CellAddress{0, CellState::Top}
                                      : src.at(g * in_slices + from / in_time, from % in_time, p);
          if (i.state == CellState::Live && i.offset == o.offset) continue;
          return run_error(m < 0 ? "E-RUN-110" : "E-RUN-102",
                           fmt::format("{}: output slice {}, time {}, packet {} of the {} switch "
                                       "holds an element {}",
                                       m < 0 ? "tujit run" : "internal", s, t, p,
                                       to_string(sw.kind),
                                       m < 0 ? "no live input cell holds"
                                             : "other than the one the ring moves there"));
        }
      }
  OperandStreams o = source;
  o.streams = std::move(*out);
  return o;
}

Result<OperandStreams> written_operand(const Stage& write, const verify::StageFacts& derived,
                                       const OperandStreams& source) {
  const Mapping& time = write.input.mapping(Slot::Time);
  const Mapping& packet = write.input.mapping(Slot::Packet);
  const Mapping& buf = write.output.mapping(Slot::Element);
  const CellStreams& src = source.streams.cells;
  if (auto bad = shape_mismatch(src, time, packet, "a MemTensor write")) return *bad;
  const auto* d = std::get_if<datapath::SequencerDerivation>(&derived);
  if (d == nullptr) return unverified(write);
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

#include "ir/verify/stream_adapter.h"

#include "ir/mapping/factor.h"
#include "ir/target/rngd.h"
#include "ir/verify/outer_util.h"

#include <fmt/format.h>

#include <optional>
#include <string>

namespace tujit::ir::verify {

using namespace outer_detail;

DerivedTable StreamAdapterDerived::to_table() const {
  return DerivedTable{{"pack_size", pack_size},
                      {"time_broadcast", time_broadcast},
                      {"time_broadcast_size", time_broadcast_size},
                      {"lane_broadcast", lane_broadcast},
                      {"packed_time", packed_time},
                      {"time_outer", time_outer},
                      {"out_packet_bytes", out_packet_bytes}};
}

namespace {

const std::string kStage = "contract_outer";

// Rule 1: LaneSize.
std::optional<Diagnostic> check_lane_size(const StreamAdapterInput& in) {
  const std::uint64_t lanes = in.lane.size();
  if (target::is_valid_lane_size(lanes)) return std::nullopt;
  return rule_error("E-OUTER-002", kStage, "LaneSize",
                    fmt::format("Lane {} has {} lanes; contract_outer broadcasts the stream to "
                                "1, 2, 4 or 8 lanes",
                                mtext(in.lane), lanes),
                    {fmt::format("Lane::SIZE = {}", lanes),
                     "fix: use the Lane of the TRF operand (1, 2, 4 or 8 lanes)"});
}

// Rule 2: OutPacketFlits — the packet is one or two flits of the stream storage type. Gives
// PackSize.
Result<std::uint64_t> pack_size_of(const StreamAdapterInput& in) {
  const target::TensorUnitDescription& tu = target::kRngd;
  const ScalarType d = in.dtype;
  const std::uint64_t op_bits = total_bits(d, in.out_packet.size());
  const std::uint64_t flit_bits = tu.flit_bits();
  const std::uint64_t op_bytes = op_bits / tu.bits_per_byte;
  if (op_bits % flit_bits == 0 && op_bits / flit_bits != 0 &&
      op_bits / flit_bits <= tu.max_pack_size)
    return op_bits / flit_bits;
  return rule_error(
      "E-OUTER-003", kStage, "OutPacketFlits",
      fmt::format("OutPacket {} holds {} {} elements = {}; it must be exactly 1 or 2 flits "
                  "(32 B or 64 B = {} or {} elements)",
                  mtext(in.out_packet), in.out_packet.size(), name(d),
                  op_bits % tu.bits_per_byte == 0 ? bytes_text(op_bytes)
                                                  : fmt::format("{} bits", op_bits),
                  flit_elements(d), 2 * flit_elements(d)),
      {fmt::format("out packet bytes = {}", op_bytes),
       "fix: pack 1 or 2 stream flits: OutPacket = [Time % PackSize, Packet]"});
}

// The factorized operands and the splits the rules compare.
struct AdapterSides {
  FactorList time, packet, out_time, out_packet, lane;
  std::uint64_t k = 1; // PackSize
  Split time_split;    // split(Time, PackSize)
  Split op_split;      // split(OP, FE)
  Split ot_split;      // split(OT, TB)
  std::uint64_t tb = 1;
};

// Rules 3–5: packing pulls the innermost PackSize cells of Time into the packet, above the
// input flit.
std::optional<Diagnostics> check_packing(const StreamAdapterInput& in, AdapterSides& s) {
  const std::uint64_t time_size = in.time.size();
  if (time_size % s.k != 0) { // [MODEL] k ∤ |Time|
    return Diagnostics{rule_error(
        "E-OUTER-005", kStage, "PackedCellsMismatch",
        fmt::format("OutPacket {} packs {} flits, but Time {} has {} flits, not a multiple of {}",
                    mtext(in.out_packet), s.k, mtext(in.time), time_size, s.k),
        {fmt::format("pack size = {}", s.k),
         "fix: use a 32 B OutPacket (PackSize 1) or make |Time| even"})};
  }
  Result<Split> tsp = split_at(s.time, s.k);
  if (!tsp) return std::move(tsp).take_diagnostics();
  s.time_split = std::move(*tsp);
  Result<Split> osp = split_at(s.out_packet, flit_elements(in.dtype));
  if (!osp) return std::move(osp).take_diagnostics();
  s.op_split = std::move(*osp);
  const FactorList fix = pair(s.time_split.inner, s.packet);
  if (!(s.op_split.inner == s.packet)) { // 4. FlitMismatch
    return Diagnostics{rule_error(
        "E-OUTER-004", kStage, "FlitMismatch",
        fmt::format("the inner flit of OutPacket {} is {} ({} elements), but the input Packet is "
                    "{}",
                    mtext(in.out_packet), ftext(s.op_split.inner), flit_elements(in.dtype),
                    mtext(in.packet)),
        {fmt::format("inner flit = {}, packet = {}", ftext(s.op_split.inner), ftext(s.packet)),
         fmt::format("fix: OutPacket = [Time % {}, Packet] = {}", s.k, ftext(fix))})};
  }
  if (!(s.op_split.outer == s.time_split.inner)) { // 5. PackedCellsMismatch
    return Diagnostics{rule_error(
        "E-OUTER-005", kStage, "PackedCellsMismatch",
        fmt::format("OutPacket {} packs {} above its inner flit, but the innermost {} cells of "
                    "Time {} are {}",
                    mtext(in.out_packet), ftext(s.op_split.outer), s.k, mtext(in.time),
                    ftext(s.time_split.inner)),
        {fmt::format("pack size = {}", s.k),
         fmt::format("fix: OutPacket = [Time % {}, Packet] = {}", s.k, ftext(fix))})};
  }
  return std::nullopt;
}

// Rules 6–7: OT = [Time / PackSize, TimeBroadcast], broadcasts innermost.
std::optional<Diagnostics> check_out_time(const StreamAdapterInput& in, AdapterSides& s) {
  const std::uint64_t t_out_size = s.time_split.outer.size();
  const std::uint64_t ot_size = in.out_time.size();
  if (ot_size % t_out_size != 0) {
    return Diagnostics{rule_error(
        "E-OUTER-006", kStage, "TimeIndivisible",
        fmt::format("OutTime {} has {} steps, not a multiple of the {} packed steps of Time {}",
                    mtext(in.out_time), ot_size, t_out_size, mtext(in.time)),
        {fmt::format("|OutTime| = {}, |Time / PackSize| = {}", ot_size, t_out_size),
         fmt::format("fix: OutTime = [{}, broadcast axes]", render_text(s.time_split.outer))})};
  }
  s.tb = ot_size / t_out_size;
  Result<Split> otsp = split_at(s.out_time, s.tb);
  if (!otsp) return std::move(otsp).take_diagnostics();
  s.ot_split = std::move(*otsp);
  if (s.ot_split.outer == s.time_split.outer) return std::nullopt;
  return Diagnostics{rule_error(
      "E-OUTER-007", kStage, "OutTimeMismatch",
      fmt::format("OutTime {} must be [packed Time, broadcast] with the {} broadcast steps "
                  "innermost: its outer part is {} but the packed Time is {}",
                  mtext(in.out_time), s.tb, ftext(s.ot_split.outer), ftext(s.time_split.outer)),
      {fmt::format("time broadcast size = {}", s.tb),
       fmt::format("fix: OutTime = [{}, broadcast axes] (stream axes keep their order, "
                   "broadcast axes go innermost)",
                   render_text(s.time_split.outer))})};
}

// [PROP] LaneAxisReused: the stream is replicated to every lane, so it cannot vary with Lane.
std::optional<Diagnostic> check_lane_reuse(const StreamAdapterInput& in, const AdapterSides& s) {
  struct Named {
    const char* label;
    const FactorList* list;
    const Mapping* m;
  };
  const Named others[] = {{"Time", &s.time, &in.time},
                          {"Packet", &s.packet, &in.packet},
                          {"OutTime", &s.out_time, &in.out_time},
                          {"OutPacket", &s.out_packet, &in.out_packet}};
  for (const Named& o : others) {
    Factor f;
    if (!lists_overlap(s.lane, *o.list, &f)) continue;
    return rule_error(
        "E-OUTER-008", kStage, "LaneAxisReused",
        fmt::format("Lane {} uses {}, which also appears in {} {}; the stream is broadcast to "
                    "every lane, so lanes cannot select different stream data",
                    mtext(in.lane), digit_text(f), o.label, mtext(*o.m)),
        {"fix: the lane axis must be an output axis that only the TRF operand varies with"});
  }
  return std::nullopt;
}

// [PROP] TimeBroadcastInStream: broadcast factors are axes absent from the stream (TRF Element
// axes or pure output axes). A broadcast digit of a stream axis would give the output a
// coordinate of that axis the stream cell does not hold.
std::optional<Diagnostic> check_broadcast_axes(const StreamAdapterInput& in,
                                               const AdapterSides& s) {
  Factor f;
  const bool in_time = lists_share_axis(s.ot_split.inner, s.time, &f);
  if (!in_time && !lists_share_axis(s.ot_split.inner, s.packet, &f)) return std::nullopt;
  return rule_error(
      "E-OUTER-009", kStage, "TimeBroadcastInStream",
      fmt::format("the time broadcast {} of OutTime {} (its innermost {} steps) uses {}, an "
                  "axis of the stream {} {}; broadcast axes must be absent from the stream",
                  ftext(s.ot_split.inner), mtext(in.out_time), s.tb, digit_text(f),
                  in_time ? "Time" : "Packet", in_time ? mtext(in.time) : mtext(in.packet)),
      {fmt::format("time broadcast = {}", ftext(s.ot_split.inner)),
       "fix: keep every stream digit in the packed part of OutTime ([Time / PackSize] in "
       "order) and broadcast only over TRF or output axes"});
}

} // namespace

Result<StreamAdapterDerived> verify_stream_adapter(const StreamAdapterInput& in) {
  if (auto d = check_lane_size(in)) return *d;
  Result<std::uint64_t> k = pack_size_of(in);
  if (!k) return std::move(k).take_diagnostics();
  AdapterSides s;
  s.time = factorize(in.time);
  s.packet = factorize(in.packet);
  s.out_time = factorize(in.out_time);
  s.out_packet = factorize(in.out_packet);
  s.lane = factorize(in.lane);
  s.k = *k;
  if (auto ds = check_packing(in, s)) return std::move(*ds);
  if (auto ds = check_out_time(in, s)) return std::move(*ds);
  if (auto d = check_lane_reuse(in, s)) return *d;
  if (auto d = check_broadcast_axes(in, s)) return *d;

  StreamAdapterDerived out;
  out.pack_size = s.k;
  out.time_broadcast_size = s.tb;
  out.time_broadcast = render(s.ot_split.inner);
  out.lane_broadcast = in.lane.size();
  out.packed_time = render(s.time_split.inner);
  out.time_outer = render(s.time_split.outer);
  out.out_packet_bytes = total_bits(in.dtype, in.out_packet.size()) / target::kRngd.bits_per_byte;
  return out;
}

} // namespace tujit::ir::verify

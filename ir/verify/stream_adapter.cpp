#include "ir/verify/stream_adapter.h"

#include "ir/mapping/factor.h"
#include "ir/target/rngd.h"
#include "ir/verify/outer_util.h"

#include <fmt/format.h>

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

Result<StreamAdapterDerived> verify_stream_adapter(const StreamAdapterInput& in) {
  const target::TensorUnitDescription& tu = target::kRngd;
  const ScalarType d = in.dtype;
  const std::string st = "contract_outer";

  // 1. LaneSize
  const std::uint64_t lanes = in.lane.size();
  if (!target::is_valid_lane_size(lanes)) {
    return rule_error("E-OUTER-002", st, "LaneSize",
                      fmt::format("Lane {} has {} lanes; contract_outer broadcasts the stream to "
                                  "1, 2, 4 or 8 lanes",
                                  mtext(in.lane), lanes),
                      {fmt::format("Lane::SIZE = {}", lanes),
                       "fix: use the Lane of the TRF operand (1, 2, 4 or 8 lanes)"});
  }

  // 2. OutPacketFlits: the packet is one or two flits of the stream storage type.
  const std::uint64_t op_bits = total_bits(d, in.out_packet.size());
  const std::uint64_t flit_bits = tu.flit_bits();
  const std::uint64_t op_bytes = op_bits / tu.bits_per_byte;
  if (op_bits % flit_bits != 0 || op_bits / flit_bits == 0 ||
      op_bits / flit_bits > tu.max_pack_size) {
    return rule_error(
        "E-OUTER-003", st, "OutPacketFlits",
        fmt::format("OutPacket {} holds {} {} elements = {}; it must be exactly 1 or 2 flits "
                    "(32 B or 64 B = {} or {} elements)",
                    mtext(in.out_packet), in.out_packet.size(), name(d),
                    op_bits % tu.bits_per_byte == 0 ? bytes_text(op_bytes)
                                                    : fmt::format("{} bits", op_bits),
                    flit_elements(d), 2 * flit_elements(d)),
        {fmt::format("out packet bytes = {}", op_bytes),
         "fix: pack 1 or 2 stream flits: OutPacket = [Time % PackSize, Packet]"});
  }
  const std::uint64_t k = op_bits / flit_bits; // PackSize

  // 3. Packing pulls the innermost k cells of Time into the packet ([MODEL] k ∤ |Time|).
  const std::uint64_t time_size = in.time.size();
  if (time_size % k != 0) {
    return rule_error(
        "E-OUTER-005", st, "PackedCellsMismatch",
        fmt::format("OutPacket {} packs {} flits, but Time {} has {} flits, not a multiple of {}",
                    mtext(in.out_packet), k, mtext(in.time), time_size, k),
        {fmt::format("pack size = {}", k),
         "fix: use a 32 B OutPacket (PackSize 1) or make |Time| even"});
  }
  const FactorList time_fl = factorize(in.time);
  Result<Split> tsp = split_at(time_fl, k);
  if (!tsp) return std::move(tsp).take_diagnostics();

  // 4. FlitMismatch: the inner flit of OP is the input Packet.
  const std::uint64_t fe = flit_elements(d);
  const FactorList op_fl = factorize(in.out_packet);
  Result<Split> osp = split_at(op_fl, fe);
  if (!osp) return std::move(osp).take_diagnostics();
  const FactorList packet_fl = factorize(in.packet);
  if (!(osp->inner == packet_fl)) {
    return rule_error(
        "E-OUTER-004", st, "FlitMismatch",
        fmt::format("the inner flit of OutPacket {} is {} ({} elements), but the input Packet is "
                    "{}",
                    mtext(in.out_packet), ftext(osp->inner), fe, mtext(in.packet)),
        {fmt::format("inner flit = {}, packet = {}", ftext(osp->inner), ftext(packet_fl)),
         fmt::format("fix: OutPacket = [Time % {}, Packet] = {}", k,
                     ftext(pair(tsp->inner, packet_fl)))});
  }

  // 5. PackedCellsMismatch: the outer part of OP is the innermost k cells of Time.
  if (!(osp->outer == tsp->inner)) {
    return rule_error(
        "E-OUTER-005", st, "PackedCellsMismatch",
        fmt::format("OutPacket {} packs {} above its inner flit, but the innermost {} cells of "
                    "Time {} are {}",
                    mtext(in.out_packet), ftext(osp->outer), k, mtext(in.time), ftext(tsp->inner)),
        {fmt::format("pack size = {}", k), fmt::format("fix: OutPacket = [Time % {}, Packet] = {}",
                                                       k, ftext(pair(tsp->inner, packet_fl)))});
  }

  // 6. TimeIndivisible
  const std::uint64_t t_out_size = tsp->outer.size();
  const std::uint64_t ot_size = in.out_time.size();
  if (ot_size % t_out_size != 0) {
    return rule_error(
        "E-OUTER-006", st, "TimeIndivisible",
        fmt::format("OutTime {} has {} steps, not a multiple of the {} packed steps of Time {}",
                    mtext(in.out_time), ot_size, t_out_size, mtext(in.time)),
        {fmt::format("|OutTime| = {}, |Time / PackSize| = {}", ot_size, t_out_size),
         fmt::format("fix: OutTime = [{}, broadcast axes]", render_text(tsp->outer))});
  }
  const std::uint64_t tb = ot_size / t_out_size;

  // 7. OutTimeMismatch: OT = [Time / PackSize, TimeBroadcast], broadcasts innermost.
  const FactorList ot_fl = factorize(in.out_time);
  Result<Split> otsp = split_at(ot_fl, tb);
  if (!otsp) return std::move(otsp).take_diagnostics();
  if (!(otsp->outer == tsp->outer)) {
    return rule_error(
        "E-OUTER-007", st, "OutTimeMismatch",
        fmt::format("OutTime {} must be [packed Time, broadcast] with the {} broadcast steps "
                    "innermost: its outer part is {} but the packed Time is {}",
                    mtext(in.out_time), tb, ftext(otsp->outer), ftext(tsp->outer)),
        {fmt::format("time broadcast size = {}", tb),
         fmt::format("fix: OutTime = [{}, broadcast axes] (stream axes keep their order, "
                     "broadcast axes go innermost)",
                     render_text(tsp->outer))});
  }

  // [PROP] LaneAxisReused: the stream is replicated to every lane, so it cannot vary with Lane.
  const FactorList lane_fl = factorize(in.lane);
  struct Named {
    const char* label;
    const FactorList* list;
    const Mapping* m;
  };
  const Named others[] = {{"Time", &time_fl, &in.time},
                          {"Packet", &packet_fl, &in.packet},
                          {"OutTime", &ot_fl, &in.out_time},
                          {"OutPacket", &op_fl, &in.out_packet}};
  for (const Named& o : others) {
    Factor f;
    if (lists_overlap(lane_fl, *o.list, &f)) {
      return rule_error(
          "E-OUTER-008", st, "LaneAxisReused",
          fmt::format("Lane {} uses {}, which also appears in {} {}; the stream is broadcast to "
                      "every lane, so lanes cannot select different stream data",
                      mtext(in.lane), digit_text(f), o.label, mtext(*o.m)),
          {"fix: the lane axis must be an output axis that only the TRF operand varies with"});
    }
  }

  // [PROP] TimeBroadcastInStream: broadcast factors are axes absent from the stream (§5.1: TRF
  // Element axes or pure output axes). A broadcast digit of a stream axis would give the output
  // a coordinate of that axis the stream cell does not hold.
  {
    Factor f;
    const bool in_time = lists_share_axis(otsp->inner, time_fl, &f);
    if (in_time || lists_share_axis(otsp->inner, packet_fl, &f)) {
      return rule_error(
          "E-OUTER-009", st, "TimeBroadcastInStream",
          fmt::format("the time broadcast {} of OutTime {} (its innermost {} steps) uses {}, an "
                      "axis of the stream {} {}; broadcast axes must be absent from the stream",
                      ftext(otsp->inner), mtext(in.out_time), tb, digit_text(f),
                      in_time ? "Time" : "Packet", in_time ? mtext(in.time) : mtext(in.packet)),
          {fmt::format("time broadcast = {}", ftext(otsp->inner)),
           "fix: keep every stream digit in the packed part of OutTime ([Time / PackSize] in "
           "order) and broadcast only over TRF or output axes"});
    }
  }

  StreamAdapterDerived out;
  out.pack_size = k;
  out.time_broadcast_size = tb;
  out.time_broadcast = render(otsp->inner);
  out.lane_broadcast = lanes;
  out.packed_time = render(tsp->inner);
  out.time_outer = render(tsp->outer);
  out.out_packet_bytes = op_bytes;
  return out;
}

} // namespace tujit::ir::verify

// Lane Folder verifier (spec/contraction.md §8; buffer capacity §7; InnerTime mapping.md §7.5).
#include "ir/verify/contract_lane.h"

#include "ir/mapping/divide.h"
#include "ir/mapping/factor.h"
#include "ir/target/rngd.h"
#include "ir/verify/contract_time.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

namespace tujit::ir::verify {

namespace {

constexpr const char* kStage = "contract_lane";

std::string mtext(const Mapping& m) {
  return "m![" + m.to_string() + "]";
}
std::string mtext(const FactorList& l) {
  return "m![" + render_text(l) + "]";
}

// Products of mapping sizes saturate instead of wrapping, so a huge Lane cannot wrap past the
// buffer check.
std::uint64_t mul_sat(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<std::uint64_t>::max() : r;
}

// `[Lane # 8]` as text, or why it does not exist.
std::string lane_padded_text(const Mapping& lane, std::uint64_t bus) {
  Result<FactorList> p = padding(factorize(lane), bus, PaddingKind::Top);
  return p ? mtext(*p)
           : fmt::format("(none: Lane {} has {} > {} cells)", mtext(lane), lane.size(), bus);
}

} // namespace

DerivedTable ContractLaneDerived::to_table() const {
  DerivedTable t;
  t["mode"] = std::string(to_string(mode));
  t["inner_time"] = inner_time;
  t["padded_lane"] = padded_lane;
  t["padded_packet"] = padded_packet;
  t["slot_capacity"] = slot_capacity;
  t["accumulator_cells"] = accumulator_cells;
  t["output_flits"] = output_flits;
  t["flits_per_slot"] = flits_per_slot;
  t["drain_flits"] = drain_flits;
  return t;
}

Result<ContractLaneDerived> verify_contract_lane(const ContractLaneInput& in) {
  const auto& hw = target::kRngd;
  const bool interleaved = in.mode == LaneMode::Interleaved;
  const std::string mode(to_string(in.mode));
  const std::uint64_t bus = hw.output_bus_elements;
  const std::uint64_t p2_size = in.p2.size();
  const std::uint64_t lane_size = in.lane.size();

  // Rule 1.
  if (p2_size > hw.accumulator_columns) {
    return rule_error("E-LANE-001", kStage, "PacketTooWide",
                      fmt::format("the packet {} reaching the Lane Folder has {} columns, but "
                                  "the accumulator has only {}",
                                  mtext(in.p2), p2_size, hw.accumulator_columns),
                      {"reduce the packet to at most 32 columns in contract_packet"});
  }
  // Rule 2.
  if (in.p3.size() != bus) {
    return rule_error(
        "E-LANE-002", kStage, "OutPacketSize",
        fmt::format("OutPacket {} has {} elements, but the Lane Folder emits flits of exactly {} "
                    "elements (32 B of i32/f32)",
                    mtext(in.p3), in.p3.size(), bus),
        {interleaved ? "Interleaved: OutPacket = [Lane # 8] = " + lane_padded_text(in.lane, bus)
                     : std::string("Sequential: OutPacket = the inner 8 cells of the packet "
                                   "padded to a multiple of 8")});
  }

  const FactorList lane = factorize(in.lane);
  const FactorList p2 = factorize(in.p2);
  const FactorList p3 = factorize(in.p3);
  const FactorList t2 = factorize(in.t2);
  const FactorList t3 = factorize(in.t3);

  // Rule 3: the output packet, and F = the folded part that must sit innermost in OutTime.
  FactorList folded; // F
  std::uint64_t packet_outer = 1;
  if (interleaved) {
    Result<FactorList> expected = padding(lane, bus, PaddingKind::Top);
    if (!expected || !(*expected == p3)) {
      return rule_error(
          "E-LANE-003", kStage, "OutPacketMismatch",
          fmt::format("Interleaved: OutPacket {} must be Lane padded to {} elements, {}",
                      mtext(in.p3), bus,
                      expected ? mtext(*expected)
                               : fmt::format("but Lane {} has {} > {} cells", mtext(in.lane),
                                             lane_size, bus)),
          {fmt::format("expected: {}, got: {}", lane_padded_text(in.lane, bus), mtext(p3))});
    }
    folded = p2;
  } else {
    Result<FactorList> padded = padding(p2, align_up(p2_size, bus), PaddingKind::Top);
    Result<Split> s = padded ? split_at(*padded, bus) : Result<Split>(padded.diagnostics());
    if (!s) return std::move(s).take_diagnostics(); // unreachable: 8 | align_up(|P2|, 8)
    if (!(s->inner == p3)) {
      return rule_error(
          "E-LANE-003", kStage, "OutPacketMismatch",
          fmt::format("Sequential: OutPacket {} must be the inner {} cells of the packet padded "
                      "to a multiple of {}, {}",
                      mtext(in.p3), bus, bus, mtext(s->inner)),
          {fmt::format("packet: {}, padded: {}", mtext(in.p2), mtext(*padded)),
           fmt::format("expected: {}, got: {}", mtext(s->inner), mtext(p3))});
    }
    packet_outer = s->outer.size();
    folded = pair(lane, s->outer);
  }

  // Rule 4: OutTime = [outer, F] with F innermost.
  const std::uint64_t f_size = folded.size();
  const std::string f_what = interleaved ? "the packet" : "[Lane, packet / 8]";
  if (t3.size() % f_size != 0) {
    return rule_error(
        "E-LANE-004", kStage, "OutTimeMismatch",
        fmt::format("{}: OutTime {} must end with {} {}, but its size {} is not a multiple of {}",
                    mode, mtext(in.t3), f_what, mtext(folded), t3.size(), f_size),
        {interleaved ? "Interleaved: OutTime = [Time, Packet]"
                     : "Sequential: OutTime = [Time, Lane, packet / 8]"});
  }
  Result<Split> ts = split_at(t3, f_size);
  if (!ts) return std::move(ts).take_diagnostics(); // unreachable: size checked above
  if (!(ts->inner == folded)) {
    return rule_error("E-LANE-004", kStage, "OutTimeMismatch",
                      fmt::format("{}: the inner {} positions of OutTime {} must be {} {}, got {}",
                                  mode, f_size, mtext(in.t3), f_what, mtext(folded),
                                  mtext(ts->inner)),
                      {interleaved ? "Interleaved: OutTime = [Time, Packet]"
                                   : "Sequential: OutTime = [Time, Lane, packet / 8]"});
  }
  // Rule 5: the Lane Folder sums nothing, so the rest of OutTime is the reduced Time.
  if (!(ts->outer == t2)) {
    return rule_error("E-LANE-005", kStage, "OuterTimeMismatch",
                      fmt::format("{}: the outer part {} of OutTime {} must be the Time {} left by "
                                  "contract_time (the Lane Folder sums nothing)",
                                  mode, mtext(ts->outer), mtext(in.t3), mtext(in.t2)),
                      {fmt::format("expected: {}, got: {}", mtext(t2), mtext(ts->outer))});
  }
  // Rule 6: the remembered pre-reduce time divides by Time.
  const FactorList pre = factorize(in.pre_reduce_time);
  Result<std::vector<DivideTerm>> terms = divide_exact(pre, t2);
  if (!terms) {
    return rule_error(
        "E-LANE-006", kStage, "InconsistentReduceTime",
        fmt::format("{}: Time {} is not the pre-reduce Time {} with some factors summed: {}", mode,
                    mtext(in.t2), mtext(in.pre_reduce_time),
                    terms.diagnostics().empty() ? std::string("division failed")
                                                : terms.diagnostics().front().message),
        {"the pre-reduce time is the OutTime of contract_outer"});
  }

  // Rule 7: one slot = one [Lane, P2] chunk; the mode pads one side (Interleaved: Lane to the
  // 8-wide bus; Sequential: P2 to the 32 accumulator columns).
  ContractLaneDerived out;
  out.mode = in.mode;
  out.inner_time = inner_time_from_reduced(divide_relaxed(pre, t2), t2.size());
  out.padded_lane = interleaved ? align_up(lane_size, bus) : lane_size;
  out.padded_packet = interleaved ? p2_size : align_up(p2_size, hw.accumulator_columns);
  out.slot_capacity = hw.accumulator_cells / mul_sat(out.padded_lane, out.padded_packet);
  out.accumulator_cells = mul_sat(mul_sat(out.padded_lane, out.inner_time), out.padded_packet);
  out.output_flits = t3.size();
  out.flits_per_slot = interleaved ? p2_size : mul_sat(lane_size, packet_outer);
  out.drain_flits = std::max<std::uint64_t>(1, mul_sat(out.inner_time, out.flits_per_slot));
  if (out.accumulator_cells > hw.accumulator_cells) {
    return rule_error(
        "E-LANE-007", kStage, "BufferExceeded",
        fmt::format("{}: the accumulator overflows: Lane {} * InnerTime {} * packet {} = {} cells "
                    "exceed the {}-cell accumulator",
                    mode, out.padded_lane, out.inner_time, out.padded_packet, out.accumulator_cells,
                    hw.accumulator_cells),
        {fmt::format("InnerTime {} = slots kept open while the outermost reduced factor of {} "
                     "iterates (Time {})",
                     out.inner_time, mtext(in.pre_reduce_time), mtext(in.t2)),
         fmt::format("slot capacity: {} slots of {} cells", out.slot_capacity,
                     mul_sat(out.padded_lane, out.padded_packet)),
         "put the summed factor further inside contract_outer's OutTime (fewer slots open at "
         "once), or use fewer lanes (Sequential) or a narrower packet (Interleaved)"});
  }
  return out;
}

} // namespace tujit::ir::verify

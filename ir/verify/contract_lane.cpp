// Lane Folder verifier (docs/contraction.md §8; buffer capacity §7; InnerTime docs/mapping.md
// §7.5).
#include "ir/verify/contract_lane.h"
#include "ir/mapping/mapping_text.h"

#include "ir/mapping/divide.h"
#include "ir/mapping/factor.h"
#include "ir/target/rngd.h"
#include "ir/verify/contract_time.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

namespace tujit::ir::verify {

namespace {

constexpr const char* kStage = "contract_lane";

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

namespace {

const target::TensorUnitDescription& hw = target::kRngd;

bool is_interleaved(const ContractLaneInput& in) {
  return in.mode == LaneMode::Interleaved;
}

// Rules 1 and 2: the packet fits the accumulator's columns, the output packet is one bus flit.
std::optional<Diagnostic> check_sizes(const ContractLaneInput& in) {
  const std::uint64_t bus = hw.output_bus_elements;
  if (in.p2.size() > hw.accumulator_columns) {
    return rule_error("E-LANE-001", kStage, "PacketTooWide",
                      fmt::format("the packet {} reaching the Lane Folder has {} columns, but "
                                  "the accumulator has only {}",
                                  mtext(in.p2), in.p2.size(), hw.accumulator_columns),
                      {"reduce the packet to at most 32 columns in contract_packet"});
  }
  if (in.p3.size() == bus) return std::nullopt;
  return rule_error(
      "E-LANE-002", kStage, "OutPacketSize",
      fmt::format("OutPacket {} has {} elements, but the Lane Folder emits flits of exactly {} "
                  "elements (32 B of i32/f32)",
                  mtext(in.p3), in.p3.size(), bus),
      {is_interleaved(in)
           ? "Interleaved: OutPacket = [Lane # 8] = " + lane_padded_text(in.lane, bus)
           : std::string("Sequential: OutPacket = the inner 8 cells of the packet "
                         "padded to a multiple of 8")});
}

// What the Lane Folder moves into OutTime: F = P2 (Interleaved) or [Lane, P2′ / 8] (Sequential),
// and the flits of one lane packet.
struct Folded {
  FactorList f;
  std::uint64_t packet_outer = 1;
};

// Rule 3: the output packet, and F.
Result<Folded> fold(const ContractLaneInput& in, const FactorList& lane, const FactorList& p2,
                    const FactorList& p3) {
  const std::uint64_t bus = hw.output_bus_elements;
  if (is_interleaved(in)) {
    Result<FactorList> expected = padding(lane, bus, PaddingKind::Top);
    if (expected && *expected == p3) return Folded{p2, 1};
    return rule_error(
        "E-LANE-003", kStage, "OutPacketMismatch",
        fmt::format("Interleaved: OutPacket {} must be Lane padded to {} elements, {}",
                    mtext(in.p3), bus,
                    expected ? mtext(*expected)
                             : fmt::format("but Lane {} has {} > {} cells", mtext(in.lane),
                                           in.lane.size(), bus)),
        {fmt::format("expected: {}, got: {}", lane_padded_text(in.lane, bus), mtext(p3))});
  }
  Result<FactorList> padded = padding(p2, align_up(in.p2.size(), bus), PaddingKind::Top);
  Result<Split> s = padded ? split_at(*padded, bus) : Result<Split>(padded.diagnostics());
  if (!s) return std::move(s).take_diagnostics(); // unreachable: 8 | align_up(|P2|, 8)
  if (s->inner == p3) return Folded{pair(lane, s->outer), s->outer.size()};
  return rule_error(
      "E-LANE-003", kStage, "OutPacketMismatch",
      fmt::format("Sequential: OutPacket {} must be the inner {} cells of the packet padded "
                  "to a multiple of {}, {}",
                  mtext(in.p3), bus, bus, mtext(s->inner)),
      {fmt::format("packet: {}, padded: {}", mtext(in.p2), mtext(*padded)),
       fmt::format("expected: {}, got: {}", mtext(s->inner), mtext(p3))});
}

// Rules 4 and 5: OutTime = [T2, F] with F innermost; the Lane Folder sums nothing.
std::optional<Diagnostics> check_out_time(const ContractLaneInput& in, const FactorList& folded,
                                          const FactorList& t2, const FactorList& t3) {
  const std::string mode(to_string(in.mode));
  const std::uint64_t f_size = folded.size();
  const std::string f_what = is_interleaved(in) ? "the packet" : "[Lane, packet / 8]";
  const std::string form = is_interleaved(in) ? "Interleaved: OutTime = [Time, Packet]"
                                              : "Sequential: OutTime = [Time, Lane, packet / 8]";
  if (t3.size() % f_size != 0) {
    return Diagnostics{rule_error(
        "E-LANE-004", kStage, "OutTimeMismatch",
        fmt::format("{}: OutTime {} must end with {} {}, but its size {} is not a multiple of {}",
                    mode, mtext(in.t3), f_what, mtext(folded), t3.size(), f_size),
        {form})};
  }
  Result<Split> ts = split_at(t3, f_size);
  if (!ts) return std::move(ts).take_diagnostics(); // unreachable: size checked above
  if (!(ts->inner == folded)) {
    return Diagnostics{
        rule_error("E-LANE-004", kStage, "OutTimeMismatch",
                   fmt::format("{}: the inner {} positions of OutTime {} must be {} {}, got {}",
                               mode, f_size, mtext(in.t3), f_what, mtext(folded), mtext(ts->inner)),
                   {form})};
  }
  if (ts->outer == t2) return std::nullopt;
  return Diagnostics{
      rule_error("E-LANE-005", kStage, "OuterTimeMismatch",
                 fmt::format("{}: the outer part {} of OutTime {} must be the Time {} left by "
                             "contract_time (the Lane Folder sums nothing)",
                             mode, mtext(ts->outer), mtext(in.t3), mtext(in.t2)),
                 {fmt::format("expected: {}, got: {}", mtext(t2), mtext(ts->outer))})};
}

// Rule 6: the remembered pre-reduce time divides by Time.
std::optional<Diagnostic> check_pre_reduce(const ContractLaneInput& in, const FactorList& pre,
                                           const FactorList& t2) {
  Result<std::vector<DivideTerm>> terms = divide_exact(pre, t2);
  if (terms) return std::nullopt;
  return rule_error(
      "E-LANE-006", kStage, "InconsistentReduceTime",
      fmt::format("{}: Time {} is not the pre-reduce Time {} with some factors summed: {}",
                  to_string(in.mode), mtext(in.t2), mtext(in.pre_reduce_time),
                  terms.diagnostics().empty() ? std::string("division failed")
                                              : terms.diagnostics().front().message),
      {"the pre-reduce time is the OutTime of contract_outer"});
}

// Rule 7: one slot is one [Lane, P2] chunk; the mode pads one side (Interleaved: Lane to the
// 8-wide bus; Sequential: P2 to the 32 accumulator columns). The slots of one slot group must
// fit the accumulator.
Result<ContractLaneDerived> check_buffer(const ContractLaneInput& in, const FactorList& pre,
                                         const FactorList& t2, std::uint64_t output_flits,
                                         std::uint64_t packet_outer) {
  const bool interleaved = is_interleaved(in);
  const std::uint64_t bus = hw.output_bus_elements;
  const std::uint64_t p2_size = in.p2.size();
  const std::uint64_t lane_size = in.lane.size();
  ContractLaneDerived out;
  out.mode = in.mode;
  out.inner_time = inner_time_from_reduced(divide_relaxed(pre, t2), t2.size());
  out.padded_lane = interleaved ? align_up(lane_size, bus) : lane_size;
  out.padded_packet = interleaved ? p2_size : align_up(p2_size, hw.accumulator_columns);
  out.slot_capacity = hw.accumulator_cells / mul_sat(out.padded_lane, out.padded_packet);
  out.accumulator_cells = mul_sat(mul_sat(out.padded_lane, out.inner_time), out.padded_packet);
  out.output_flits = output_flits;
  out.flits_per_slot = interleaved ? p2_size : mul_sat(lane_size, packet_outer);
  out.drain_flits = std::max<std::uint64_t>(1, mul_sat(out.inner_time, out.flits_per_slot));
  if (out.accumulator_cells <= hw.accumulator_cells) return out;
  return rule_error(
      "E-LANE-007", kStage, "BufferExceeded",
      fmt::format("{}: the accumulator overflows: Lane {} * InnerTime {} * packet {} = {} cells "
                  "exceed the {}-cell accumulator",
                  to_string(in.mode), out.padded_lane, out.inner_time, out.padded_packet,
                  out.accumulator_cells, hw.accumulator_cells),
      {fmt::format("InnerTime {} = slots kept open while the outermost reduced factor of {} "
                   "iterates (Time {})",
                   out.inner_time, mtext(in.pre_reduce_time), mtext(in.t2)),
       fmt::format("slot capacity: {} slots of {} cells", out.slot_capacity,
                   mul_sat(out.padded_lane, out.padded_packet)),
       "put the summed factor further inside contract_outer's OutTime (fewer slots open at "
       "once), or use fewer lanes (Sequential) or a narrower packet (Interleaved)"});
}

} // namespace

ContractLaneInput contract_lane_input(const TensorType& in, const TensorType& out, LaneMode mode) {
  ContractLaneInput ci;
  ci.mode = mode;
  ci.lane = in.mapping(Slot::Lane);
  ci.t2 = in.mapping(Slot::Time);
  ci.p2 = in.mapping(Slot::Packet);
  ci.t3 = out.mapping(Slot::Time);
  ci.p3 = out.mapping(Slot::Packet);
  ci.pre_reduce_time = in.pre_time ? in.pre_time->mapping : ci.t2;
  return ci;
}

Result<ContractLaneDerived> verify_contract_lane(const ContractLaneInput& in) {
  if (auto d = check_sizes(in)) return *d;
  const FactorList lane = factorize(in.lane);
  const FactorList p2 = factorize(in.p2);
  const FactorList t2 = factorize(in.t2);
  const FactorList t3 = factorize(in.t3);
  Result<Folded> folded = fold(in, lane, p2, factorize(in.p3));
  if (!folded) return std::move(folded).take_diagnostics();
  if (auto ds = check_out_time(in, folded->f, t2, t3)) return std::move(*ds);
  const FactorList pre = factorize(in.pre_reduce_time);
  if (auto d = check_pre_reduce(in, pre, t2)) return *d;
  return check_buffer(in, pre, t2, t3.size(), folded->packet_outer);
}

} // namespace tujit::ir::verify

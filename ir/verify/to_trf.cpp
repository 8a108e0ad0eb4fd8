#include "ir/verify/to_trf.h"

#include "ir/verify/trf_storage.h"

#include "ir/mapping/factor.h"
#include "ir/target/rngd.h"
#include "ir/verify/hardware_limits.h"
#include "ir/verify/outer_util.h"

#include <fmt/format.h>

#include <optional>
#include <string>

namespace tujit::ir::verify {

using namespace outer_detail;

namespace {
constexpr std::string_view kStage = "to_trf";
const target::TensorUnitDescription& tu = target::kRngd;
} // namespace

std::string_view to_string(TrfAddressMode m) {
  switch (m) {
  case TrfAddressMode::Full:
    return "full";
  case TrfAddressMode::FirstHalf:
    return "first_half";
  case TrfAddressMode::SecondHalf:
    return "second_half";
  }
  return "full";
}

DerivedTable ToTrfDerived::to_table() const {
  DerivedTable t{
      {"lanes", lanes},
      {"flits_per_lane", flits_per_lane},
      {"bytes_per_lane", bytes_per_lane},
      {"total_bytes", total_bytes},
      {"rows_per_lane", rows_per_lane},
      {"row_capacity_per_lane", row_capacity_per_lane},
      {"address_mode", std::string(to_string(address_mode))},
      {"fits_half", fits_half},
      {"time_outer", time_outer},
      {"time_inner", time_inner},
  };
  add_trf_storage(t, element);
  return t;
}

namespace {

// Precondition: a Collect stream carries exactly one 32 B flit per step (docs/contraction.md §3).
std::optional<Diagnostic> check_one_flit(const ToTrfInput& in) {
  const ScalarType d = in.dtype;
  if (whole_bytes(d, in.packet.size()) && bytes_of(d, in.packet.size()) == tu.flit_bytes)
    return std::nullopt;
  return rule_error(
      "E-TRF-006", std::string(kStage), "PacketNotOneFlit",
      fmt::format("to_trf reads a Collect stream, whose Packet is one {} B flit, but Packet {} "
                  "holds {} {} elements = {} bits",
                  tu.flit_bytes, mtext(in.packet), in.packet.size(), name(d),
                  total_bits(d, in.packet.size())),
      {"fix: collect the stream first (collect pads and splits the packet into 32 B flits)"});
}

// Where the tensor goes ([MODEL] docs/contraction.md §4.1, [PROP] §4.2): the 64 B rows one lane
// uses, and the region. Fewer active lanes see proportionally more rows; halves see half of them.
void place_in_trf(ToTrfDerived& out) {
  const std::uint64_t row_bytes = std::uint64_t{tu.trf_row_payload_bytes} * tu.trf_banks;
  out.rows_per_lane = align_up(out.bytes_per_lane, row_bytes) / row_bytes;
  const std::uint64_t full_rows = std::uint64_t{tu.trf_rows} * tu.lanes / out.lanes;
  out.fits_half = 2 * out.total_bytes <= tu.trf_capacity_bytes;
  out.address_mode = out.fits_half ? TrfAddressMode::FirstHalf : TrfAddressMode::Full;
  out.row_capacity_per_lane = out.fits_half ? full_rows / 2 : full_rows;
}

} // namespace

Result<ToTrfDerived> verify_to_trf(const ToTrfInput& in) {
  const ScalarType d = in.dtype;
  const std::string st(kStage);

  if (auto e = check_one_flit(in)) return *e;

  // 1. LaneSize
  const std::uint64_t lanes = in.lane.size();
  if (!target::is_valid_lane_size(lanes)) {
    return rule_error("E-TRF-001", st, "LaneSize",
                      fmt::format("Lane {} has {} lanes; the TRF has 1, 2, 4 or 8 active lanes",
                                  mtext(in.lane), lanes),
                      {fmt::format("Lane::SIZE = {}", lanes),
                       "fix: pad the lane mapping to a power of two up to 8, e.g. `X # 4`"});
  }

  // 2. ExceedsCapacity (the reference checks the total; equivalent to 64 KiB / |Lane| per lane)
  const std::uint64_t per_lane_bits = total_bits(d, in.element.size());
  const std::uint64_t per_lane = per_lane_bits / tu.bits_per_byte;
  const std::uint64_t total = sat_mul(lanes, per_lane);
  if (!fits_trf(d, lanes, in.element.size())) {
    return rule_error(
        "E-TRF-002", st, "ExceedsCapacity",
        fmt::format("TRF data does not fit: {} lanes × {} per lane (Element {} of {}) = {} > "
                    "capacity {}",
                    lanes, bytes_text(per_lane), mtext(in.element), name(d), bytes_text(total),
                    bytes_text(tu.trf_capacity_bytes)),
        {fmt::format("total_bytes = {}, lanes = {}, per_lane_bytes = {}, capacity = {}", total,
                     lanes, per_lane, tu.trf_capacity_bytes),
         "fix: tile the weight so that one slice's share is at most 64 KiB (8 KiB per lane at 8 "
         "lanes)"});
  }

  // 3. LaneDoesNotDivideTime
  const std::uint64_t time_size = in.time.size();
  if (time_size % lanes != 0) {
    return rule_error(
        "E-TRF-003", st, "LaneDoesNotDivideTime",
        fmt::format("the {} flits of Time {} cannot be dealt evenly to the {} lanes of {}",
                    time_size, mtext(in.time), lanes, mtext(in.lane)),
        {fmt::format("lane = {}, time = {}", lanes, time_size),
         "fix: Lane must be the outer part of Time, so |Lane| must divide |Time|"});
  }
  const std::uint64_t fpl = time_size / lanes;

  // 4. LaneMismatch: flit f goes to lane f / FPL, so Lane ≡ split(Time, FPL).outer.
  const FactorList time_fl = factorize(in.time);
  Result<Split> sp = split_at(time_fl, fpl);
  if (!sp) return std::move(sp).take_diagnostics();
  const FactorList lane_fl = factorize(in.lane);
  if (!(sp->outer == lane_fl)) {
    return rule_error(
        "E-TRF-004", st, "LaneMismatch",
        fmt::format("Lane {} is not the outer part of Time {}: with {} flits per lane the lanes "
                    "receive {}",
                    mtext(in.lane), mtext(in.time), fpl, ftext(sp->outer)),
        {fmt::format("time_outer = {}, lane = {}", ftext(sp->outer), ftext(lane_fl)),
         fmt::format("fix: declare Lane = {}, or reorder Time so that the lane axis is outermost",
                     ftext(sp->outer))});
  }

  // 5. ElementMismatch: Element ≡ [Time % FPL, Packet].
  const FactorList expected = pair(sp->inner, factorize(in.packet));
  const FactorList element_fl = factorize(in.element);
  if (!(expected == element_fl)) {
    return rule_error(
        "E-TRF-005", st, "ElementMismatch",
        fmt::format("Element {} is not [inner Time, Packet] = {} (each lane stores its {} flits "
                    "in Time order, then the packet cells)",
                    mtext(in.element), ftext(expected), fpl),
        {fmt::format("expected = {}, got = {}", ftext(expected), ftext(element_fl)),
         fmt::format("fix: declare Element = {}", ftext(expected))});
  }

  ToTrfDerived out;
  out.lanes = lanes;
  out.element = d;
  out.flits_per_lane = fpl;
  out.bytes_per_lane = per_lane;
  out.total_bytes = total;
  place_in_trf(out);
  out.time_outer = render(sp->outer);
  out.time_inner = render(sp->inner);
  return out;
}

} // namespace tujit::ir::verify

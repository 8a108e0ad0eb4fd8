#include "ir/verify/collect.h"

#include "ir/mapping/factor.h"
#include "ir/target/rngd.h"
#include "ir/verify/outer_util.h"

#include <fmt/format.h>

namespace tujit::ir::verify {

using namespace outer_detail;

namespace {
// Fetch and Switch move packets as whole 8 B DM words (docs/datapath.md §5: the 8 B alignment is
// checked at Switch/Collect on the post-cast type).
constexpr std::uint64_t kPacketAlignBytes = target::kRngd.packet_align_bytes;
} // namespace

DerivedTable CollectDerived::to_table() const {
  return DerivedTable{{"packet_bytes", packet_bytes},  {"flits_per_packet", flits_per_packet},
                      {"pad_bytes", pad_bytes},        {"flit_elements", flit_elements},
                      {"out_time", expected_out_time}, {"out_packet", expected_out_packet}};
}

Result<CollectDerived> verify_collect(const CollectInput& in) {
  const target::TensorUnitDescription& tu = target::kRngd;
  const ScalarType d = in.dtype;
  const std::string st = "collect";

  const std::uint64_t in_bits = total_bits(d, in.packet.size());
  if (in_bits % (kPacketAlignBytes * tu.bits_per_byte) != 0) {
    return rule_error(
        "E-COLLECT-004", st, "InputPacketNotAligned",
        fmt::format("the input Packet {} holds {} {} elements = {} bits, not a whole number of "
                    "{} B words",
                    mtext(in.packet), in.packet.size(), name(d), in_bits, kPacketAlignBytes),
        {fmt::format("packet bits = {}, required multiple of {} bits", in_bits,
                     kPacketAlignBytes * tu.bits_per_byte),
         "fix: pad the packet in the fetch (e.g. `X # n`) to a multiple of 8 bytes"});
  }
  const std::uint64_t packet_bytes = in_bits / tu.bits_per_byte;
  const std::uint64_t aligned = align_up(packet_bytes, tu.flit_bytes);
  const std::uint64_t fe = flit_elements(d);

  // 1. OutputNotOneFlit
  const std::uint64_t out_bits = total_bits(d, in.out_packet.size());
  if (out_bits != std::uint64_t{tu.flit_bytes} * tu.bits_per_byte) {
    return rule_error(
        "E-COLLECT-001", st, "OutputNotOneFlit",
        fmt::format("the output Packet {} holds {} {} elements = {} bits; Collect emits exactly "
                    "one 32 B flit = {} elements",
                    mtext(in.out_packet), in.out_packet.size(), name(d), out_bits, fe),
        {fmt::format("fix: declare a Packet2 of {} elements", fe)});
  }

  // Pad to whole flits (Top padding), then split at one flit.
  const FactorList packet_fl = factorize(in.packet);
  Result<FactorList> padded =
      padding(packet_fl, aligned * tu.bits_per_byte / wire_bits(d), PaddingKind::Top);
  if (!padded) return std::move(padded).take_diagnostics();
  Result<Split> sp = split_at(*padded, fe);
  if (!sp) return std::move(sp).take_diagnostics();

  // 2. PacketMismatch
  const FactorList out_packet_fl = factorize(in.out_packet);
  if (!(sp->inner == out_packet_fl)) {
    return rule_error(
        "E-COLLECT-002", st, "PacketMismatch",
        fmt::format("the output Packet {} is not the innermost flit {} of the input Packet {} "
                    "padded to {}",
                    mtext(in.out_packet), ftext(sp->inner), mtext(in.packet), bytes_text(aligned)),
        {fmt::format("expected = {}, got = {}", ftext(sp->inner), ftext(out_packet_fl)),
         fmt::format("fix: declare Packet2 = {}", ftext(sp->inner))});
  }

  // 3. TimeMismatch
  const FactorList expected_time = pair(factorize(in.time), sp->outer);
  const FactorList out_time_fl = factorize(in.out_time);
  if (!(expected_time == out_time_fl)) {
    return rule_error(
        "E-COLLECT-003", st, "TimeMismatch",
        fmt::format("the output Time {} is not [Time, outer flits] = {} (each input packet "
                    "becomes {} consecutive flits)",
                    mtext(in.out_time), ftext(expected_time), aligned / tu.flit_bytes),
        {fmt::format("expected = {}, got = {}", ftext(expected_time), ftext(out_time_fl)),
         fmt::format("fix: declare Time2 = {}", ftext(expected_time))});
  }

  CollectDerived out;
  out.packet_bytes = packet_bytes;
  out.flits_per_packet = aligned / tu.flit_bytes;
  out.pad_bytes = aligned - packet_bytes;
  out.flit_elements = fe;
  out.expected_out_time = render(expected_time);
  out.expected_out_packet = render(sp->inner);
  return out;
}

} // namespace tujit::ir::verify

// Packet Reducer verifier (docs/contraction.md §6).
#include "ir/verify/contract_packet.h"
#include "ir/mapping/mapping_text.h"

#include "ir/target/rngd.h"

#include <bit>
#include <fmt/format.h>

namespace tujit::ir::verify {

namespace {

constexpr const char* kStage = "contract_packet";

// docs/contraction.md §10: the adder tree's latency depends only on the element width.
std::uint32_t tree_latency_for(std::uint32_t bits) {
  const auto& hw = target::kRngd;
  if (bits <= 4) return hw.tree_latency_4bit;
  if (bits <= 8) return hw.tree_latency_8bit;
  return hw.tree_latency_16bit;
}

// Byte count of a bit count, with the half byte an odd number of 4-bit elements leaves.
std::string bytes_text(std::uint64_t bits) {
  return bits % 8 == 0 ? fmt::format("{}", bits / 8) : fmt::format("{}.5", bits / 8);
}

} // namespace

DerivedTable ContractPacketDerived::to_table() const {
  DerivedTable t;
  t["depth"] = std::uint64_t{depth};
  t["group"] = group;
  t["reduce_packet"] = render(reduce_packet);
  t["live_columns"] = live_columns;
  t["out_columns"] = out_columns;
  t["tree_latency"] = std::uint64_t{tree_latency};
  return t;
}

Result<ContractPacketDerived> verify_contract_packet(const ContractPacketInput& in) {
  const auto& hw = target::kRngd;
  const std::uint64_t op_size = in.out_packet.size();
  const std::uint64_t p2_size = in.p2.size();

  // Not a rule of §6: the Multiplier has no MAC for this type (§2.1), so no tree exists.
  if (!is_contraction_operand(in.dtype)) {
    return rule_error("E-PACKET-005", kStage, "NotAContractionOperand",
                      fmt::format("the Packet Reducer only sums products of contraction operands "
                                  "(i4, i5, i8, i9, f8e4m3, f8e5m2, bf16), got element type {}",
                                  name(in.dtype)),
                      {fmt::format("packet: {}", mtext(in.out_packet))});
  }
  const std::uint32_t bits = wire_bits(in.dtype);

  // Rule 1: the input packet is one or two flits (sized in the stream storage type).
  const std::uint64_t op_bits = op_size * bits;
  const std::uint64_t flit_bits = std::uint64_t{hw.flit_bytes} * hw.bits_per_byte;
  const std::uint64_t packet_bits = std::uint64_t{hw.contraction_packet_bytes} * hw.bits_per_byte;
  if (op_bits != flit_bits && op_bits != packet_bits) {
    return rule_error(
        "E-PACKET-001", kStage, "InvalidPacketSize",
        fmt::format("the packet entering contract_packet must be 32 or 64 bytes, but {} holds {} "
                    "{} elements = {} bytes",
                    mtext(in.out_packet), op_size, name(in.dtype), bytes_text(op_bits)),
        {fmt::format("bytes(D, OP) = |OP| * bits(D) / 8 = {} * {} / 8", op_size, bits),
         "the Outer stage emits 32 B (PackSize 1) or 64 B (PackSize 2) packets"});
  }

  // Rule 2: one accumulator column per output cell.
  if (p2_size > hw.accumulator_columns) {
    return rule_error(
        "E-PACKET-002", kStage, "OutPacketTooWide",
        fmt::format("OutPacket {} has {} columns, but the accumulator has only {} columns",
                    mtext(in.p2), p2_size, hw.accumulator_columns),
        {fmt::format("|P2| = {} > {}", p2_size, hw.accumulator_columns),
         "sum more packet cells (a deeper tree) so that at most 32 columns remain"});
  }

  // Rule 3.
  if (!std::has_single_bit(p2_size)) {
    return rule_error(
        "E-PACKET-003", kStage, "OutPacketNotPow2",
        fmt::format("OutPacket {} has {} columns, which is not a power of two", mtext(in.p2),
                    p2_size),
        {"the adder tree halves the packet per level, so |P2| must be 1, 2, 4, 8, 16 or 32; pad "
         "it with `# n` to the next power of two"});
  }

  // Rule 4: find the smallest depth d with strip(split(OP, 2^d).outer) ≡ strip(P2) ([MODEL]:
  // the smallest never folds a padding cell into a live column a shallower tree keeps apart).
  const FactorList op = factorize(in.out_packet);
  const FactorList p2_strip = remove_padding(factorize(in.p2));
  const auto max_depth = static_cast<std::uint32_t>(std::countr_zero(op_size));
  for (std::uint32_t d = 0; d <= max_depth; ++d) {
    const std::uint64_t g = std::uint64_t{1} << d;
    Result<Split> s = split_at(op, g);
    if (!s) continue; // unreachable: 2^d divides |OP| by construction
    const FactorList rp_strip = remove_padding(s->outer);
    if (rp_strip == p2_strip) {
      ContractPacketDerived out;
      out.depth = d;
      out.group = g;
      out.reduce_packet = s->outer;
      out.live_columns = rp_strip.size();
      out.out_columns = p2_size;
      out.tree_latency = tree_latency_for(bits);
      return out;
    }
  }
  return rule_error(
      "E-PACKET-004", kStage, "NotAContraction",
      fmt::format("OutPacket {} is not the packet {} with its innermost 2^d cells summed, for any "
                  "depth d in 0..{}",
                  mtext(in.p2), mtext(in.out_packet), max_depth),
      {fmt::format("OutPacket without outer padding: {}", mtext(p2_strip)),
       "the Packet Reducer only sums adjacent innermost cells: P2 must be split(OP, 2^d).outer "
       "(outer padding may be added or dropped); sum outer digits in contract_time instead"});
}

} // namespace tujit::ir::verify

#include "ir/verify/output_path.h"

#include "ir/datapath/sequencer_derive.h"
#include "ir/mapping/live_coordinates.h"
#include "ir/target/rngd.h"
#include "ir/verify/hardware_limits.h"
#include "ir/verify/outer_util.h"

#include <fmt/format.h>

#include <numeric>

namespace tujit::ir::verify {

using namespace outer_detail;

namespace {

const target::TensorUnitDescription& tu = target::kRngd;

/// The first position p < max(|a|, |b|) at which `a` and `b` disagree on a live element: one holds
/// an element the other lacks at p (out of range or padding), or both hold different ones. Padding
/// against padding agrees. nullopt when they hold the same elements at the same positions.
std::optional<std::uint64_t> first_live_difference(const Mapping& a, const Mapping& b) {
  const std::uint64_t n = std::max(a.size(), b.size());
  for (std::uint64_t p = 0; p < n; ++p) {
    const Cell ca = a.map(p), cb = b.map(p);
    const bool la = ca.kind == Cell::Kind::Index, lb = cb.kind == Cell::Kind::Index;
    if (!la && !lb) continue;
    if (la != lb || !cell_equivalent(ca, cb)) return p;
  }
  return std::nullopt;
}

std::string cell_text(const Mapping& m, std::uint64_t p) {
  if (p >= m.size()) return "nothing (past its end)";
  const Cell c = m.map(p);
  if (c.kind != Cell::Kind::Index) return "padding";
  std::string s;
  for (const auto& [axis, v] : c.index)
    s += fmt::format("{}{} = {}", s.empty() ? "" : ", ", axis, v);
  return s.empty() ? "a broadcast element" : s;
}

} // namespace

DerivedTable CastDerived::to_table() const {
  return {{"elements", elements}, {"in_bytes", in_bytes}, {"out_bytes", out_bytes}};
}

Result<CastDerived> verify_cast(const CastInput& in) {
  constexpr std::string_view kStage = "cast";
  if (!is_cast_engine_cast(in.in, in.out))
    return rule_error("E-CAST-001", std::string(kStage), "CastPair",
                      fmt::format("the Cast Engine cannot turn a stream of {} into {}", name(in.in),
                                  name(in.out)),
                      {explain_cast_engine_refusal(in.in, in.out)});
  const std::uint64_t in_bytes = bytes_of(in.in, in.packet.size());
  if (in_bytes != tu.flit_bytes)
    return rule_error(
        "E-CAST-002", std::string(kStage), "InputNotOneFlit",
        fmt::format("the Cast Engine converts one 32-byte flit, but Packet {} holds {} {} elements "
                    "= {}",
                    mtext(in.packet), in.packet.size(), name(in.in), bytes_text(in_bytes)),
        {"the stream entering the Cast Engine is one flit per Time step (furiosa-opt "
         "docs/src/computing-tensors/cast-engine.md \"Supported Casts\")"});
  const std::uint64_t out_bytes = bytes_of(in.out, in.out_packet.size());
  if (out_bytes != tu.flit_bytes || !whole_bytes(in.out, in.out_packet.size()))
    return rule_error(
        "E-CAST-003", std::string(kStage), "OutputNotOneFlit",
        fmt::format("OutPacket {} holds {} {} elements = {}, but the Cast Engine pads its output "
                    "back to one 32-byte flit",
                    mtext(in.out_packet), in.out_packet.size(), name(in.out),
                    bytes_text(out_bytes)),
        {fmt::format("fix: pad the packet to {} {} elements, e.g. `{} # {}`",
                     tu.flit_bits() / wire_bits(in.out), name(in.out),
                     remove_padding(in.packet).to_string(), tu.flit_bits() / wire_bits(in.out))});
  if (auto p = first_live_difference(in.packet, in.out_packet))
    return rule_error(
        "E-CAST-004", std::string(kStage), "PacketNotRepadded",
        fmt::format("OutPacket {} does not hold the input packet {}'s elements in their places: at "
                    "position {} the input holds {}, OutPacket {}",
                    mtext(in.out_packet), mtext(in.packet), *p, cell_text(in.packet, *p),
                    cell_text(in.out_packet, *p)),
        {"the Cast Engine converts every element in place and re-pads the packet to one flit; it "
         "keeps the Time and the order of the elements (furiosa-opt "
         "docs/src/computing-tensors/cast-engine.md \"Interface\")",
         fmt::format("fix: OutPacket is the input packet without its padding, padded to one flit "
                     "of {}",
                     name(in.out))});
  return CastDerived{live_positions(in.packet), in_bytes, out_bytes};
}

DerivedTable CommitTrimDerived::to_table() const {
  return {{"valid_size", valid_size}, {"valid_bytes", valid_bytes}, {"trimmed", trimmed}};
}

Result<CommitTrimDerived> verify_commit_trim(const CommitTrimInput& in) {
  constexpr std::string_view kStage = "commit";
  const std::uint64_t in_bytes = bytes_of(in.dtype, in.packet.size());
  if (in_bytes != tu.flit_bytes)
    return rule_error(
        "E-COMMIT-001", std::string(kStage), "TrimInputNotOneFlit",
        fmt::format("commit_trim trims one 32-byte flit, but Packet {} holds {} {} elements = {}",
                    mtext(in.packet), in.packet.size(), name(in.dtype), bytes_text(in_bytes)),
        {"every stream that leaves the engines is one flit per Time step (docs/output-path.md "
         "§2.1)"});
  const std::uint64_t valid = in.out_packet.size();
  const std::uint64_t valid_bytes = bytes_of(in.dtype, valid);
  if (!whole_bytes(in.dtype, valid) || valid_bytes == 0 ||
      valid_bytes % tu.packet_align_bytes != 0 || valid_bytes > tu.flit_bytes)
    return rule_error(
        "E-COMMIT-002", std::string(kStage), "TrimSize",
        fmt::format(
            "commit_trim keeps {} {} elements = {} per flit, but the Commit Engine writes 8, "
            "16, 24 or 32 bytes",
            valid, name(in.dtype), bytes_text(valid_bytes)),
        {"D[valid_size] must be 8, 16, 24 or 32 bytes (furiosa-opt "
         "docs/src/computing-tensors/commit-adapter.md \"Trimming\")",
         "fix: keep a multiple of 8 bytes of the packet; trailing padding may stay in OutPacket "
         "(`N # 16` keeps 16 elements)"});
  if (valid > in.packet.size() ||
      first_live_difference(in.packet, in.out_packet).value_or(valid) < valid)
    return rule_error(
        "E-COMMIT-003", std::string(kStage), "TrimNotPrefix",
        fmt::format("OutPacket {} is not the first {} elements of the packet {}",
                    mtext(in.out_packet), valid, mtext(in.packet)),
        {"the trim keeps the leading valid_size elements of every flit and drops the rest "
         "(docs/output-path.md §2.1): OutPacket names what they hold, e.g. `N` for `N # 32`, or "
         "`W = 4` for the first 4 of `W`"});
  return CommitTrimDerived{valid, valid_bytes, in.packet.size() - valid};
}

DerivedTable CommitCastDerived::to_table() const {
  return {{"in_bytes", in_bytes}, {"out_bytes", out_bytes}, {"relu", relu}};
}

Result<CommitCastDerived> verify_commit_cast(const CommitCastInput& in) {
  constexpr std::string_view kStage = "commit";
  if (!is_commit_cast(in.in, in.out))
    return rule_error("E-COMMIT-004", std::string(kStage), "CommitCastPair",
                      fmt::format("the Commit Adapter cannot turn a stream of {} into {}",
                                  name(in.in), name(in.out)),
                      {explain_commit_cast_refusal(in.in, in.out)});
  const std::uint64_t in_bytes = bytes_of(in.in, in.packet.size());
  if (in_bytes != tu.flit_bytes && in_bytes != tu.flit_bytes / 2)
    return rule_error(
        "E-COMMIT-005", std::string(kStage), "CommitCastSize",
        fmt::format(
            "the trimmed packet {} holds {} f32 elements = {}, but the Commit Adapter casts "
            "16 or 32 bytes of f32",
            mtext(in.packet), in.packet.size(), bytes_text(in_bytes)),
        {"docs/scalars.md §5.3: the trimmed packet, counted in f32 bytes, is 16 or 32 bytes",
         "fix: trim to 4 or 8 f32 elements before commit_cast"});
  return CommitCastDerived{in_bytes, bytes_of(in.out, in.packet.size()), in.relu};
}

DerivedTable CommitDerived::to_table() const {
  return {{"sequencer", sequencer.to_string()},
          {"valid_size", valid_size},
          {"access_size", access_size},
          {"write_size", write_size},
          {"writes_per_packet", writes_per_packet},
          {"cycles", cycles},
          {"written", written}};
}

Result<CommitDerived> verify_commit(const CommitInput& in) {
  constexpr std::string_view kStage = "commit";
  if (auto cap = check_dm_capacity(in.dtype, in.element)) return *cap;
  auto d = datapath::derive_sequencer(in.element, in.time, in.packet, datapath::SeqMode::Write);
  if (!d) return std::move(d).take_diagnostics();
  const datapath::SequencerConfig& c = d->config;
  // Every entry but the packet's own contiguous run jumps between packets: its stride must be a
  // whole number of 8-byte words, as the Commit Engine writes whole bank words
  // (furiosa-opt docs/src/moving-tensors/commit-engine.md "Constraints").
  const std::uint64_t word_elements =
      std::max<std::uint64_t>(1, length_from_bytes(wire_bits(in.dtype), tu.dm_bank_word_bytes));
  std::uint64_t inner = 1; // product of the sizes inside the entry: the packet's positions
  for (std::size_t i = c.entries.size(); i-- > 0;) {
    const datapath::SeqEntry& e = c.entries[i];
    const bool packet_entry = inner < c.packet_size;
    inner *= e.size;
    if (packet_entry || e.size == 1 || e.stride % word_elements == 0) continue;
    return rule_error(
        "E-COMMIT-006", std::string(kStage), "StrideNotAligned",
        fmt::format(
            "the Commit Engine's write sequencer {} steps {} {} elements = {} bytes between "
            "packets, not a whole number of 8-byte words",
            c.to_string(), e.stride, name(in.dtype), bytes_of(in.dtype, e.stride)),
        {"every sequencer stride between packets is a multiple of 8 bytes (furiosa-opt "
         "docs/src/moving-tensors/commit-engine.md \"Constraints\")",
         fmt::format("fix: lay the DM Element out so that each packet of {} elements starts on an "
                     "8-byte boundary",
                     c.packet_size)});
  }
  CommitDerived out;
  out.sequencer = c;
  out.valid_size = in.packet.size();
  out.access_size = c.max_access_size;
  // docs/output-path.md §3: write_size = gcd(valid_size, access_size) in the main context; the
  // sub context writes 8 bytes at a time.
  const std::uint64_t sub_write = std::max<std::uint64_t>(
      1, length_from_bytes(wire_bits(in.dtype), tu.sub_context_write_bytes));
  out.write_size = in.context == ContextKind::Sub ? std::min(sub_write, out.valid_size)
                                                  : std::gcd(out.valid_size, out.access_size);
  out.write_size = std::max<std::uint64_t>(1, out.write_size);
  out.writes_per_packet = (out.valid_size + out.write_size - 1) / out.write_size;
  out.cycles = in.time.size() * out.writes_per_packet;
  out.written = d->live_positions;
  return out;
}

} // namespace tujit::ir::verify

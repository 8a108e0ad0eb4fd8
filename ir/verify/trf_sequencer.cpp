#include "ir/verify/trf_sequencer.h"

#include "ir/verify/trf_storage.h"

#include "ir/mapping/divide.h"
#include "ir/mapping/factor.h"
#include "ir/mapping/rewrite.h"
#include "ir/target/rngd.h"
#include "ir/verify/outer_util.h"

#include <fmt/format.h>

#include <map>

namespace tujit::ir::verify {

using namespace outer_detail;

namespace {

const target::TensorUnitDescription& tu = target::kRngd;
const std::string kStage = "contract_outer";

std::uint64_t read_bits_of(ScalarType w, std::uint64_t rs) {
  return rs * wire_bits(w);
}

bool is_wide(ScalarType w, std::uint64_t rs) {
  return read_bits_of(w, rs) > std::uint64_t{tu.trf_narrow_read_bytes} * tu.bits_per_byte;
}

} // namespace

std::string loops_text(const std::vector<TrfLoopEntry>& loops) {
  std::string s = "[";
  for (std::size_t i = 0; i < loops.size(); ++i) {
    if (i > 0) s += ", ";
    s += fmt::format("{}:{}", loops[i].size, loops[i].stride);
  }
  return s + "]";
}

DerivedTable TrfSequencerDerived::to_table() const {
  DerivedTable t{{"read_size", read_size},
                 {"read_bits", read_bits},
                 {"read_width", std::string(wide ? "wide" : "narrow")},
                 {"wide", wide},
                 {"packet_broadcast", packet_broadcast},
                 {"packet_broadcast_size", packet_broadcast_size},
                 {"rows", rows},
                 {"rows_size", rows_size},
                 {"loops", loops_text(loops)},
                 {"loop_entries", static_cast<std::uint64_t>(merged_loops.size())}};
  if (read_bits % tu.bits_per_byte == 0) t.emplace("read_bytes", read_bits / tu.bits_per_byte);
  t["lane_read_bits"] = std::uint64_t{tu.trf_lane_read_bits(wide)};
  add_trf_storage(t, weight);
  return t;
}

std::uint64_t derive_read_size(ScalarType weight, const Mapping& element,
                               const Mapping& out_packet) {
  // maxRS = 64 B · 8 / bits(Dw): one wide read (bf16 32, 8-bit 64, 4-bit 128).
  const std::uint64_t max_rs =
      std::uint64_t{tu.trf_wide_read_bytes} * tu.bits_per_byte / wire_bits(weight);
  const FactorList e = factorize(element);
  const FactorList op = factorize(out_packet);
  std::uint64_t r = 1;
  while (r * 2 <= max_rs) r *= 2;
  for (; r > 1; r /= 2) {
    if (e.size() % r != 0 || op.size() % r != 0) continue;
    Result<Split> se = split_at(e, r);
    Result<Split> so = split_at(op, r);
    if (se && so && se->inner == so->inner) return r;
  }
  return 1; // r = 1 always qualifies: both inner parts are empty
}

std::vector<TrfLoopEntry> merge_loops(const std::vector<TrfLoopEntry>& loops) {
  std::vector<TrfLoopEntry> out;
  // Walk inner→outer so that an outer entry merges into the run accumulated below it.
  for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
    if (!out.empty() && it->stride == out.back().size * out.back().stride) {
      out.back().size *= it->size;
      continue;
    }
    out.push_back(*it);
  }
  return {out.rbegin(), out.rend()};
}

std::optional<Diagnostic> check_trf_alignment(ScalarType weight, std::uint64_t read_size,
                                              const std::vector<TrfLoopEntry>& loops) {
  if (read_size == 0) {
    return rule_error("E-OUTER-015", kStage, "TrfMisaligned",
                      "the TRF read size is 0 elements; a read covers at least one element");
  }
  const std::uint64_t bits = wire_bits(weight);
  const bool wide = is_wide(weight, read_size);
  const std::uint64_t narrow_bits = std::uint64_t{tu.trf_narrow_read_bytes} * tu.bits_per_byte;
  const std::uint64_t wide_bits = std::uint64_t{tu.trf_wide_read_bytes} * tu.bits_per_byte;
  for (const TrfLoopEntry& l : loops) {
    if (l.stride == 0) continue;
    const std::uint64_t stride_bits = l.stride * bits;
    bool ok;
    std::string need;
    if (wide) {
      ok = stride_bits % wide_bits == 0; // [DOC] 64 B reads need 64 B aligned base and strides
      need = "a multiple of 64 B (a wide read spans both banks of one row)";
    } else {
      // [PROP] a narrow read stays inside one 32 B bank word: RS-aligned offsets, RS·bits | 256.
      ok = l.stride % read_size == 0 && narrow_bits % read_bits_of(weight, read_size) == 0;
      need = fmt::format("a multiple of the {}-element read so that it stays in one 32 B bank word",
                         read_size);
    }
    if (!ok) {
      return rule_error(
          "E-OUTER-015", kStage, "TrfMisaligned",
          fmt::format("the TRF loop {} of {} has stride {} elements = {} bits, which is not {}",
                      loops_text({l}), loops_text(loops), l.stride, stride_bits, need),
          {fmt::format("read size = {} elements ({}), {}", read_size, wide ? "wide" : "narrow",
                       fmt::format("{} bits", read_bits_of(weight, read_size))),
           "fix: reorder the TRF Element so that the read unit is innermost and contiguous"});
    }
  }
  return std::nullopt;
}

namespace {

// The operands of one check, factorized once.
struct TrfSides {
  const TrfSequencerInput& in;
  FactorList e, op, ot, lane;
  std::uint64_t rs = 1;
  FactorList pb{}, rows{}; // split(OP, RS).outer, split(E, RS).outer
};

// S1: replicated packet cells must not need different TRF data.
std::optional<Diagnostic> check_packet_broadcast(const TrfSides& s) {
  Factor f;
  const bool in_e = lists_share_axis(s.pb, s.e, &f);
  if (!in_e && !lists_share_axis(s.pb, s.lane, &f)) return std::nullopt;
  return rule_error(
      "E-OUTER-010", kStage, "TrfPacketBroadcastDependsOnTrf",
      fmt::format("the TRF reads {} element(s) per cycle (ReadSize, the innermost part of "
                  "Element {} that matches OutPacket {}), and replicates them over the rest "
                  "of the packet {}; but {} also appears in the TRF {} {}, so the replicated "
                  "cells would need different TRF data",
                  s.rs, mtext(s.in.element), mtext(s.in.out_packet), ftext(s.pb), digit_text(f),
                  in_e ? "Element" : "Lane", in_e ? mtext(s.in.element) : mtext(s.in.lane)),
      {fmt::format("read size = {}, packet broadcast = {}", s.rs, ftext(s.pb)),
       "fix: make the OutPacket's cells contiguous in the TRF Element (same innermost "
       "order), or move that axis from OutPacket to OutTime"});
}

// S2: every live digit of Rows is walked by OT.
std::optional<Diagnostic> check_rows_walked(const TrfSides& s, const Division& div) {
  for (const UnmatchedDigit& u : div.divisor.unmatched) {
    if (u.idents.empty()) continue; // a broadcast copy in Element: reading one copy suffices
    const Factor& f = div.divisor.refined.factors[u.factor];
    return rule_error(
        "E-OUTER-011", kStage, "TrfElementNotSequenced",
        fmt::format("the TRF Element {} has the digit {} above the {}-element read, but OutTime "
                    "{} never walks it, so those weights would never be read",
                    mtext(s.in.element), digit_text(f), s.rs, mtext(s.in.out_time)),
        {fmt::format("rows (Element / ReadSize) = {}", ftext(s.rows)),
         fmt::format("fix: add {} to OutTime (as a time broadcast, innermost), or remove it from "
                     "the TRF Element",
                     digit_text(f))});
  }
  return std::nullopt;
}

// S3 / S4: OT digits not walking a row digit must be pure broadcasts.
std::optional<Diagnostic> check_broadcast_digits(const TrfSides& s, const Division& div) {
  FactorList matched_rows;
  for (std::size_t j = 0; j < div.divisor.refined.factors.size(); ++j)
    if (div.divisor.matched[j]) matched_rows.factors.push_back(div.divisor.refined.factors[j]);
  for (const UnmatchedDigit& u : div.dividend.unmatched) {
    const Factor& f = div.dividend.refined.factors[u.factor];
    if (!f.is_term()) continue; // a literal broadcast
    for (const Factor& g : matched_rows.factors) {
      if (digits_overlap(f, g)) {
        return rule_error("E-OUTER-012", kStage, "TrfElementRepeated",
                          fmt::format("OutTime {} walks the TRF digit {} twice",
                                      mtext(s.in.out_time), digit_text(g)),
                          {fmt::format("rows (Element / ReadSize) = {}", ftext(s.rows)),
                           "fix: name each TRF axis digit once in OutTime"});
      }
    }
    const bool in_e = shares_axis(f, s.e);
    if (in_e || shares_axis(f, s.lane)) {
      return rule_error(
          "E-OUTER-013", kStage, "TrfBroadcastOverlap",
          fmt::format("OutTime {} has the digit {}, which is not a whole row digit of the TRF "
                      "(rows {} above the {}-element read) but belongs to an axis of the TRF "
                      "{} {}: a stride-0 broadcast loop cannot vary with TRF data",
                      mtext(s.in.out_time), digit_text(f), ftext(s.rows), s.rs,
                      in_e ? "Element" : "Lane", in_e ? mtext(s.in.element) : mtext(s.in.lane)),
          {fmt::format("read size = {}", s.rs),
           "fix: OutTime must walk the TRF Element in the same digits as Element / ReadSize "
           "(or use axes the TRF does not have as broadcasts)"});
    }
  }
  return std::nullopt;
}

// A Pad of OT widens the innermost loop it attaches to; a padded group of broadcast digits is one
// stride-0 loop over the padded extent. E-OUTER-017 ([MODEL]) when the Pad covers a group of
// loops that are not all broadcasts.
std::optional<Diagnostic> pad_loop(const TrfSides& s, std::vector<TrfLoopEntry>& inner_first,
                                   std::uint64_t extent, std::uint64_t total) {
  if (inner_first.empty()) {
    inner_first.push_back({total, 0});
    return std::nullopt;
  }
  std::uint64_t below = extent / inner_first.back().size;
  if (total % below != 0) {
    std::size_t first = inner_first.size();
    std::uint64_t group = 1;
    while (first > 0 && inner_first[first - 1].stride == 0) {
      --first;
      group *= inner_first[first].size;
      if (total % (extent / group) == 0) break;
    }
    if (first < inner_first.size() && total % (extent / group) == 0) {
      below = extent / group;
      inner_first.resize(first);
      inner_first.push_back({group, 0});
    }
  }
  if (total % below != 0) {
    return rule_error("E-OUTER-017", kStage, "TrfOutTimePaddingNotSequenceable",
                      fmt::format("OutTime {} pads several digits together ({} cells in {}); the "
                                  "TRF sequencer's nested loops can pad one loop at a time only",
                                  mtext(s.in.out_time), total, ftext(s.ot)),
                      {"fix: pad a single OutTime axis (e.g. `X # n`) instead of a group"});
  }
  inner_first.back().size = total / below;
  return std::nullopt;
}

// The loop configuration (§5.2), outermost first: matched digits read with their row stride
// (× RS, in elements), broadcasts with stride 0.
Result<std::vector<TrfLoopEntry>> build_loops(const TrfSides& s, const Division& div) {
  std::vector<TrfLoopEntry> inner_first;
  const FactorList& refined = div.dividend.refined;
  std::uint64_t extent = 1;
  for (std::size_t j = 0; j < refined.factors.size(); ++j) {
    const Factor& f = refined.factors[j];
    if (f.is_pad()) {
      if (auto d = pad_loop(s, inner_first, extent, f.total)) return *d;
      extent = f.total;
      continue;
    }
    std::uint64_t stride = 0;
    if (div.dividend.matched[j]) {
      const std::uint64_t ds = refined.extent_before(j);
      for (const DivideTerm& t : div.terms)
        if (t.dividend_stride == ds) stride = t.divisor_stride * s.rs;
    }
    inner_first.push_back({f.count, stride});
    extent *= f.count;
  }
  return std::vector<TrfLoopEntry>(inner_first.rbegin(), inner_first.rend());
}

// S5: the loop table has 8 entries.
std::optional<Diagnostic> check_loop_table(const TrfSides& s,
                                           const std::vector<TrfLoopEntry>& merged) {
  if (merged.size() <= tu.sequencer_entries) return std::nullopt;
  return rule_error(
      "E-OUTER-014", kStage, "TrfSequencerTooManyLoops",
      fmt::format("walking OutTime {} over the TRF needs {} loop entries after merging "
                  "contiguous neighbours, more than the sequencer's {}",
                  mtext(s.in.out_time), merged.size(), tu.sequencer_entries),
      {fmt::format("loops = {}", loops_text(merged)),
       "fix: order OutTime like the TRF Element so that neighbouring loops merge"});
}

// S7: both operands on the same units.
std::optional<Diagnostic> check_spatial(const TrfSequencerInput& in) {
  if (!in.trf_spatial || !in.stream_spatial) return std::nullopt;
  std::optional<Diagnostic> d =
      check_same_spatial(*in.trf_spatial, *in.stream_spatial, "TRF tensor", "stream");
  if (d) {
    d->code = "E-OUTER-016";
    d->stage = kStage;
    d->notes.front() = "rule: TrfSpatialMismatch";
  }
  return d;
}

/// The axes the TRF Element pads directly (`X # t`), with their padded extent t.
void padded_axes(const Mapping& m, std::map<std::string, std::uint64_t>& out) {
  if (m.kind() == Mapping::Kind::Padding && m.lhs().kind() == Mapping::Kind::Symbol)
    out[m.lhs().axis().name] = m.number();
  if (m.kind() == Mapping::Kind::Symbol || m.kind() == Mapping::Kind::Broadcast) return;
  padded_axes(m.lhs(), out);
  if (m.kind() == Mapping::Kind::Pair) padded_axes(m.rhs(), out);
}

/// `m` with every `X # t` of `axes` read as one axis of t positions (the padded extent: its
/// padding positions are TRF rows like any other, read or not).
Result<Mapping> in_padded_space(const Mapping& m,
                                const std::map<std::string, std::uint64_t>& axes) {
  switch (m.kind()) {
  case Mapping::Kind::Symbol:
  case Mapping::Kind::Broadcast:
    return m;
  case Mapping::Kind::Pair: {
    auto a = in_padded_space(m.lhs(), axes);
    auto b = in_padded_space(m.rhs(), axes);
    if (!a || !b) return Diagnostics{};
    return Mapping::pair(*a, *b);
  }
  default:
    break;
  }
  if (m.kind() == Mapping::Kind::Padding && m.lhs().kind() == Mapping::Kind::Symbol) {
    const auto it = axes.find(m.lhs().axis().name);
    if (it != axes.end() && it->second == m.number())
      return Mapping::symbol(Axis{m.lhs().axis().name, m.number()});
  }
  auto x = in_padded_space(m.lhs(), axes);
  if (!x) return x;
  return with_operand(m, *x);
}

/// The input with the TRF Element's padded axes read in their padded extent, when OutTime walks
/// them as the Element pads them; nullopt when nothing changes.
std::optional<TrfSequencerInput> padded_space_input(const TrfSequencerInput& in) {
  std::map<std::string, std::uint64_t> axes;
  padded_axes(in.element, axes);
  if (axes.empty()) return std::nullopt;
  auto e = in_padded_space(in.element, axes);
  auto ot = in_padded_space(in.out_time, axes);
  auto op = in_padded_space(in.out_packet, axes);
  auto lane = in_padded_space(in.lane, axes);
  if (!e || !ot || !op || !lane) return std::nullopt;
  if (*e == in.element && *ot == in.out_time) return std::nullopt;
  TrfSequencerInput out = in;
  out.element = *e;
  out.out_time = *ot;
  out.out_packet = *op;
  out.lane = *lane;
  return out;
}

} // namespace

Result<TrfSequencerDerived> verify_trf_sequencer(const TrfSequencerInput& in) {
  TrfSides s{in, factorize(in.element), factorize(in.out_packet), factorize(in.out_time),
             factorize(in.lane)};

  // Derivation (§5.2).
  s.rs = derive_read_size(in.weight, in.element, in.out_packet);
  Result<Split> se = split_at(s.e, s.rs);
  if (!se) return std::move(se).take_diagnostics();
  Result<Split> so = split_at(s.op, s.rs);
  if (!so) return std::move(so).take_diagnostics();
  s.pb = so->outer;
  s.rows = se->outer;

  if (auto d = check_packet_broadcast(s)) return *d;
  // Match the OT digits against the row space: matched digits are walked loops.
  const Division div = divide_relaxed(s.ot, s.rows);
  if (auto d = check_rows_walked(s, div)) {
    // A padded axis OutTime cuts into digits of its padded extent (`K # 32 / 4`,
    // `K # 32 / 2 % 2` over rows `K # 32 / 2`): its live digit is ragged in the normal form, but
    // the digits walk every row of the padded extent. The reference reads the TRF by coordinates
    // (its TRF-side check is a stub), so such a walk is sequenced in the padded extent.
    if (auto padded = padded_space_input(in))
      if (auto r = verify_trf_sequencer(*padded); r.ok()) return r;
    return *d;
  }
  if (auto d = check_broadcast_digits(s, div)) return *d;
  Result<std::vector<TrfLoopEntry>> loops = build_loops(s, div);
  if (!loops) return std::move(loops).take_diagnostics();
  std::vector<TrfLoopEntry> merged = merge_loops(*loops);
  if (auto d = check_loop_table(s, merged)) return *d;
  if (auto d = check_trf_alignment(in.weight, s.rs, *loops)) return *d; // S6: read alignment
  if (auto d = check_spatial(in)) return *d;

  TrfSequencerDerived out;
  out.read_size = s.rs;
  out.weight = in.weight;
  out.read_bits = read_bits_of(in.weight, s.rs);
  out.wide = is_wide(in.weight, s.rs);
  out.packet_broadcast = render(s.pb);
  out.packet_broadcast_size = s.pb.size();
  out.rows = render(s.rows);
  out.rows_size = s.rows.size();
  out.loops = std::move(*loops);
  out.merged_loops = std::move(merged);
  return out;
}

} // namespace tujit::ir::verify

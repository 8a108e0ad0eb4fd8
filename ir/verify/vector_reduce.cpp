#include "ir/verify/vector_reduce.h"
#include "ir/mapping/mapping_text.h"

#include <fmt/format.h>

#include <algorithm>

namespace tujit::ir::verify {

namespace {

constexpr const char* kStage = "vector";
constexpr const char* kPage = "docs/vector-engine.md §2";

/// Product of the counts of `l`'s factors that are terms of `axis`.
std::uint64_t axis_count(const FactorList& l, const std::string& axis) {
  std::uint64_t n = 1;
  for (const Factor& f : l.factors)
    if (f.is_term() && !f.atom.is_composite() && f.atom.name == axis) n *= f.count;
  return n;
}

/// `l` without the term factors `take` accepts, each padding's cumulative extent divided by the
/// removed digits below it; nullopt when such an extent does not divide (the axis is padded
/// there).
template <class Take>
std::optional<FactorList> without_terms(const FactorList& l, Take take) {
  FactorList out;
  std::uint64_t removed = 1;
  for (const Factor& f : l.factors) {
    if (f.is_term() && take(f)) {
      removed *= f.count;
      continue;
    }
    Factor g = f;
    if (g.is_pad()) {
      if (g.total % removed != 0) return std::nullopt;
      g.total /= removed;
    }
    out.factors.push_back(g);
  }
  return normalize(out);
}

/// `l` without the terms of `axis` (without_terms).
std::optional<FactorList> without_axis(const FactorList& l, const std::string& axis) {
  return without_terms(
      l, [&](const Factor& f) { return !f.atom.is_composite() && f.atom.name == axis; });
}

/// The reduction group of Slice → Slice2: the smallest r (≥ 2) with Slice / r ≡ Slice2 / r; the
/// split of Slice there (inner: the r reduced slices).
std::optional<Split> inter_group(const FactorList& slice, const FactorList& slice2,
                                 std::uint64_t size) {
  for (std::uint64_t r = 2; r <= size; ++r) {
    if (size % r != 0) continue;
    auto a = split_at(slice, r);
    auto b = split_at(slice2, r);
    if (a && b && a->outer == b->outer) return *a;
  }
  return std::nullopt;
}

/// `l` without the factors in `drop`, each matched once (without_terms); nullopt also when a
/// factor is not in `l`.
std::optional<FactorList> without_factors(const FactorList& l, std::vector<Factor> drop) {
  auto out = without_terms(l, [&](const Factor& f) {
    auto it = std::find(drop.begin(), drop.end(), f);
    if (it == drop.end()) return false;
    drop.erase(it);
    return true;
  });
  if (!drop.empty()) return std::nullopt;
  return out;
}

/// The inter-slice reducer's shape (docs/vector-engine.md §3.7; furiosa-opt
/// docs/src/computing-tensors/vector-engine/inter-slice-reducer.md "Constraints"): Slice2 keeps
/// Slice but for its innermost r slices, whose factors (unpadded terms) are reduced; their slot in
/// Slice2 holds a dummy, a fresh axis (a broadcast) or a factor promoted from Time; Time2 is Time
/// without the promoted factors, in order. The reduction ratio r, or the rule broken.
Result<std::uint64_t> inter_shape(const VectorStep& s) {
  const FactorList slice = factorize(s.slice), slice2 = factorize(s.out_slice);
  const FactorList time = factorize(s.time), packet = factorize(s.packet);
  const auto innermost = [&](std::string what) {
    return rule_error(
        "E-VE-033", kStage, "InterReduceInnermost", std::move(what),
        {"rule 1 of furiosa-opt docs/src/computing-tensors/vector-engine/inter-slice-reducer.md: "
         "the reduced portion of Slice "
         "is its innermost factors, contiguous, unpadded; Slice2 keeps the rest "
         "(docs/vector-engine.md §3.7)"});
  };
  if (s.slice.size() != s.out_slice.size())
    return innermost(fmt::format("Slice2 {} has {} slices, Slice {} has {}: the reducer rewrites "
                                 "the slices of a cluster in place",
                                 mtext(s.out_slice), s.out_slice.size(), mtext(s.slice),
                                 s.slice.size()));
  const std::optional<Split> in = inter_group(slice, slice2, s.slice.size());
  const std::optional<Split> out =
      in ? std::optional<Split>(*split_at(slice2, in->inner.size())) : std::nullopt;
  if (!in)
    return innermost(fmt::format("Slice2 {} does not keep Slice {} outside an innermost group of "
                                 "slices: no reduction group",
                                 mtext(s.out_slice), mtext(s.slice)));
  std::vector<std::string> reduced;
  for (const Factor& f : in->inner.factors) {
    if (!f.is_term() || f.atom.is_composite())
      return innermost(fmt::format("the reduced slices {} of Slice {} hold padding or a broadcast",
                                   mtext(in->inner), mtext(s.slice)));
    reduced.push_back(f.atom.name);
  }
  for (const std::string& a : reduced)
    if (mentions(out->outer, a) || mentions(factorize(s.out_time), a) || mentions(packet, a))
      return innermost(
          fmt::format("the reduced axis `{}` stays in Slice2 {}, Time2 {} or Packet {}: "
                      "the reducer sums it whole",
                      a, mtext(s.out_slice), mtext(s.out_time), mtext(s.packet)));
  std::vector<Factor> promoted;
  for (const Factor& f : out->inner.factors) {
    if (!f.is_term()) continue; // a dummy slot
    const std::string& a = f.atom.name;
    const bool ok = !f.atom.is_composite() &&
                    std::find(reduced.begin(), reduced.end(), a) == reduced.end() &&
                    !mentions(in->outer, a) && !mentions(packet, a);
    if (!ok)
      return rule_error(
          "E-VE-034", kStage, "InterReplacement",
          fmt::format("Slice2 {} fills the reduced slots with {}, which is not a "
                      "dummy, a fresh axis or a factor of Time",
                      mtext(s.out_slice), mtext(out->inner)),
          {"rule 2 of furiosa-opt docs/src/computing-tensors/vector-engine/inter-slice-reducer.md: "
           "each reduced slot holds a "
           "dummy (`1 # n`), a broadcast over an axis the input lacks, or a factor "
           "promoted from Time (docs/vector-engine.md §3.7)"});
    if (mentions(time, a)) promoted.push_back(f);
  }
  const auto kept = without_factors(time, promoted);
  if (!kept || !(*kept == factorize(s.out_time)))
    return rule_error(
        "E-VE-035", kStage, "InterTimeMismatch",
        fmt::format("Time2 {} is not Time {} without the factors Slice2 promotes{}",
                    mtext(s.out_time), mtext(s.time),
                    kept ? fmt::format(", {}", mtext(*kept)) : std::string()),
        {"rule 4 of furiosa-opt docs/src/computing-tensors/vector-engine/inter-slice-reducer.md: "
         "Time2 keeps Time's other "
         "factors in their order; a promoted factor leaves Time whole "
         "(docs/vector-engine.md §3.7)"});
  return in->inner.size();
}

/// The stages the intra-slice chain may hand to the inter-slice reducer from (the book's Pipeline
/// table, "→ Inter-Slice Reducer": Logic, Fxp, FxpToFp, Widen, FpToFxp, Clip).
bool hands_to_reducer(VeStage s) {
  switch (s) {
  case VeStage::Logic:
  case VeStage::Fxp:
  case VeStage::FxpToFp:
  case VeStage::Widen:
  case VeStage::FpToFxp:
  case VeStage::Clip:
    return true;
  default:
    return false;
  }
}

} // namespace

/// vector_intra_slice_reduce::<Axis, Time2, Packet2>(op) (docs/vector-engine.md §3.6; the book's
/// furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-reduce.md, [REF]
/// furiosa-opt-lower `config_reduce_label`): the axis is held by Time and / or Packet; Time2 is
/// Time without it; Packet2 is Packet, or `1 # 4` when Packet holds it, then only it (C2: no
/// padding on the reduced axis in Packet); at most 8 accumulator slots.
std::optional<Diagnostic> intra_reduce_rules(const VectorStep& s) {
  const FactorList axis = factorize(s.group_axis);
  if (axis.factors.size() != 1 || !axis.factors.front().is_term())
    return rule_error("E-VE-027", kStage, "ReduceAxis",
                      fmt::format("the reduced axis {} is not one axis of two or more elements",
                                  mtext(s.group_axis)),
                      {"name the axis to reduce: `vector_intra_slice_reduce::<R, …>` "
                       "(docs/vector-engine.md §3.6)"});
  const std::string& r = axis.factors.front().atom.name;
  const FactorList time = factorize(s.time), packet = factorize(s.packet);
  const std::uint64_t in_time = axis_count(time, r), in_packet = axis_count(packet, r);
  const auto in_composite = [&](const FactorList& l) {
    for (const Factor& f : l.factors)
      if (f.is_term() && f.atom.is_composite() && mentions(*f.atom.comp, r)) return true;
    return false;
  };
  if ((in_time == 1 && in_packet == 1) || in_composite(time) || in_composite(packet))
    return rule_error("E-VE-027", kStage, "ReduceAxis",
                      fmt::format("the reduced axis `{}` is held by neither Time {} nor Packet {} "
                                  "(as digits of its own)",
                                  r, mtext(s.time), mtext(s.packet)),
                      {"the intra-slice reduce collapses the axis's factors in Time and Packet; an "
                       "axis in Slice only is the inter-slice reducer's (docs/vector-engine.md "
                       "§3.6)"});
  if (in_packet > 1 && in_packet != s.packet.size())
    return rule_error("E-VE-030", kStage, "ReducePacketPadding",
                      fmt::format("Packet {} holds the reduced axis `{}` beside padding or other "
                                  "axes: the tree reduces all 4 lanes of a flit",
                                  mtext(s.packet), r),
                      {"C2: a Packet holding the reduced axis holds it alone, without padding "
                       "(4 lanes, op(op(a, b), op(c, d))); move the rest to Time "
                       "(docs/vector-engine.md §3.6)"});
  const auto want_packet =
      in_packet > 1 ? padding(FactorList{}, kWay4Elements, PaddingKind::Top) : Result(packet);
  if (!want_packet || !(*want_packet == factorize(s.out_packet)))
    return rule_error("E-VE-029", kStage, "ReducePacketMismatch",
                      fmt::format("Packet2 {} is not {}", mtext(s.out_packet),
                                  in_packet > 1 ? "`m![1 # 4]` (the tree's one value per flit)"
                                                : fmt::format("Packet {} (the axis is not in it)",
                                                              mtext(s.packet))),
                      {"Packet2 = Packet when the axis is in Time only, `1 # 4` when Packet holds "
                       "it (docs/vector-engine.md §3.6)"});
  // A padding the reduced axis's digits do not divide, or a Time larger than Time2 times them,
  // holds padded positions of the axis among the reduced flits.
  const auto kept = without_axis(time, r);
  if (!kept || (*kept == factorize(s.out_time) && s.time.size() != s.out_time.size() * in_time))
    return rule_error("E-VE-013", kStage, "NotSimulated",
                      fmt::format("Time {} pads the reduced axis `{}`: excluding its padded "
                                  "positions needs the Valid Count Generator, which tujit does "
                                  "not simulate",
                                  mtext(s.time), r),
                      {"furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-reduce.md "
                       "\"Padding strategy\"; reduce an unpadded "
                       "axis (docs/vector-engine.md §3.6)"});
  if (!(*kept == factorize(s.out_time)))
    return rule_error("E-VE-028", kStage, "ReduceTimeMismatch",
                      fmt::format("Time2 {} is not Time {} without the reduced axis `{}`, {}",
                                  mtext(s.out_time), mtext(s.time), r, mtext(*kept)),
                      {"every factor of the reduced axis leaves Time and Packet, every other "
                       "stays in its order ([REF] config_reduce_label; docs/vector-engine.md "
                       "§3.6)"});
  // The accumulator slots: the Time digits inside the outermost digit of the axis.
  std::size_t outer = 0;
  for (std::size_t j = 0; j < time.factors.size(); ++j)
    if (time.factors[j].is_term() && time.factors[j].atom.name == r) outer = j;
  std::uint64_t below = 1;
  for (std::size_t j = 0; j < outer; ++j)
    if (time.factors[j].is_term() && time.factors[j].atom.name == r) below *= time.factors[j].count;
  const std::uint64_t slots = in_time > 1 ? time.extent_before(outer) / below : 1;
  if (slots > kReduceSlots)
    return rule_error(
        "E-VE-031", kStage, "ReduceSlots",
        fmt::format("Time {} keeps {} time steps inside the reduced axis `{}`: "
                    "each needs an accumulator slot, and there are {}",
                    mtext(s.time), slots, r, kReduceSlots),
        {"InnerTime::SIZE ≤ 8 (furiosa-opt "
         "docs/src/computing-tensors/vector-engine/intra-slice-reduce.md \"Reduction in "
         "Time\"); put the reduced axis innermost in Time (docs/vector-engine.md "
         "§3.6)"});
  return std::nullopt;
}

/// vector_inter_slice_reduce::<Slice2, Time2>(op) (docs/vector-engine.md §3.7).
Result<VectorState> inter_reduce(VectorState st, const VectorStep& s) {
  const auto placement = [&](std::string what) {
    return rule_error("E-VE-032", kStage, "InterPlacement", std::move(what),
                      {"the reducer follows vector_init, or a Logic, Fxp, FxpToFp, Widen, FpToFxp "
                       "or Clip stage of the intra-slice chain (Way8), once; after it from the "
                       "chain only vector_final follows (docs/vector-engine.md §3.7)"});
  };
  if (st.inter != InterPhase::None)
    return placement("a second vector_inter_slice_reduce in one chain");
  if (st.pair == PairPhase::Paired)
    return placement("vector_inter_slice_reduce on pair mode's two groups before their zip");
  if (st.stage != VeStage::Init && !hands_to_reducer(st.stage))
    return placement(fmt::format("vector_inter_slice_reduce after the {} stage, which does not "
                                 "hand on to the inter-slice reducer",
                                 to_string(st.stage)));
  if (st.way != kWay8Elements || s.packet.size() != kWay8Elements)
    return rule_error("E-VE-004", kStage, "WayMismatch",
                      fmt::format("vector_inter_slice_reduce takes 8-element packets (Way8), but "
                                  "Packet {} holds {}",
                                  mtext(s.packet), s.packet.size()),
                      {"widen first (vector_widen_concat / vector_widen_pad)", kPage});
  if (st.reduced || st.per_element_state || st.stash != StashSlot::Empty ||
      st.pair != PairPhase::None)
    return rule_error(
        "E-VE-013", kStage, "NotSimulated",
        "the inter-slice reducer after an intra-slice reduce, a comparison tag, a "
        "guard, a `&vrf` operand, the stash or in pair mode is not simulated by tujit",
        {"tujit runs each slice's element through the calls before the reducer on "
         "its own (docs/vector-engine.md §3.7)"});
  auto r = inter_shape(s);
  if (!r) return r.diagnostics();
  st.inter = st.stage == VeStage::Init ? InterPhase::InterFirst : InterPhase::Exited;
  st.reduced = true;
  st.reduce_ratio = *r;
  return st;
}

std::optional<FactorList> inter_reduced_slices(const Mapping& slice, const Mapping& slice2) {
  if (slice.size() != slice2.size()) return std::nullopt;
  auto g = inter_group(factorize(slice), factorize(slice2), slice.size());
  if (!g) return std::nullopt;
  return g->inner;
}

} // namespace tujit::ir::verify

#include "ir/verify/vector_engine.h"
#include "ir/mapping/mapping_text.h"

#include "ir/verify/vector_reduce.h"

#include "ir/mapping/factor.h"

#include <fmt/format.h>

#include <algorithm>

namespace tujit::ir::verify {

namespace {

constexpr const char* kStage = "vector";
constexpr const char* kPage = "docs/vector-engine.md §2";

/// The Way a stage runs in (docs/vector-engine.md §2); Tag and Final need Way8, the
/// Narrow stage takes Way8 in, the Widen stage Way4 in.
std::uint64_t way_in(VeStage s) {
  switch (s) {
  case VeStage::Fp:
  case VeStage::IntraSliceReduce:
  case VeStage::FpDiv:
  case VeStage::Widen:
    return kWay4Elements;
  default:
    return kWay8Elements;
  }
}

Diagnostic order_error(const VectorCall& call, VeStage from, VeStage to) {
  const std::string_view m = method_name(call.kind);
  if (from == VeStage::Init)
    return rule_error("E-VE-003", kStage, "StageOrder",
                      fmt::format("`{}` right after vector_init: the intra-slice chain is entered "
                                  "with vector_intra_slice_tag first",
                                  m),
                      {"vector_init → vector_intra_slice_tag(TagMode::Zero) → stages → "
                       "vector_final (docs/vector-engine.md §2)"});
  return rule_error(
      "E-VE-003", kStage, "StageOrder",
      fmt::format("`{}` runs the {} stage, which comes before the {} stage the chain is already "
                  "in: the stages run in one fixed order",
                  m, to_string(to), to_string(from)),
      {"order: Tag → Logic → Fxp → FxpToFp → Narrow → Fp → IntraSliceReduce → FpDiv → Widen → "
       "FpToFxp → Clip; Logic, Fxp, Fp and Clip may repeat with other ALUs (" +
       std::string(kPage) + ")"});
}

Diagnostic way_error(const VectorCall& call, VeStage to, std::uint64_t way) {
  const std::uint64_t need = way_in(to);
  return rule_error(
      "E-VE-004", kStage, "WayMismatch",
      fmt::format("`{}` runs {}-way, but the stream is {}-way here", method_name(call.kind), need,
                  way),
      {need == kWay4Elements
           ? "the Float cluster, the divider and the reduce tree run Way4: narrow first "
             "(vector_narrow_split or vector_narrow_trim)"
           : "this stage runs Way8 (and the chain leaves Way8): widen first "
             "(vector_widen_concat after a split, vector_widen_pad after a trim)",
       kPage});
}

std::optional<Diagnostic> split_rules(const VectorStep& s) {
  const FactorList packet = factorize(s.packet);
  if (packet.size() != kWay8Elements)
    return rule_error("E-VE-007", kStage, "SplitRequiresOneFlit",
                      fmt::format("vector_narrow_split takes an 8-element packet (one flit), but "
                                  "Packet {} holds {}",
                                  mtext(s.packet), packet.size()),
                      {"split halves a Way8 packet: the front 4 stay, the back 4 move to Time"});
  auto halves = split_at(packet, kWay4Elements);
  if (!halves) return halves.diagnostics().front();
  const FactorList want_time = pair(factorize(s.time), halves->outer);
  const FactorList got_time = factorize(s.out_time);
  if (!(want_time == got_time))
    return rule_error("E-VE-008", kStage, "SplitTimeMismatch",
                      fmt::format("vector_narrow_split's Time2 {} is not [Time, Packet / 4] = {}",
                                  mtext(s.out_time), mtext(want_time)),
                      {"Time2 = [Time, Packet / 4], Packet2 = Packet % 4 (compared by normal "
                       "form; furiosa-opt-lower config_vector_narrow_split)"});
  if (s.out_packet.size() != kWay4Elements)
    return rule_error("E-VE-008", kStage, "SplitOutputSize",
                      fmt::format("vector_narrow_split's Packet2 {} must hold 4 elements (the "
                                  "front half of the flit), it holds {}",
                                  mtext(s.out_packet), s.out_packet.size()),
                      {"Packet2 = Packet % 4"});
  if (!(halves->inner == factorize(s.out_packet)))
    return rule_error("E-VE-008", kStage, "SplitPacketMismatch",
                      fmt::format("vector_narrow_split's Packet2 {} is not Packet % 4 = {}",
                                  mtext(s.out_packet), mtext(halves->inner)),
                      {"Time2 = [Time, Packet / 4], Packet2 = Packet % 4"});
  return std::nullopt;
}

std::optional<Diagnostic> concat_rules(const VectorStep& s) {
  if (s.packet.size() != kWay4Elements)
    return rule_error("E-VE-009", kStage, "ConcatRequiresWay4",
                      fmt::format("vector_widen_concat takes a 4-element packet, but Packet {} "
                                  "holds {}",
                                  mtext(s.packet), s.packet.size()),
                      {"concat merges two Way4 packets (adjacent Time cells) into one flit"});
  const FactorList time = factorize(s.time);
  if (time.size() % 2 != 0)
    return rule_error("E-VE-010", kStage, "ConcatTimeMismatch",
                      fmt::format("vector_widen_concat folds the inner 2 Time cells into the "
                                  "packet, but Time {} has {} cells",
                                  mtext(s.time), time.size()),
                      {"Time2 = Time / 2, Packet2 = [Time % 2, Packet]"});
  auto halves = split_at(time, 2);
  if (!halves) return halves.diagnostics().front();
  if (s.out_packet.size() != kWay8Elements)
    return rule_error("E-VE-010", kStage, "ConcatOutputSize",
                      fmt::format("vector_widen_concat's Packet2 {} must hold 8 elements (one "
                                  "flit), it holds {}",
                                  mtext(s.out_packet), s.out_packet.size()),
                      {"Packet2 = [Time % 2, Packet]"});
  if (!(halves->outer == factorize(s.out_time)))
    return rule_error("E-VE-010", kStage, "ConcatTimeMismatch",
                      fmt::format("vector_widen_concat's Time2 {} is not Time / 2 = {}",
                                  mtext(s.out_time), mtext(halves->outer)),
                      {"Time2 = Time / 2, Packet2 = [Time % 2, Packet] (furiosa-opt-lower "
                       "config_vector_widen_concat)"});
  const FactorList want_packet = pair(halves->inner, factorize(s.packet));
  if (!(want_packet == factorize(s.out_packet)))
    return rule_error("E-VE-010", kStage, "ConcatPacketMismatch",
                      fmt::format("vector_widen_concat's Packet2 {} is not [Time % 2, Packet] = "
                                  "{}",
                                  mtext(s.out_packet), mtext(want_packet)),
                      {"Time2 = Time / 2, Packet2 = [Time % 2, Packet]"});
  return std::nullopt;
}

std::optional<Diagnostic> trim_rules(const VectorStep& s) {
  const FactorList packet = factorize(s.packet);
  if (packet.size() != kWay8Elements)
    return rule_error("E-VE-011", kStage, "TrimInputSize",
                      fmt::format("vector_narrow_trim takes an 8-element packet, but Packet {} "
                                  "holds {}",
                                  mtext(s.packet), packet.size()),
                      {"trim drops the back 4 (dummy) lanes of a Way8 packet"});
  auto halves = split_at(packet, kWay4Elements);
  if (!halves) return halves.diagnostics().front();
  auto dummy = padding(FactorList{}, 2, PaddingKind::Top);
  if (!dummy || !(halves->outer == *dummy))
    return rule_error("E-VE-011", kStage, "TrimBackNotDummy",
                      fmt::format("vector_narrow_trim drops the back 4 lanes of Packet {}, but "
                                  "they hold data ({})",
                                  mtext(s.packet), mtext(halves->outer)),
                      {"use vector_narrow_split when the back half holds data; trim needs it to "
                       "be top padding, `# 8` over at most 4 live elements"});
  if (s.out_packet.size() != kWay4Elements || !(halves->inner == factorize(s.out_packet)))
    return rule_error("E-VE-011", kStage, "TrimPacketMismatch",
                      fmt::format("vector_narrow_trim's Packet2 {} is not the front 4 of the "
                                  "packet, {}",
                                  mtext(s.out_packet), mtext(halves->inner)),
                      {"Packet2 = Packet % 4"});
  return std::nullopt;
}

std::optional<Diagnostic> pad_rules(const VectorStep& s) {
  if (s.packet.size() != kWay4Elements)
    return rule_error("E-VE-012", kStage, "PadInputSize",
                      fmt::format("vector_widen_pad takes a 4-element packet, but Packet {} "
                                  "holds {}",
                                  mtext(s.packet), s.packet.size()),
                      {"pad restores the 4 lanes vector_narrow_trim dropped"});
  auto want = padding(factorize(s.packet), kWay8Elements, PaddingKind::Top);
  if (!want || s.out_packet.size() != kWay8Elements || !(*want == factorize(s.out_packet)))
    return rule_error("E-VE-012", kStage, "PadPacketMismatch",
                      fmt::format("vector_widen_pad's Packet2 {} is not the packet padded to 8, "
                                  "{}",
                                  mtext(s.out_packet), want ? mtext(*want) : "?"),
                      {"Packet2 = Packet # 8 (the back 4 lanes are top padding)"});
  return std::nullopt;
}

std::optional<Diagnostic> reshape_rules(const VectorStep& s) {
  switch (s.call.kind) {
  case VectorCallKind::NarrowSplit:
    return split_rules(s);
  case VectorCallKind::WidenConcat:
    return concat_rules(s);
  case VectorCallKind::NarrowTrim:
    return trim_rules(s);
  case VectorCallKind::WidenPad:
    return pad_rules(s);
  case VectorCallKind::IntraSliceReduce:
    return intra_reduce_rules(s);
  default:
    return std::nullopt;
  }
}

/// The stages that own a VRF write port, where vector_stash() may snapshot the stream
/// (furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-chain.md "Operands": Branch,
/// Logic, Fxp, Narrow, Fp, FpDiv, Clip; the Branch stage is tujit's Tag).
bool stashable(VeStage s) {
  switch (s) {
  case VeStage::Tag:
  case VeStage::Logic:
  case VeStage::Fxp:
  case VeStage::Narrow:
  case VeStage::Fp:
  case VeStage::FpDiv:
  case VeStage::Clip:
    return true;
  default:
    return false;
  }
}

/// vector_stash(): once per chain, at a stage that owns a VRF write port (E-VE-019).
Result<VectorState> stash(VectorState st, const VectorStep& s) {
  if (!stashable(st.stage))
    return rule_error("E-VE-019", kStage, "StashStage",
                      fmt::format("vector_stash() follows the {} stage, which has no port to the "
                                  "stash",
                                  to_string(st.stage)),
                      {"stash at a Branch (tag), Logic, Fxp, Narrow, Fp, FpDiv or Clip stage "
                       "(docs/vector-engine.md §3.3); a value of the Way4 region reaches the "
                       "stash after widening, at a Clip op"});
  if (st.stash != StashSlot::Empty)
    return rule_error("E-VE-019", kStage, "StashTwice",
                      "a second vector_stash() in one chain: the stash slot is written once",
                      {"keep a value read more than once in the VRF and pass it as `&vrf` "
                       "(docs/vector-engine.md §3.3)"});
  st.stash = StashSlot::Occupied;
  st.stash_dtype = s.dtype;
  return st;
}

/// A `Stash` operand: the snapshot exists, is read once, and holds the stream's scalar
/// (E-VE-020).
std::optional<Diagnostic> stash_read(VectorState& st, const VectorStep& s) {
  if (!s.call.reads_stash()) return std::nullopt;
  const std::string what = s.call.describe();
  if (st.stash == StashSlot::Empty)
    return rule_error("E-VE-020", kStage, "StashEmpty",
                      fmt::format("`{}` reads the stash, but no vector_stash() before it in this "
                                  "chain wrote it",
                                  what),
                      {"call vector_stash() at the step whose value this op reads "
                       "(docs/vector-engine.md §3.3)"});
  if (st.stash == StashSlot::Read)
    return rule_error("E-VE-020", kStage, "StashReadTwice",
                      fmt::format("`{}` reads the stash a second time: it is read once", what),
                      {"keep a value read more than once in the VRF and pass it as `&vrf` "
                       "(docs/vector-engine.md §3.3)"});
  if (st.stash_dtype != s.dtype)
    return rule_error("E-VE-020", kStage, "StashScalar",
                      fmt::format("`{}` runs on a {} stream, but the stash holds {}", what,
                                  name(s.dtype), name(st.stash_dtype)),
                      {"convert (or reinterpret) back to the stash's scalar before reading it "
                       "(docs/vector-engine.md §3.3)"});
  st.stash = StashSlot::Read;
  return std::nullopt;
}

/// The grouping axis's digit of Time (docs/vector-engine.md §3.5): the index of the one factor
/// holding the whole axis, or nullopt.
std::optional<std::size_t> group_digit(const FactorList& time, const Atom& axis) {
  std::optional<std::size_t> at;
  for (std::size_t j = 0; j < time.factors.size(); ++j) {
    const Factor& f = time.factors[j];
    if (!f.is_term() || f.atom.is_composite() || f.atom.name != axis.name) continue;
    if (at || f.stride != 1 || f.count != axis.size) return std::nullopt;
    at = j;
  }
  return at;
}

/// vector_intra_slice_unzip::<I, TileTime, SplitTime>(): right after vector_init, on 8-element
/// packets, `I` a 2-element axis held whole by Time; TileTime is Time with I's digit cut to its
/// first value (`1 # 2`), SplitTime is Time without it (the reference's
/// `VectorTensorPair::new`: each group is a tile of one along I).
Result<VectorState> unzip(VectorState st, const VectorStep& s) {
  if (st.stage != VeStage::Init)
    return rule_error("E-VE-023", kStage, "UnzipPlacement",
                      "vector_intra_slice_unzip enters the chain: it comes right after "
                      "vector_init, in place of vector_intra_slice_tag",
                      {"vector_init().vector_intra_slice_unzip::<I, TileTime, SplitTime>() "
                       "(docs/vector-engine.md §3.5)"});
  if (s.packet.size() != kWay8Elements)
    return rule_error("E-VE-002", kStage, "PacketNotOneFlit",
                      fmt::format("pair mode takes 8-element packets (one flit of 32-bit "
                                  "elements), but Packet {} holds {}",
                                  mtext(s.packet), s.packet.size()),
                      {"pad the packet to 8 (`# 8`) in the collect before vector_init"});
  const FactorList axis = factorize(s.group_axis);
  const auto bad = [&](std::string what) {
    return rule_error("E-VE-023", kStage, "UnzipGroupAxis", std::move(what),
                      {"the grouping axis has 2 elements, held whole by Time (`begin_interleaved` "
                       "or a collect with I in Time); TileTime is Time with I replaced by "
                       "`1 # 2`, SplitTime is Time without I (docs/vector-engine.md §3.5)"});
  };
  // A one-element axis factors to nothing, and a padded or split one to more than its atom.
  if (axis.factors.size() != 1 || !axis.factors.front().is_term())
    return bad(fmt::format("the grouping axis {} is not one axis of 2 elements; pair mode splits "
                           "a 2-way axis",
                           mtext(s.group_axis)));
  const Atom& a = axis.factors.front().atom;
  if (a.size != 2)
    return bad(fmt::format("the grouping axis `{}` has {} elements; pair mode splits a 2-way axis",
                           a.name, a.size));
  const FactorList time = factorize(s.time);
  const std::optional<std::size_t> j = group_digit(time, a);
  if (!j || mentions(factorize(s.packet), a.name))
    return bad(fmt::format("Time {} does not hold the grouping axis `{}` as one whole digit (or "
                           "Packet {} holds it too)",
                           mtext(s.time), a.name, mtext(s.packet)));
  FactorList tile = time, split;
  tile.factors[*j] = Factor::padding(time.extent_before(*j) * 2, PaddingKind::Top);
  for (std::size_t k = 0; k < time.factors.size(); ++k) {
    if (k == *j) continue;
    Factor f = time.factors[k];
    if (k > *j && f.is_pad()) f.total /= 2;
    split.factors.push_back(f);
  }
  tile = normalize(tile);
  split = normalize(split);
  if (!(tile == factorize(s.tile_time)))
    return bad(fmt::format("TileTime {} is not Time with `{}` cut to one element, {}",
                           mtext(s.tile_time), a.name, mtext(tile)));
  if (!(split == factorize(s.out_time)))
    return bad(fmt::format("SplitTime {} is not Time without `{}`, {}", mtext(s.out_time), a.name,
                           mtext(split)));
  st.stage = VeStage::Tag;
  st.way = kWay8Elements;
  st.pair = PairPhase::Paired;
  return st;
}

/// What pair mode drops (docs/vector-engine.md §3.5): the stash in both phases; before the zip
/// the trim / pad forms, a single-stream operand, and leaving the engine; a zip of no pair.
std::optional<Diagnostic> pair_rules(const VectorState& st, const VectorStep& s) {
  const VectorCall& call = s.call;
  const std::string m = method_name(call);
  if (st.pair != PairPhase::None && (call.kind == VectorCallKind::Stash || call.reads_stash()))
    return rule_error("E-VE-026", kStage, "PairNoStash",
                      fmt::format("`{}`: the stash is unavailable in pair mode", m),
                      {"pair mode drops vector_stash() and vector_filter() in both phases, "
                       "before and after the zip; keep a value read later in the VRF "
                       "(docs/vector-engine.md §3.5)"});
  if (st.pair == PairPhase::Zipped && (call.branches || !call.guard.unconditional()))
    return rule_error("E-VE-013", kStage, "NotSimulated",
                      fmt::format("`{}`: a tag guard after a zip is not simulated by tujit", m),
                      {"the book leaves the zipped stream's tag open (its GroupId bit); tujit "
                       "runs unconditional ops after a zip (docs/vector-engine.md §3.5)"});
  if (call.zip && st.pair != PairPhase::Paired)
    return rule_error("E-VE-025", kStage, "ZipWithoutPair",
                      fmt::format("`{}` zips the two groups of pair mode, but the stream is not a "
                                  "pair here",
                                  m),
                      {"one `_zip` op after vector_intra_slice_unzip (docs/vector-engine.md "
                       "§3.5)"});
  if (st.pair == PairPhase::Paired) {
    const bool single = !call.groups && !call.zip && call.alu().has_value();
    if (call.kind == VectorCallKind::Final || call.kind == VectorCallKind::NarrowTrim ||
        call.kind == VectorCallKind::WidenPad || single)
      return rule_error(
          "E-VE-024", kStage, "PairedPhase",
          fmt::format("`{}` is not available on the two groups before their zip", m),
          {call.kind == VectorCallKind::Final
               ? "zip the groups first (`vector_clip_zip(…)`, …): only one stream leaves the "
                 "engine"
               : "on a pair: vector_narrow_split / vector_widen_concat instead of trim / pad, "
                 "and one argument per group for each op (docs/vector-engine.md §3.5)"});
  } else if (call.groups) {
    return rule_error("E-VE-024", kStage, "PairedPhase",
                      fmt::format("`{}` takes one argument per group, but the stream is not a "
                                  "pair here",
                                  m),
                      {"per-group arguments belong between vector_intra_slice_unzip and the zip "
                       "(docs/vector-engine.md §3.5)"});
  }
  return std::nullopt;
}

/// One step from `st`: the order, Way and ALU rules, then the call's own mapping rules.
Result<VectorState> step(VectorState st, const VectorStep& s) {
  const VectorCall& call = s.call;
  const std::optional<VeStage> to = stage_of(call.kind);
  if (call.kind == VectorCallKind::Init) return VectorState{};
  if (call.kind == VectorCallKind::Unzip) return unzip(std::move(st), s);
  if (auto d = pair_rules(st, s)) return *d;
  if (call.kind == VectorCallKind::InterSliceReduce) return inter_reduce(std::move(st), s);
  if (st.inter == InterPhase::Exited && call.kind != VectorCallKind::Final)
    return rule_error("E-VE-032", kStage, "InterPlacement",
                      fmt::format("`{}` after the inter-slice reducer, entered from the "
                                  "intra-slice chain: the chain exits there",
                                  method_name(call)),
                      {"vector_final follows; a chain continues after the reducer only when it "
                       "entered right after vector_init (docs/vector-engine.md §3.7)"});
  if (call.kind == VectorCallKind::Stash) return stash(std::move(st), s);
  if (!to) return st; // a reinterpret holds the stage and the Way
  if (call.kind == VectorCallKind::Tag) {
    if (st.stage != VeStage::Init) return order_error(call, st.stage, *to);
    if (s.packet.size() != kWay8Elements)
      return rule_error("E-VE-002", kStage, "PacketNotOneFlit",
                        fmt::format("the intra-slice chain takes 8-element packets (one flit of "
                                    "32-bit elements), but Packet {} holds {}",
                                    mtext(s.packet), s.packet.size()),
                        {"pad the packet to 8 (`# 8`) in the collect before vector_init"});
    st.stage = VeStage::Tag;
    st.way = kWay8Elements;
    st.per_element_state = call.comparisons.has_value();
    return st;
  }
  if (st.stage == VeStage::Init && !(*to == VeStage::Final && st.inter != InterPhase::None))
    return order_error(call, st.stage, *to);
  const bool forward = *to > st.stage || (*to == st.stage && ve_stage_repeats(*to));
  if (*to != VeStage::Final && !forward) return order_error(call, st.stage, *to);
  if (st.way != way_in(*to)) return way_error(call, *to, st.way);
  // A per-group call claims its ALU for both groups when either runs (the book's "Pair Mode": an
  // ALU used in either group counts as consumed for both).
  const bool runs = !call.groups || call.groups->runs[0] || call.groups->runs[1];
  if (auto a = call.alu(); a && runs) {
    if (st.alus.count(*a))
      return rule_error("E-VE-005", kStage, "AluInUse",
                        fmt::format("`{}` needs the {} ALU, which an earlier call of this chain "
                                    "already uses",
                                    call.describe(), to_string(*a)),
                        {"each ALU runs once per Tensor Unit invocation (furiosa-opt "
                         "engine/vector/alu.rs); pick another ALU (e.g. MulF(FpMulAlu::Mul1)) "
                         "or split the work over two passes"});
    st.alus.insert(*a);
  }
  if (auto d = stash_read(st, s)) return *d;
  if (call.kind == VectorCallKind::IntraSliceReduce &&
      (st.pair != PairPhase::None || st.stash != StashSlot::Empty || st.per_element_state ||
       st.reduced))
    return rule_error("E-VE-013", kStage, "NotSimulated",
                      "an intra-slice reduce after the inter-slice reducer, a comparison tag, a "
                      "guard, a `&vrf` operand, the stash or in pair mode is not simulated by "
                      "tujit",
                      {"tujit runs each term of a reduce through the calls before it on its own; "
                       "the book leaves the reduced element's tag and stash open "
                       "(docs/vector-engine.md §3.6)"});
  if (auto d = reshape_rules(s)) return *d;
  if (*to != VeStage::Final) st.stage = *to;
  if (call.kind == VectorCallKind::IntraSliceReduce) st.reduced = true;
  if (call.zip) st.pair = PairPhase::Zipped;
  st.per_element_state = st.per_element_state || call.comparisons.has_value() || call.reads_vrf() ||
                         call.branches.has_value() || !call.guard.unconditional();
  if (*to == VeStage::Narrow) {
    st.way = kWay4Elements;
    st.way4 = true;
  }
  if (*to == VeStage::Widen) st.way = kWay8Elements;
  return st;
}

} // namespace

DerivedTable VectorState::to_table(const VectorCall& call) const {
  DerivedTable t;
  t["stage"] = std::string(to_string(stage));
  t["way"] = way;
  if (auto a = call.alu()) t["alu"] = std::string(to_string(*a));
  std::string used;
  for (VeAlu a : alus) used += (used.empty() ? "" : ", ") + std::string(to_string(a));
  t["alus_used"] = used.empty() ? std::string("none") : used;
  if (pair != PairPhase::None)
    t["pair"] = std::string(pair == PairPhase::Paired ? "paired" : "zipped");
  if (reduce_ratio > 1) t["reduction_ratio"] = reduce_ratio;
  if (call.kind == VectorCallKind::Final) {
    t["cycles_per_flit"] = std::uint64_t{way4 ? 2u : 1u};
    t["latency_cycles"] = static_cast<std::uint64_t>(alus.size());
  }
  return t;
}

Result<VectorState> verify_vector_step(const std::vector<VectorStep>& chain) {
  VectorState st;
  for (std::size_t i = 0; i < chain.size(); ++i) {
    auto r = step(st, chain[i]);
    if (!r) {
      if (i + 1 == chain.size()) return r;
      // An earlier call fails: it was reported at its own stage; keep the state as it would be.
      continue;
    }
    st = *r;
  }
  return st;
}

std::vector<VectorStep> vector_chain_to(std::span<const Stage> stages, std::size_t index) {
  std::vector<VectorStep> out;
  for (std::optional<std::size_t> at = index; at;) {
    const Stage& s = stages[*at];
    if (!s.vector) return {}; // not a Vector Engine call
    out.push_back(VectorStep{*s.vector, s.input.mapping(Slot::Time), s.input.mapping(Slot::Packet),
                             s.output.mapping(Slot::Time), s.output.mapping(Slot::Packet),
                             s.input.dtype, Mapping(), Mapping(), s.input.mapping(Slot::Slice),
                             s.output.mapping(Slot::Slice)});
    if (s.vector->kind == VectorCallKind::Unzip && s.type_args.size() == 3) {
      out.back().group_axis = s.type_args[0].mapping;
      out.back().tile_time = s.type_args[1].mapping;
    }
    if (s.vector->kind == VectorCallKind::IntraSliceReduce && !s.type_args.empty())
      out.back().group_axis = s.type_args[0].mapping;
    if (s.vector->kind == VectorCallKind::Init) break;
    at = s.producer;
    if (!at) return {};
  }
  std::reverse(out.begin(), out.end());
  return out;
}

} // namespace tujit::ir::verify

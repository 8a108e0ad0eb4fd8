#include "ir/seq/vector_program.h"

#include "ir/mapping/factor.h"
#include "ir/verify/vector_engine.h"

#include <fmt/format.h>

#include <optional>
#include <set>
#include <variant>

namespace tujit::ir::seq {
namespace {

Diagnostic lower_error(std::string message, SourceSpan span) {
  Diagnostic d = make_error("E-RUN-101", std::move(message), span);
  d.stage = "run";
  return d;
}

Diagnostic invalid(std::string what) {
  return run_error("E-RUN-102", "internal: a Vector Engine pass " + std::move(what));
}

bool ve_scalar(ScalarType t) {
  return t == ScalarType::I32 || t == ScalarType::F32;
}

/// The scalar a call computes on (docs/vector-engine.md §2: the Fxp cluster on i32, the Float
/// cluster on f32), nullopt for the calls that take either.
std::optional<ScalarType> required_scalar(VectorCallKind k) {
  switch (k) {
  case VectorCallKind::Fxp:
  case VectorCallKind::FxpToFp:
    return ScalarType::I32;
  case VectorCallKind::FpUnary:
  case VectorCallKind::FpBinary:
  case VectorCallKind::FpTernary:
  case VectorCallKind::FpDiv:
  case VectorCallKind::FpToFxp:
    return ScalarType::F32;
  default:
    return std::nullopt;
  }
}

/// Whether the call's op is of its kind's enum (monostate for the calls without one).
bool op_matches(const VectorCall& c) {
  switch (c.kind) {
  case VectorCallKind::FpUnary:
    return std::holds_alternative<FpUnaryOp>(c.op);
  case VectorCallKind::FpBinary:
    return std::holds_alternative<FpBinaryOp>(c.op);
  case VectorCallKind::FpDiv:
    return std::holds_alternative<FpBinaryOp>(c.op) &&
           std::get<FpBinaryOp>(c.op) == FpBinaryOp::DivF;
  case VectorCallKind::Fxp:
    return std::holds_alternative<FxpBinaryOp>(c.op);
  case VectorCallKind::Logic:
    return std::holds_alternative<LogicBinaryOp>(c.op);
  case VectorCallKind::Clip:
    return std::holds_alternative<ClipBinaryOp>(c.op);
  default:
    return std::holds_alternative<std::monostate>(c.op);
  }
}

bool takes_operand(VectorCallKind k) {
  switch (k) {
  case VectorCallKind::FpBinary:
  case VectorCallKind::FpDiv:
  case VectorCallKind::FpTernary:
  case VectorCallKind::Fxp:
  case VectorCallKind::Logic:
  case VectorCallKind::Clip:
    return true;
  default:
    return false;
  }
}

/// What breaks the tag and branch invariants of docs/vector-engine.md §3.4 in `c`, if anything:
/// comparisons only on the tag, a guard only on a unary op, a Branched operand only where the
/// call takes an operand, with at most three imm slots, its rf slot reading a VRF or the stash,
/// and no slot that cannot fire.
std::optional<std::string> branch_defect(const VectorCall& c) {
  if (c.comparisons && c.kind != VectorCallKind::Tag) return " holds tag comparisons";
  if (!c.guard.unconditional() && c.kind != VectorCallKind::FpUnary) return " holds a guard";
  if (c.ternary_mode != TernaryArgMode::Mode012 && c.kind != VectorCallKind::FpTernary)
    return " holds a ternary argument mode";
  if (!c.branches) return std::nullopt;
  const VeBranches& b = *c.branches;
  if (!takes_operand(c.kind)) return " holds a Branched operand";
  if (b.imm.size() > kImmSlots) return " fills more than three immediate slots";
  if (b.rf != (c.source != VeOperandSource::Constant))
    return "'s register-file slot and its operand source disagree";
  bool closed = false; // an unconditional slot came: nothing may follow
  for (std::size_t i = 0; i <= b.imm.size(); ++i) {
    if (i == b.imm.size() && !b.rf) break;
    const TagGuard& g = i < b.imm.size() ? b.imm[i].guard : b.rf_guard;
    if (closed || g.matches_nothing()) return " has a slot that can never fire";
    closed = g.unconditional();
  }
  return std::nullopt;
}

/// Pair mode's invariants (docs/vector-engine.md §3.5): the unzip is the first step; per-group
/// calls and their group arguments only between it and the one zip; no stash, no tag, no guard
/// and no Branched operand in a pair pass (the book leaves the zipped stream's tag open).
std::optional<std::string> pair_defect(const VectorProgram& p) {
  bool unzipped = false, paired = false;
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const VectorCall& c = p.steps[i].call;
    if (c.kind == VectorCallKind::Unzip) {
      if (i != 0) return fmt::format("unzips at step {}, not first", i);
      unzipped = paired = true;
      continue;
    }
    if (c.zip &&
        (!paired || !takes_operand(c.kind) || c.groups || c.kind == VectorCallKind::FpDiv ||
         c.kind == VectorCallKind::FpTernary || c.source != VeOperandSource::Constant))
      return fmt::format("zips at step {} without a pair, or with operands", i);
    if (c.groups && (!paired || !(takes_operand(c.kind) || c.kind == VectorCallKind::FpUnary) ||
                     c.source != VeOperandSource::Constant))
      return fmt::format("runs a per-group call at step {} outside the paired phase", i);
    if (paired && !c.groups && !c.zip && takes_operand(c.kind))
      return fmt::format("runs a single-stream call at step {} on a pair", i);
    if (unzipped && (c.kind == VectorCallKind::Stash || c.reads_stash() || c.branches ||
                     !c.guard.unconditional() || c.kind == VectorCallKind::Tag))
      return fmt::format("reads a stash, a tag or a guard at step {} of a pair pass", i);
    if (c.zip) paired = false;
  }
  if (paired) return std::string("never zips its pair");
  return std::nullopt;
}

/// The reduce's invariants (docs/vector-engine.md §3.6): one reduce, 1 or 4 lanes, a step or
/// more; the calls before it read no operand stream, no stash, no pair and compute no tag.
std::optional<std::string> reduce_defect(const VectorProgram& p) {
  bool reduced = false;
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const VectorCall& c = p.steps[i].call;
    const bool reduces =
        c.kind == VectorCallKind::IntraSliceReduce || c.kind == VectorCallKind::InterSliceReduce;
    if (c.reduce.has_value() != reduces ||
        (c.reduce && c.kind == VectorCallKind::InterSliceReduce && c.reduce->lanes != 1))
      return fmt::format("step {} holds a reduce of another kind", i);
    if (!c.reduce) continue;
    if (reduced) return fmt::format("reduces a second time at step {}", i);
    if ((c.reduce->lanes != 1 && c.reduce->lanes != 4) || c.reduce->steps == 0)
      return fmt::format("reduces {} lanes × {} steps at step {}", c.reduce->lanes, c.reduce->steps,
                         i);
    for (std::size_t k = 0; k < i; ++k) {
      const VectorCall& b = p.steps[k].call;
      if (b.operand_streams() != 0 || b.kind == VectorCallKind::Stash || b.reads_stash() ||
          b.kind == VectorCallKind::Tag)
        return fmt::format("reads an operand stream, the stash or a tag at step {}, before its "
                           "reduce",
                           k);
    }
    reduced = true;
  }
  return std::nullopt;
}

/// The terms of the reduce at `st` (docs/vector-engine.md §3.6): the reduced axis's coordinate
/// that each distinct Time contribution (in arrival order) plus each Packet lane's gives, and
/// the tree's shape from them. A message when the stream is not what the verifier let through.
std::optional<std::string> reduce_shape(const Stage& st, VectorChain& out, VectorCall& call) {
  if (st.type_args.empty() || !call.reduce) return "internal: a reduce without its axis";
  const FactorList a = factorize(st.type_args[0].mapping);
  if (a.factors.size() != 1 || !a.factors.front().is_term())
    return "internal: the reduce's axis is not one axis";
  const std::string axis = a.factors.front().atom.name;
  const Mapping& time = st.input.mapping(Slot::Time);
  const Mapping& packet = st.input.mapping(Slot::Packet);
  const auto coordinate = [&](const Cell& c) {
    auto it = c.index.find(axis);
    return it == c.index.end() ? std::uint64_t{0} : it->second;
  };
  std::vector<std::uint64_t> steps, lanes;
  std::set<std::uint64_t> seen;
  for (std::uint64_t t = 0; t < time.size(); ++t)
    if (const Cell c = time.map(t); c.is_live() && seen.insert(coordinate(c)).second)
      steps.push_back(coordinate(c));
  for (std::uint64_t e = 0; e < packet.size(); ++e)
    if (const Cell c = packet.map(e); c.is_live() && c.index.count(axis))
      lanes.push_back(coordinate(c));
  // A Packet holding the axis holds only it, in every lane (E-VE-030); else one lane per flit.
  if (lanes.empty()) lanes.push_back(0);
  if (lanes.size() != 1 && lanes.size() != verify::kWay4Elements)
    return fmt::format("internal: the reduce's Packet holds `{}` in {} lanes", axis, lanes.size());
  if (steps.empty()) return "internal: the reduce's Time has no live step";
  for (std::uint64_t s : steps)
    for (std::uint64_t l : lanes) out.reduce_terms.push_back(Index{{axis, s + l}});
  if (out.reduce_terms.size() > kMaxReduceTerms)
    return fmt::format("tujit runs a reduce of at most {} terms per output element; this one "
                       "combines {}",
                       kMaxReduceTerms, out.reduce_terms.size());
  call.reduce->lanes = static_cast<std::uint32_t>(lanes.size());
  call.reduce->steps = static_cast<std::uint32_t>(steps.size());
  out.reduce_axes = {axis};
  return std::nullopt;
}

/// The terms of the inter-slice reducer at `st` (docs/vector-engine.md §3.7): the coordinates each
/// slice of a reduction group holds on the reduced axes, in ring order (slice 0 first), one lane
/// per step.
std::optional<std::string> inter_shape(const Stage& st, VectorChain& out, VectorCall& call) {
  if (!call.reduce) return "internal: an inter-slice reduce without its op";
  const auto group =
      verify::inter_reduced_slices(st.input.mapping(Slot::Slice), st.output.mapping(Slot::Slice));
  if (!group) return "internal: the inter-slice reducer has no reduction group";
  std::set<std::string> axes;
  for (std::uint64_t q = 0; q < group->size(); ++q) {
    const Cell c = eval(*group, q);
    if (!c.is_live()) return "internal: the inter-slice reducer's group holds padding";
    for (const auto& [a, v] : c.index) axes.insert(a);
    out.reduce_terms.push_back(c.index);
  }
  for (const Factor& f : group->factors)
    if (f.is_term()) axes.insert(f.atom.name);
  if (out.reduce_terms.size() > kMaxReduceTerms)
    return fmt::format("tujit runs a reduce of at most {} terms per output element; this one "
                       "combines {}",
                       kMaxReduceTerms, out.reduce_terms.size());
  call.reduce->lanes = 1;
  call.reduce->steps = static_cast<std::uint32_t>(out.reduce_terms.size());
  out.reduce_axes.assign(axes.begin(), axes.end());
  out.across_slices = true;
  return std::nullopt;
}

} // namespace

bool is_value_step(const VectorCall& c) {
  return is_value_call(c.kind) || (c.kind == VectorCallKind::Tag && c.comparisons);
}

Status verify(const VectorProgram& p) {
  if (!ve_scalar(p.in_type) || !ve_scalar(p.out_type))
    return invalid(fmt::format("enters with {} or leaves with {}: the Vector Engine computes on "
                               "i32 and f32 only",
                               name(p.in_type), name(p.out_type)));
  // The stream's scalar before each step; after a reinterpret, either (`either`).
  ScalarType at = p.in_type;
  bool either = false;
  enum class Slot { Empty, Written, Read } stash = Slot::Empty;
  ScalarType stash_type = p.in_type;
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const VectorStepIR& st = p.steps[i];
    const VectorCall& c = st.call;
    const std::string call = fmt::format("step {} ({})", i, method_name(c.kind));
    if (!is_value_step(c)) return invalid(call + " is not a value call");
    if (!ve_scalar(st.dtype) || (!either && at != st.dtype))
      return invalid(fmt::format("{} reads a {} stream, but the stream is {}", call, name(st.dtype),
                                 either ? "i32 or f32" : name(at)));
    if (auto need = required_scalar(c.kind); need && *need != st.dtype)
      return invalid(fmt::format("{} runs on {} streams only", call, name(*need)));
    if (!op_matches(c)) return invalid(call + " holds an op of another kind");
    if (c.int_width > 31) return invalid(fmt::format("{} has int_width {}", call, c.int_width));
    if (c.reads_vrf() && !takes_operand(c.kind)) return invalid(call + " reads a VRF operand");
    if (auto bad = branch_defect(c)) return invalid(call + *bad);
    // The stash is written once, then read once, at its own scalar (docs/vector-engine.md §3.3).
    if (c.kind == VectorCallKind::Stash) {
      if (stash != Slot::Empty) return invalid(call + " writes the stash a second time");
      stash = Slot::Written;
      stash_type = st.dtype;
    }
    if (c.reads_stash()) {
      if (!takes_operand(c.kind) || stash != Slot::Written || stash_type != st.dtype)
        return invalid(call + " reads a stash that is not written with its scalar, or read");
      stash = Slot::Read;
    }
    either = c.kind == VectorCallKind::Reinterpret;
    at = c.kind == VectorCallKind::FxpToFp   ? ScalarType::F32
         : c.kind == VectorCallKind::FpToFxp ? ScalarType::I32
                                             : st.dtype;
  }
  if (auto bad = pair_defect(p)) return invalid(*bad);
  if (auto bad = reduce_defect(p)) return invalid(*bad);
  if (!either && at != p.out_type)
    return invalid(
        fmt::format("hands on {} but says it leaves with {}", name(at), name(p.out_type)));
  return {};
}

bool is_value_call(VectorCallKind k) {
  switch (k) {
  case VectorCallKind::Fxp:
  case VectorCallKind::Logic:
  case VectorCallKind::FxpToFp:
  case VectorCallKind::FpToFxp:
  case VectorCallKind::FpUnary:
  case VectorCallKind::FpBinary:
  case VectorCallKind::FpTernary:
  case VectorCallKind::FpDiv:
  case VectorCallKind::Clip:
  case VectorCallKind::Reinterpret:      // the bits stay; the scalar they are read as changes
  case VectorCallKind::Stash:            // the value a later `Stash` operand reads
  case VectorCallKind::Unzip:            // pair mode: group 1 enters (docs/vector-engine.md §3.5)
  case VectorCallKind::IntraSliceReduce: // the terms combine (§3.6)
  case VectorCallKind::InterSliceReduce: // the slices' terms combine (§3.7)
    return true;
  default:
    return false;
  }
}

Result<VectorChain> lower_vector(const Kernel& kernel, std::size_t final_index) {
  const SourceSpan span =
      final_index < kernel.stages.size() ? kernel.stages[final_index].name_span : SourceSpan{};
  if (final_index >= kernel.stages.size() || !kernel.stages[final_index].vector ||
      kernel.stages[final_index].vector->kind != VectorCallKind::Final)
    return lower_error("internal: lower_vector needs a vector_final stage", span);
  std::vector<const Stage*> chain;
  for (std::optional<std::size_t> at = final_index; at;) {
    const Stage& s = kernel.stages[*at];
    if (!s.vector) break; // not a Vector Engine call
    if (s.vector->kind == VectorCallKind::Init) {
      VectorChain out;
      out.init = *at;
      out.program.in_type = s.input.dtype;
      out.program.out_type = kernel.stages[final_index].output.dtype;
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        if (is_value_step(*(*it)->vector))
          out.program.steps.push_back(VectorStepIR{*(*it)->vector, (*it)->input.dtype});
        if ((*it)->vector->kind == VectorCallKind::IntraSliceReduce)
          if (auto bad = reduce_shape(**it, out, out.program.steps.back().call))
            return lower_error(*bad, (*it)->name_span);
        if ((*it)->vector->kind == VectorCallKind::InterSliceReduce)
          if (auto bad = inter_shape(**it, out, out.program.steps.back().call))
            return lower_error(*bad, (*it)->name_span);
        if ((*it)->vector->kind == VectorCallKind::Unzip && !(*it)->type_args.empty())
          if (const FactorList a = factorize((*it)->type_args[0].mapping); !a.factors.empty())
            out.group_axis = a.factors.front().atom.name;
      }
      if (auto ok = verify(out.program); !ok) return ok.diagnostics();
      return out;
    }
    chain.push_back(&s);
    at = s.producer;
  }
  return lower_error("this vector_final does not end a vector_init chain", span);
}

std::string to_text(const VectorProgram& p) {
  std::string s = fmt::format("  vector pass  {} → {}", name(p.in_type), name(p.out_type));
  if (p.steps.empty()) s += " (no value call)";
  s += "\n";
  for (const VectorStepIR& st : p.steps)
    s += fmt::format("    {}   ({} stream)\n", st.call.describe(), name(st.dtype));
  return s;
}

} // namespace tujit::ir::seq

#include "ir/lang/vector_branch_args.h"

#include <fmt/format.h>

#include <string_view>

namespace tujit::ir::lang {

namespace {

constexpr std::string_view kTagPage = "docs/vector-engine.md §3.4";

bool is_path_call(const Expr& e, std::string_view type, std::string_view name) {
  return e.kind == Expr::Kind::PathCall && e.path.size() == 2 && e.path[0] == type &&
         e.name == name;
}

void bad_arg(const VeArgContext& cx, std::string msg, SourceSpan span) {
  cx.error("E-VE-015", std::move(msg), span,
           {fmt::format("tags, guards and Branched operands are written as {} shows", kTagPage)});
}

void slot_error(const VeArgContext& cx, std::string msg, SourceSpan span, std::string why) {
  cx.error("E-VE-021", std::move(msg), span,
           {std::move(why), fmt::format("a pass has three immediate slots and one register-file "
                                        "slot, matched in call order ({})",
                                        kTagPage)});
}

std::optional<VeCmp> type_cmp(const Expr& e, const VeArgContext& cx) {
  const bool path = (e.kind == Expr::Kind::Path || e.kind == Expr::Kind::PathCall) &&
                    e.path.size() == 2 && e.path[0] == "Cmp";
  const auto kind = path ? parse_cmp_kind(e.name) : std::nullopt;
  if (!kind) {
    bad_arg(cx,
            "each comparison of `TagMode::Comparison` is a `Cmp` variant: `Cmp::Equal(b)`, "
            "`Less(b)`, `Greater(b)`, `LessUnsigned(b)`, `GreaterUnsigned(b)`, `Cmp::True` or "
            "`Cmp::False`",
            e.span);
    return std::nullopt;
  }
  VeCmp c{*kind, 0};
  const bool takes = has_boundary(*kind);
  const bool written = e.kind == Expr::Kind::PathCall;
  if (takes != written || (written && e.args.size() != 1)) {
    bad_arg(cx,
            takes ? fmt::format("`Cmp::{}` carries its boundary: `Cmp::{}(b)`", e.name, e.name)
                  : fmt::format("`Cmp::{}` takes no boundary", e.name),
            e.span);
    return std::nullopt;
  }
  if (takes && !cx.constant(e.args[0], c.boundary)) return std::nullopt;
  return c;
}

std::optional<BitReq> type_bit_req(const Expr& e, const VeArgContext& cx) {
  // `One` (imported with `use …::BitReq::{Ignore, One, Zero}`) or `BitReq::One`.
  std::optional<BitReq> r;
  if (e.kind == Expr::Kind::Name) r = parse_bit_req(e.name);
  if (e.kind == Expr::Kind::Path && e.path.size() == 2 && e.path[0] == "BitReq")
    r = parse_bit_req(e.name);
  if (!r) bad_arg(cx, "a guard's pattern holds `BitReq` values: `One`, `Zero` or `Ignore`", e.span);
  return r;
}

/// One link of a `Branched` chain: `imm` or `rf`, its guard and its payload.
struct Link {
  bool imm = true;
  const Expr* call = nullptr;
};

/// The chain's links in call order; empty when `e` is not a Branched chain.
std::vector<Link> links_of(const Expr& e) {
  std::vector<Link> out;
  const Expr* at = &e;
  while (at->kind == Expr::Kind::MethodCall && (at->name == "imm" || at->name == "rf")) {
    out.push_back(Link{at->name == "imm", at});
    at = at->inner.get();
  }
  if (!(is_path_call(*at, "Branched", "imm") || is_path_call(*at, "Branched", "rf"))) return {};
  out.push_back(Link{at->name == "imm", at});
  return {out.rbegin(), out.rend()};
}

bool is_stash(const Expr& e) {
  return e.kind == Expr::Kind::Name && e.name == "Stash";
}
bool is_tensor(const Expr& e) {
  return e.kind == Expr::Kind::Ref || (e.kind == Expr::Kind::Name && !is_stash(e));
}

/// An imm slot's payload: a constant, or (ternary) a pair of constants.
bool imm_payload(const Expr& p, bool ternary, VeSlot& slot, const VeArgContext& cx) {
  if (!ternary) return cx.constant(p, slot.operand[0]);
  if (p.kind != Expr::Kind::Tuple || p.args.size() != 2) {
    bad_arg(cx, "a ternary op's `imm` slot holds a pair of constants `(operand0, operand1)`",
            p.span);
    return false;
  }
  return cx.constant(p.args[0], slot.operand[0]) && cx.constant(p.args[1], slot.operand[1]);
}

/// The rf slot's payload: `&vrf` or `Stash`, or (ternary) `(&vrf, c)` / `(Stash, c)`.
bool rf_payload(const Expr& p, bool ternary, VectorCall& v, const VeArgContext& cx) {
  const Expr* read = &p;
  if (ternary) {
    if (p.kind != Expr::Kind::Tuple || p.args.size() != 2) {
      bad_arg(cx, "a ternary op's `rf` slot holds `(&vrf, operand1)` or `(Stash, operand1)`",
              p.span);
      return false;
    }
    read = &p.args[0];
    if (!cx.constant(p.args[1], v.branches->rf_operand1)) return false;
  }
  if (is_stash(*read)) {
    v.source = VeOperandSource::Stash; // the chain's rules: E-VE-019, E-VE-020
    return true;
  }
  if (is_tensor(*read)) {
    v.source = VeOperandSource::Vrf; // typed by sema (E-VE-016 … 018)
    return true;
  }
  bad_arg(cx,
          "the `rf` slot reads the register file: a VRF tensor `&vrf` or the `Stash`; a constant "
          "goes in an `imm` slot",
          read->span);
  return false;
}

/// The book's slot-layout rules (docs/vector-engine.md §3.4): three imm, one rf and last; no dead
/// guard; nothing after an unconditional slot.
bool layout_rules(const Link& l, const TagGuard& g, const VeBranches& b,
                  const std::optional<std::size_t>& unconditional, std::size_t index,
                  const VeArgContext& cx) {
  const SourceSpan span = l.call->name_span;
  if (b.rf) {
    slot_error(cx,
               fmt::format("`{}` after the `rf` slot: the register-file slot is the last",
                           l.imm ? "imm" : "rf"),
               span,
               l.imm ? "fill the immediate slots first, then `rf`"
                     : "a pass reads the register file once (this also stops a second stash "
                       "read)");
    return false;
  }
  if (l.imm && b.imm.size() == kImmSlots) {
    slot_error(cx, "a fourth `imm` slot: a pass has three immediate registers", span,
               "drop one of the earlier `imm` calls, or move a register read to `rf`");
    return false;
  }
  if (g.matches_nothing()) {
    slot_error(cx,
               fmt::format("slot {} is guarded by `{}`, which admits no tag: it could never "
                           "fire",
                           index, g.describe()),
               l.call->args.empty() ? span : l.call->args[0].span,
               "`not_matches([Ignore, Ignore, Ignore, Ignore])` negates the pattern every tag "
               "satisfies; drop the slot");
    return false;
  }
  if (unconditional) {
    slot_error(cx,
               fmt::format("slot {} follows slot {}, which is unconditional (`TagGuard::all()`) "
                           "and claims every element the earlier guards left: slot {} could "
                           "never fire",
                           index, *unconditional, index),
               span, "fill it before the unconditional slot, or guard the unconditional one");
    return false;
  }
  return true;
}

} // namespace

std::optional<TagComparisons> type_tag_comparisons(const Expr& mode, const VeArgContext& cx) {
  if (mode.args.size() != 1 || mode.args[0].kind != Expr::Kind::Array ||
      mode.args[0].args.size() != kTagBits) {
    bad_arg(cx,
            "`TagMode::Comparison` takes an array of four comparisons, one per tag bit (LSB "
            "first): `TagMode::Comparison([Cmp::Less(0), Cmp::Equal(5), Cmp::Greater(100), "
            "Cmp::True])`",
            mode.span);
    return std::nullopt;
  }
  TagComparisons out{};
  for (std::size_t i = 0; i < kTagBits; ++i) {
    auto c = type_cmp(mode.args[0].args[i], cx);
    if (!c) return std::nullopt;
    out[i] = *c;
  }
  return out;
}

bool is_tag_guard_expr(const Expr& e) {
  return e.kind == Expr::Kind::PathCall && e.path.size() == 2 && e.path[0] == "TagGuard";
}

std::optional<TagGuard> type_tag_guard(const Expr& e, const VeArgContext& cx) {
  if (e.kind == Expr::Kind::Name) {
    if (auto it = cx.bound.find(e.name); it != cx.bound.end())
      return type_tag_guard(*it->second, cx);
  }
  TagGuard g;
  if (is_path_call(e, "TagGuard", "all") && e.args.empty()) return g;
  if (is_path_call(e, "TagGuard", "group") && e.args.size() == 1) {
    const Expr& id = e.args[0];
    if (id.kind == Expr::Kind::Path && id.path.size() == 2 && id.path[0] == "GroupId" &&
        (id.name == "Zero" || id.name == "One")) {
      g.bits[kTagBits - 1] = id.name == "One" ? BitReq::One : BitReq::Zero;
      return g;
    }
    bad_arg(cx, "`TagGuard::group` takes `GroupId::Zero` or `GroupId::One`", id.span);
    return std::nullopt;
  }
  const bool matches = is_path_call(e, "TagGuard", "matches");
  if (matches || is_path_call(e, "TagGuard", "not_matches")) {
    if (e.args.size() != 1 || e.args[0].kind != Expr::Kind::Array ||
        e.args[0].args.size() != kTagBits) {
      bad_arg(cx,
              fmt::format("`TagGuard::{}` takes a pattern of four `BitReq`, LSB first: "
                          "`[One, Ignore, Ignore, Ignore]`",
                          e.name),
              e.span);
      return std::nullopt;
    }
    for (std::size_t i = 0; i < kTagBits; ++i) {
      auto r = type_bit_req(e.args[0].args[i], cx);
      if (!r) return std::nullopt;
      g.bits[i] = *r;
    }
    g.negate = !matches;
    return g;
  }
  bad_arg(cx,
          "a guard is `TagGuard::all()`, `TagGuard::matches([…])`, `TagGuard::not_matches([…])`, "
          "`TagGuard::group(GroupId::…)` or a `let` binding of one",
          e.span);
  return std::nullopt;
}

bool is_branched(const Expr& e) {
  return !links_of(e).empty();
}

bool type_branched(const Expr& e, bool ternary, VectorCall& v, const VeArgContext& cx) {
  v.branches = VeBranches{};
  VeBranches& b = *v.branches;
  std::optional<std::size_t> unconditional;
  std::size_t index = 0;
  for (const Link& l : links_of(e)) {
    if (l.call->args.size() != 2) {
      bad_arg(cx,
              fmt::format("`{}` takes a guard and a payload: `{}(guard, value)`",
                          l.imm ? "imm" : "rf", l.imm ? "imm" : "rf"),
              l.call->span);
      return false;
    }
    auto g = type_tag_guard(l.call->args[0], cx);
    if (!g || !layout_rules(l, *g, b, unconditional, index, cx)) return false;
    if (g->unconditional()) unconditional = index;
    if (l.imm) {
      VeSlot slot{*g, {}};
      if (!imm_payload(l.call->args[1], ternary, slot, cx)) return false;
      b.imm.push_back(slot);
    } else {
      b.rf = true;
      b.rf_guard = *g;
      if (!rf_payload(l.call->args[1], ternary, v, cx)) return false;
    }
    ++index;
  }
  return true;
}

const Expr* branched_rf_tensor(const Expr& e, bool ternary) {
  for (const Link& l : links_of(e)) {
    if (l.imm || l.call->args.size() != 2) continue;
    const Expr& p = l.call->args[1];
    const Expr* read = ternary && p.kind == Expr::Kind::Tuple && !p.args.empty() ? &p.args[0] : &p;
    return is_tensor(*read) ? read : nullptr;
  }
  return nullptr;
}

const Expr* type_guarded_unary(const Expr& pair, VectorCall& v, const VeArgContext& cx) {
  if (pair.args.size() != 2) {
    bad_arg(cx, "a guarded op is a pair `(guard, FpUnaryOp::…)`", pair.span);
    return nullptr;
  }
  auto g = type_tag_guard(pair.args[0], cx);
  if (!g) return nullptr;
  if (g->matches_nothing()) {
    slot_error(cx,
               fmt::format("the op is guarded by `{}`, which admits no tag: it would never run",
                           g->describe()),
               pair.args[0].span, "drop the op, or guard it with a pattern some tag satisfies");
    return nullptr;
  }
  v.guard = *g;
  return &pair.args[1];
}

} // namespace tujit::ir::lang

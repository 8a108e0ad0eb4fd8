#include "ir/lang/loop_unroll.h"

#include <memory>

namespace tujit::ir::lang {
namespace {

Expr substituted(const Expr& e, std::string_view name, std::int64_t value) {
  Expr out;
  if (e.kind == Expr::Kind::Name && e.name == name) {
    out.kind = Expr::Kind::Int;
    out.span = e.span;
    out.int_value = value;
    return out;
  }
  out.kind = e.kind;
  out.span = e.span;
  out.name = e.name;
  out.name_span = e.name_span;
  if (e.inner) out.inner = std::make_unique<Expr>(substituted(*e.inner, name, value));
  out.ref_mut = e.ref_mut;
  out.has_turbofish = e.has_turbofish;
  out.targs = e.targs;
  out.args.reserve(e.args.size());
  for (const Expr& a : e.args) out.args.push_back(substituted(a, name, value));
  out.int_value = e.int_value;
  out.int_overflow = e.int_overflow;
  out.float_value = e.float_value;
  out.float_text = e.float_text;
  out.path = e.path;
  out.field_names = e.field_names;
  out.field_spans = e.field_spans;
  return out;
}

Stmt copied(const Stmt& s, std::string_view name, std::int64_t value, bool active) {
  Stmt out;
  out.kind = s.kind;
  out.span = s.span;
  out.name = s.name;
  out.name_span = s.name_span;
  out.annotation = s.annotation;
  if (s.value)
    out.value = active ? substituted(*s.value, name, value) : substituted(*s.value, {}, 0);
  out.from = s.from;
  out.to = s.to;
  // A nested loop over the same name shadows this one inside its body.
  const bool inner_active = active && !(s.kind == Stmt::Kind::For && s.name == name);
  out.body = inner_active ? loop_iteration(s.body, name, value) : loop_iteration(s.body, {}, 0);
  return out;
}

} // namespace

std::vector<Stmt> loop_iteration(const std::vector<Stmt>& body, std::string_view name,
                                 std::int64_t value) {
  std::vector<Stmt> out;
  out.reserve(body.size());
  bool active = !name.empty();
  for (const Stmt& s : body) {
    out.push_back(copied(s, name, value, active));
    if (s.kind == Stmt::Kind::Let && s.name == name) active = false; // rebinds the name
  }
  return out;
}

} // namespace tujit::ir::lang

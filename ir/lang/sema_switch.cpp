// Typing of the Switch Engine's configuration argument (docs/switch.md §1): the struct literal
// `SwitchConfig::Variant { field: value, … }` becomes an ir::SwitchConfig. Only the shape of the
// literal is checked here; what the values mean is the verifier's (ir/verify/switch.h).
#include "ir/lang/sema_typer.h"

#include <fmt/format.h>

#include <array>
#include <string>
#include <string_view>

namespace tujit::ir {

std::string_view to_string(SwitchKind k) {
  switch (k) {
  case SwitchKind::Broadcast01:
    return "Broadcast01";
  case SwitchKind::Broadcast1:
    return "Broadcast1";
  case SwitchKind::Transpose:
    return "Transpose";
  case SwitchKind::InterTranspose:
    return "InterTranspose";
  case SwitchKind::TransposedBroadcast1:
    return "TransposedBroadcast1";
  case SwitchKind::CustomBroadcast:
    return "CustomBroadcast";
  }
  return "?";
}

namespace lang::detail {

namespace {

/// A variant and the fields it has, in the book's order.
struct VariantFields {
  SwitchKind kind;
  std::array<std::string_view, 3> fields; // empty entries unused
};

constexpr VariantFields kVariants[] = {
    {SwitchKind::Broadcast01, {"slice1", "slice0", "time0"}},
    {SwitchKind::Broadcast1, {"slice1", "slice0", ""}},
    {SwitchKind::Transpose, {"slice1", "slice0", ""}},
    {SwitchKind::InterTranspose, {"slice1", "slice0", "time0"}},
    {SwitchKind::TransposedBroadcast1, {"slice1", "slice0", ""}},
    {SwitchKind::CustomBroadcast, {"ring_size", "", ""}},
};

const VariantFields* find_variant(std::string_view name) {
  for (const auto& v : kVariants)
    if (to_string(v.kind) == name) return &v;
  return nullptr;
}

std::string field_list(const VariantFields& v) {
  std::string out;
  for (std::string_view f : v.fields)
    if (!f.empty()) out += fmt::format("{}{}: …", out.empty() ? "" : ", ", f);
  return out;
}

std::uint64_t* field_slot(SwitchConfig& c, std::string_view f) {
  if (f == "slice1") return &c.slice1;
  if (f == "slice0") return &c.slice0;
  if (f == "time0") return &c.time0;
  if (f == "ring_size") return &c.ring_size;
  return nullptr;
}

} // namespace

bool KernelTyper::refuse_struct_literal(const Expr& lit) {
  // The one struct the kernel language has is the Switch Engine's configuration (docs/switch.md
  // §1); any other is refused rather than misread, but for the struct-like `TagMode::AxisToggle`,
  // which `vector_intra_slice_tag` refuses with its own rule (E-VE-022, docs/vector-engine.md
  // §3.4).
  if (lit.path.size() == 2 && lit.path[0] == "SwitchConfig") return false;
  if (lit.path.size() == 2 && lit.path[0] == "TagMode" && lit.path[1] == "AxisToggle") return false;
  std::string path;
  for (const std::string& seg : lit.path) path += (path.empty() ? "" : "::") + seg;
  error("E-PARSE-208",
        fmt::format("struct literal `{} {{ … }}` is not part of the kernel language", path),
        lit.span,
        {"the only struct literal a kernel writes is `SwitchConfig::Variant { field: value, … }`, "
         "the argument of `switch` (docs/switch.md §1)"});
  return true;
}

bool KernelTyper::type_switch_config(const Expr& call, Stage& st) {
  static constexpr const char* kVariantsNote =
      "the variants are Broadcast01 { slice1, slice0, time0 }, Broadcast1 { slice1, slice0 }, "
      "Transpose { slice1, slice0 }, InterTranspose { slice1, slice0, time0 }, "
      "TransposedBroadcast1 { slice1, slice0 } and CustomBroadcast { ring_size } (docs/switch.md "
      "§1)";
  if (call.args.size() != 1 || call.args[0].kind != Expr::Kind::StructLit) {
    error("E-TYPE-016", "`switch` takes one argument: a `SwitchConfig::Variant { … }` literal",
          call.args.empty() ? call.span : call.args[0].span, {kVariantsNote});
    return false;
  }
  const Expr& lit = call.args[0];
  if (refuse_struct_literal(lit)) return false;
  const VariantFields* v = lit.path.size() == 2 ? find_variant(lit.path[1]) : nullptr;
  if (v == nullptr) {
    error("E-TYPE-027", fmt::format("`{}` is not a Switch Engine configuration", lit.path.back()),
          lit.name_span.length ? lit.name_span : lit.span, {kVariantsNote});
    return false;
  }
  SwitchConfig c;
  c.kind = v->kind;
  c.span = lit.span;
  std::array<bool, 3> seen{};
  for (std::size_t i = 0; i < lit.field_names.size(); ++i) {
    const std::string& f = lit.field_names[i];
    std::size_t at = v->fields.size();
    for (std::size_t j = 0; j < v->fields.size(); ++j)
      if (!v->fields[j].empty() && v->fields[j] == f) at = j;
    if (at == v->fields.size() || seen[at]) {
      error("E-TYPE-027",
            fmt::format("`{}` {} field `{}`", to_string(v->kind),
                        at == v->fields.size() ? "has no" : "repeats the", f),
            lit.field_spans[i],
            {fmt::format("write `SwitchConfig::{} {{ {} }}`", to_string(v->kind), field_list(*v))});
      return false;
    }
    seen[at] = true;
    const Expr& value = lit.args[i];
    if (value.kind != Expr::Kind::Int || value.int_overflow || value.int_value < 0) {
      error("E-TYPE-027",
            fmt::format("field `{}` of `{}` takes a non-negative integer literal", f,
                        to_string(v->kind)),
            value.span);
      return false;
    }
    *field_slot(c, f) = static_cast<std::uint64_t>(value.int_value);
  }
  for (std::size_t j = 0; j < v->fields.size(); ++j) {
    if (v->fields[j].empty() || seen[j]) continue;
    error("E-TYPE-027", fmt::format("`{}` lacks its field `{}`", to_string(v->kind), v->fields[j]),
          lit.span,
          {fmt::format("write `SwitchConfig::{} {{ {} }}`", to_string(v->kind), field_list(*v))});
    return false;
  }
  st.switch_config = c;
  return true;
}

} // namespace lang::detail
} // namespace tujit::ir

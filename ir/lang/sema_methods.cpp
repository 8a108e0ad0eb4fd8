#include "ir/lang/sema_methods.h"

#include <fmt/format.h>

namespace tujit::ir::lang {

namespace {

MethodInfo vector(std::string_view name, VectorCallKind kind, TensorKind input,
                  std::vector<StageTypeParam> params = {}) {
  const std::size_t n = params.size();
  MethodInfo m{name, StageOp::Vector, input, std::move(params), n};
  m.vector = kind;
  if (kind == VectorCallKind::Init) m.alt_inputs = {TensorKind::Contract};
  return m;
}

const std::vector<MethodInfo>& methods() {
  static const std::vector<MethodInfo> table = [] {
    std::vector<MethodInfo> t;
    for (const StageDescriptor& d : stage_descriptors()) {
      if (d.unit == StageUnit::VectorEngine) continue; // its calls are listed below
      t.push_back({d.method,
                   d.op,
                   d.input,
                   {d.params.begin(), d.params.end()},
                   d.min_targs,
                   {d.alt_inputs.begin(), d.alt_inputs.end()}});
    }
    using K = VectorCallKind;
    const TensorKind v = TensorKind::Vector;
    const StageTypeParam time2{"Time2", false, Slot::Time};
    const StageTypeParam packet2{"Packet2", false, Slot::Packet};
    t.push_back(vector("vector_init", K::Init, TensorKind::Collect));
    t.push_back(vector("vector_intra_slice_tag", K::Tag, v));
    t.push_back(vector("vector_narrow_split", K::NarrowSplit, v, {time2, packet2}));
    t.push_back(vector("vector_narrow_trim", K::NarrowTrim, v, {packet2}));
    t.push_back(vector("vector_widen_concat", K::WidenConcat, v, {time2, packet2}));
    t.push_back(vector("vector_widen_pad", K::WidenPad, v, {packet2}));
    for (std::string_view name :
         {"vector_fp_unary", "vector_fp_binary", "vector_fp_binary_with_mode", "vector_fp_ternary",
          "vector_fp_ternary_with_mode", "vector_fp_div", "vector_fp_div_with_mode", "vector_fxp",
          "vector_fxp_with_mode", "vector_logic", "vector_logic_with_mode", "vector_clip",
          "vector_clip_with_mode", "vector_fxp_to_fp", "vector_fp_to_fxp"}) {
      const std::string_view base = name.substr(0, name.rfind("_with_mode"));
      K kind = K::FpUnary;
      if (base == "vector_fp_binary") kind = K::FpBinary;
      if (base == "vector_fp_ternary") kind = K::FpTernary;
      if (base == "vector_fp_div") kind = K::FpDiv;
      if (base == "vector_fxp") kind = K::Fxp;
      if (base == "vector_logic") kind = K::Logic;
      if (base == "vector_clip") kind = K::Clip;
      if (base == "vector_fxp_to_fp") kind = K::FxpToFp;
      if (base == "vector_fp_to_fxp") kind = K::FpToFxp;
      t.push_back(vector(name, kind, v));
    }
    t.push_back(vector("vector_reinterpret", K::Reinterpret, v, {{"D2", true, std::nullopt}}));
    t.push_back(vector("vector_final", K::Final, v));
    t.push_back(vector("vector_stash", K::Stash, v));
    // Pair mode (docs/vector-engine.md §3.5): `I` is the grouping axis (a name, typed as the
    // mapping of the whole axis), TileTime one group's tile of Time, SplitTime its Time.
    t.push_back(vector("vector_intra_slice_unzip", K::Unzip, v,
                       {{"I", false, std::nullopt},
                        {"TileTime", false, std::nullopt},
                        {"SplitTime", false, Slot::Time}}));
    // The intra-slice reduce (docs/vector-engine.md §3.6): `Axis` names the reduced axis.
    t.push_back(vector("vector_intra_slice_reduce", K::IntraSliceReduce, v,
                       {{"Axis", false, std::nullopt}, time2, packet2}));
    // The inter-slice reducer (§3.7): Slice and Time rewritten, Packet kept.
    t.push_back(vector("vector_inter_slice_reduce", K::InterSliceReduce, v,
                       {{"Slice2", false, Slot::Slice}, time2}));
    for (std::string_view name :
         {"vector_logic_zip", "vector_logic_zip_with_mode", "vector_fxp_zip",
          "vector_fxp_zip_with_mode", "vector_fp_zip", "vector_fp_zip_with_mode", "vector_clip_zip",
          "vector_clip_zip_with_mode"}) {
      const std::string_view base = name.substr(0, name.find("_zip"));
      K kind = K::Clip;
      if (base == "vector_logic") kind = K::Logic;
      if (base == "vector_fxp") kind = K::Fxp;
      if (base == "vector_fp") kind = K::FpBinary;
      t.push_back(vector(name, kind, v));
    }
    return t;
  }();
  return table;
}

} // namespace

const MethodInfo* find_method(std::string_view name, std::optional<TensorKind> on) {
  const MethodInfo* first = nullptr;
  for (const auto& m : methods()) {
    if (m.name != name) continue;
    if (!on || m.accepts(*on)) return &m;
    if (first == nullptr) first = &m;
  }
  return first;
}

std::string method_inputs_text(std::string_view name) {
  std::vector<TensorKind> kinds;
  for (const auto& m : methods()) {
    if (m.name != name) continue;
    kinds.push_back(m.input);
    kinds.insert(kinds.end(), m.alt_inputs.begin(), m.alt_inputs.end());
  }
  std::string out;
  for (std::size_t i = 0; i < kinds.size(); ++i)
    out += fmt::format("{}{}",
                       i == 0                  ? ""
                       : i + 1 == kinds.size() ? " or "
                                               : ", ",
                       tensor_type_name(kinds[i]));
  return out;
}

std::string known_methods() {
  std::string out = "begin, begin_interleaved, view";
  std::string_view last;
  for (const auto& m : methods()) {
    if (m.name == last) continue; // one name, several receivers (`reshape`)
    out += fmt::format(", {}", m.name);
    last = m.name;
  }
  return out;
}

TensorKind output_kind(const MethodInfo& m) {
  if (m.vector == VectorCallKind::Final) return TensorKind::VectorFinal;
  return descriptor(m.op).output;
}

} // namespace tujit::ir::lang

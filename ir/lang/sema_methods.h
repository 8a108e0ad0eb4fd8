// The methods of the kernel language's typestate chain (docs/kernel-language.md §6): every stage
// operation's method from its descriptor (ir/lang/stage_descriptor.h), and each Vector Engine
// call, which are one operation with their own type arguments. Used by the kernel typer
// (sema.cpp).
#pragma once

#include "ir/lang/kernel.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::ir::lang {

struct MethodInfo {
  std::string_view name;
  StageOp op;
  TensorKind input;
  std::vector<StageTypeParam> params; // type arguments
  std::size_t min_targs;              // when a turbofish is written
  /// Further tensor kinds the method is also called on (vector_init: Contract; to_vrf:
  /// VectorFinal).
  std::vector<TensorKind> alt_inputs = {};
  std::optional<VectorCallKind> vector = std::nullopt; // a Vector Engine call

  bool accepts(TensorKind k) const {
    return k == input || std::find(alt_inputs.begin(), alt_inputs.end(), k) != alt_inputs.end();
  }
};

/// The method `name` called on a tensor of kind `on`: one name may be several operations, one per
/// receiver (`reshape` of a VrfTensor or a DmTensor). The first of that name when none accepts
/// `on` (the caller reports the wrong receiver); nullptr for an unknown name.
const MethodInfo* find_method(std::string_view name, std::optional<TensorKind> on = std::nullopt);
/// The receivers of every method named `name`: "VrfTensor or DmTensor".
std::string method_inputs_text(std::string_view name);
/// "begin, view, fetch, …" for E-TYPE-008's note.
std::string known_methods();
/// The tensor kind a method produces.
TensorKind output_kind(const MethodInfo& m);

} // namespace tujit::ir::lang

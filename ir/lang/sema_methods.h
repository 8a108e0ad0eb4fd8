// The methods of the kernel language's typestate chain (furiosa-opt-std/src/engine/mod.rs
// "Pipeline graph"): for each method, the tensor it is called on, its type arguments, the stage it
// becomes and the tensor it produces. Used by the kernel typer (sema.cpp).
#pragma once

#include "ir/lang/kernel.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::ir::lang {

struct MethodParam {
  std::string_view name;
  bool scalar = false;
};

struct MethodInfo {
  std::string_view name;
  StageOp op;
  TensorKind input;
  std::vector<MethodParam> params; // type arguments
  std::size_t min_targs;           // when a turbofish is written
  /// A second tensor kind the method is also called on (vector_init: Collect or Contract;
  /// to_vrf: Collect or VectorFinal).
  std::optional<TensorKind> alt_input = std::nullopt;
  std::optional<VectorCallKind> vector = std::nullopt; // StageOp::Vector

  bool accepts(TensorKind k) const { return k == input || (alt_input && k == *alt_input); }
  /// "CollectTensor" or "CollectTensor or ContractTensor".
  std::string inputs_text() const;
};

const MethodInfo* find_method(std::string_view name);
/// "begin, view, fetch, …" for E-TYPE-008's note.
std::string known_methods();
/// The output slot a method's type argument `i` lands in (for inference from an expected type).
std::optional<Slot> output_slot(const MethodInfo& m, std::size_t i);
/// The tensor kind a method produces.
TensorKind output_kind(const MethodInfo& m);

} // namespace tujit::ir::lang

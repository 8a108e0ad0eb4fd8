#include "ir/verify/operand_types.h"

#include <fmt/format.h>
#include <string>

namespace tujit::ir::verify {

DerivedTable OperandTypesDerived::to_table(const OperandTypesInput& in) const {
  return DerivedTable{{"accumulator", std::string(name(accumulator))},
                      {"stream_type", std::string(name(in.stream))},
                      {"weight_type", std::string(name(in.weight))}};
}

Result<OperandTypesDerived> verify_operand_types(const OperandTypesInput& in) {
  const std::optional<ScalarType> acc = contraction_accumulator(in.stream, in.weight);
  if (!acc) {
    std::string why = explain_contraction_refusal(in.stream, in.weight);
    return rule_error(
        "E-OUTER-001", "contract_outer", "OperandPair",
        fmt::format("the Multiplier has no MAC for stream {} × TRF {}", name(in.stream),
                    name(in.weight)),
        {why.empty() ? std::string("accepted pairs: i4/i5 × i4/i5, i8/i9 × i8/i9, f8e4m3 × "
                                   "f8e4m3, f8e5m2 × f8e5m2, bf16 × bf16")
                     : why,
         "fix: cast one operand in the Fetch Adapter so both are in one family, or do the "
         "contraction on the Vector Engine (multiply + intra-slice reduce)"});
  }
  return OperandTypesDerived{*acc, wire_bits(in.stream), wire_bits(in.weight)};
}

} // namespace tujit::ir::verify

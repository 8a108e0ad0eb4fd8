#include "ir/verify/to_vrf.h"

#include "ir/target/rngd.h"
#include "ir/verify/outer_util.h"

#include <fmt/format.h>

namespace tujit::ir::verify {

using namespace outer_detail;

DerivedTable ToVrfDerived::to_table() const {
  return DerivedTable{{"bytes", bytes}, {"capacity", capacity}};
}

Result<ToVrfDerived> verify_to_vrf(const ToVrfInput& in) {
  const target::TensorUnitDescription& tu = target::kRngd;
  // The VRF feeds the Vector Engine, whose scalars are i32 and f32 only (docs/scalars.md §1).
  if (!is_vector_engine_scalar(in.dtype)) {
    return rule_error(
        "E-VRF-001", "to_vrf", "ElementType",
        fmt::format("to_vrf stores {} elements, but the VRF holds only i32 or f32 (Vector Engine "
                    "scalars)",
                    name(in.dtype)),
        {fmt::format("element type = {}", name(in.dtype)),
         "fix: widen the stream with fetch_cast (e.g. bf16 → f32, i8 → i32) before collect"});
  }
  const std::uint64_t bytes = bytes_of(in.dtype, in.element.size());
  if (bytes > tu.vrf_bytes) {
    return rule_error(
        "E-VRF-002", "to_vrf", "ExceedsCapacity",
        fmt::format("VRF data does not fit: Element {} holds {} {} elements = {} > capacity {} "
                    "per slice",
                    mtext(in.element), in.element.size(), name(in.dtype), bytes_text(bytes),
                    bytes_text(tu.vrf_bytes)),
        {fmt::format("bytes = {}, capacity = {}", bytes, tu.vrf_bytes),
         "fix: tile the operand so that one slice's share is at most 8192 bytes"});
  }
  return ToVrfDerived{bytes, tu.vrf_bytes};
}

} // namespace tujit::ir::verify

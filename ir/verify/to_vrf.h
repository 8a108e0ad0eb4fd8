// `to_vrf::<Element>()` (docs/contraction.md §4.3, docs/datapath.md §8.1): stores one slice's
// i32/f32 operand in the 8 KiB Vector Register File. Element is the user's relayout of [Time,
// Packet]; the VRF has no address modes, so one operand must fit the whole file.
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/stage_check.h"

#include <cstdint>

namespace tujit::ir::verify {

struct ToVrfInput {
  ScalarType dtype = ScalarType::F32;
  Mapping element; // declared VRF Element
};

struct ToVrfDerived {
  std::uint64_t bytes = 0;    // bytes(D, Element)
  std::uint64_t capacity = 0; // VRF bytes per slice
  /// Keys: bytes, capacity.
  DerivedTable to_table() const;
};

/// Rules, first failure wins: E-VRF-001 ElementType (i32/f32 only), E-VRF-002 ExceedsCapacity.
Result<ToVrfDerived> verify_to_vrf(const ToVrfInput& in);

} // namespace tujit::ir::verify

// Register-file stores of the reference interpreter (docs/contraction.md §4.2, §4.3):
//   to_trf: flit f (Time position) → lane f / FPL, elements (f mod FPL)·|Packet| … +|Packet|-1;
//           the i4→i5 / i8→i9 promotion inside the TRF is value-preserving, so the image keeps
//           the declared TRF type and the same (sign-extended) values.
//   to_vrf: Element is a relayout of [Time, Packet]: every live destination cell takes the live
//           source cell with the same coordinates; destination cells not written are zero-filled.
// Cell states travel with the values (Top stays Top, so poison is still tracked downstream).
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "runtime/device/device_image.h"

namespace tujit::runtime {

/// `stream` = the Collect output [spatial][|Time|][|Packet|]. Result [spatial][|Lane|][|Element|]
/// of type `trf_dtype`. Runs verify_to_trf first (its diagnostic on failure); E-RUN-102 when the
/// image does not match the mappings.
Result<DeviceImage> store_to_trf(const ir::Mapping& time, const ir::Mapping& packet,
                                 const ir::Mapping& lane, const ir::Mapping& element,
                                 ir::ScalarType trf_dtype, const DeviceImage& stream);

/// Result [spatial][1][|Element|]. Runs verify_to_vrf first.
Result<DeviceImage> store_to_vrf(const ir::Mapping& time, const ir::Mapping& packet,
                                 const ir::Mapping& element, ir::ScalarType vrf_dtype,
                                 const DeviceImage& stream);

/// The store of one kernel stage (a TRF or VRF store unit), from its input and output types.
Result<DeviceImage> run_store(const ir::Stage& stage, const DeviceImage& stream);

/// The first to_trf (resp. to_vrf) stage of `kernel`; E-RUN-101 when it has none.
Result<DeviceImage> run_to_trf(const ir::Kernel& kernel, const DeviceImage& stream);
Result<DeviceImage> run_to_vrf(const ir::Kernel& kernel, const DeviceImage& stream);

} // namespace tujit::runtime

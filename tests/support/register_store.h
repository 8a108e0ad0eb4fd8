// Register-file stores over device images, for the tests (docs/contraction.md §4.2, §4.3): the
// stage-by-stage semantics of a store, next to the run program that composes the store into its
// operand's address streams (ir/seq/operand_streams.h stored_operand).
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

namespace tujit::testing {

/// `stream` = the Collect output [spatial][|Time|][|Packet|]. Result [spatial][|Lane|][|Element|]
/// of type `trf_dtype`. Runs verify_to_trf first (its diagnostic on failure); E-RUN-102 when the
/// image does not match the mappings.
Result<runtime::DeviceImage> store_to_trf(const ir::Mapping& time, const ir::Mapping& packet,
                                          const ir::Mapping& lane, const ir::Mapping& element,
                                          ir::ScalarType trf_dtype,
                                          const runtime::DeviceImage& stream);

/// Result [spatial][1][|Element|]. Runs verify_to_vrf first.
Result<runtime::DeviceImage> store_to_vrf(const ir::Mapping& time, const ir::Mapping& packet,
                                          const ir::Mapping& element, ir::ScalarType vrf_dtype,
                                          const runtime::DeviceImage& stream);

/// The store of one kernel stage (a TRF or VRF store unit), from its input and output types.
Result<runtime::DeviceImage> run_store(const ir::Stage& stage, const runtime::DeviceImage& stream);

/// The first to_trf (resp. to_vrf) stage of `kernel`; E-RUN-101 when it has none.
Result<runtime::DeviceImage> run_to_trf(const ir::Kernel& kernel,
                                        const runtime::DeviceImage& stream);
Result<runtime::DeviceImage> run_to_vrf(const ir::Kernel& kernel,
                                        const runtime::DeviceImage& stream);

} // namespace tujit::testing

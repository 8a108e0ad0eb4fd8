// The logical contraction `tujit tune` searches kernels for (docs/tune.md §1): an einsum of two
// operands, the axis sizes and the operand types. The first operand is the stream (the Collect
// stream of contract_outer), the second the TRF operand; every axis gets the role the Contraction
// Engine gives it (docs/contraction.md §3): batch (both operands and the output), row (stream and
// output), column (TRF and output: the only axes Lane and the time broadcast can hold) and
// contracted (both operands, not the output: summed by the Packet and Time Reducers).
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::tune {

enum class AxisRole : std::uint8_t { Batch, Row, Col, Contracted };
std::string_view role_name(AxisRole r);

/// The most axes one problem may have (each takes up to five digits of a kernel's mappings).
inline constexpr std::size_t kMaxAxes = 8;
/// The largest size of one axis (sizes multiply into per-slice loop counts).
inline constexpr std::uint64_t kMaxAxisSize = std::uint64_t{1} << 31;

struct ProblemAxis {
  ir::Axis axis; // the einsum letter, upper case, and its size
  AxisRole role = AxisRole::Batch;
};

struct Problem {
  std::string einsum;            // normalized: lower-case letters, "vmk,vnk->vmn"
  std::vector<ProblemAxis> axes; // in order of first appearance in the einsum (the `axes!` order)
  std::vector<std::size_t> stream, trf, output; // indices into `axes`, as the einsum lists them
  ir::ScalarType stream_type = ir::ScalarType::BF16;
  ir::ScalarType trf_type = ir::ScalarType::BF16;
  ir::ScalarType accumulator = ir::ScalarType::F32;

  bool in_stream(std::size_t a) const { return axes[a].role != AxisRole::Col; }
  bool in_trf(std::size_t a) const { return axes[a].role != AxisRole::Row; }
  bool in_output(std::size_t a) const { return axes[a].role != AxisRole::Contracted; }
  /// "V=32,M=1024,N=8,K=256" in axis order.
  std::string sizes_text() const;
  /// "bf16" or "i9,i8" (stream, TRF).
  std::string dtype_text() const;
  /// Multiply-accumulates of the whole contraction (saturated).
  std::uint64_t macs() const;
};

/// Parses `--einsum`, `--sizes` and `--dtype` (one type for both operands, or "STREAM,TRF").
/// E-TUNE-001 for einsum syntax, E-TUNE-002 for an einsum the Contraction Engine cannot compute,
/// E-TUNE-003 for sizes, E-TUNE-004 for an unknown type, and the verifier's own E-OUTER-001 for a
/// type pair the Multiplier lacks. Messages quote the offending part of the option.
Result<Problem> make_problem(std::string_view einsum, std::string_view sizes,
                             std::string_view dtype);

/// E-LIMIT-002 when the contraction's own tensors — both operands at their natural width and the
/// output in the accumulator type — exceed `max_bytes`: every kernel of the problem holds at
/// least these when run (harness/run/run_footprint.h counts them, and more), so none would run and
/// lowering candidates would walk streams that large. nullopt when they fit.
std::optional<Diagnostic> problem_size_error(const Problem& p, std::uint64_t max_bytes);

} // namespace tujit::tune

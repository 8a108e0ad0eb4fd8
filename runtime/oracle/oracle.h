// The float64 oracle (docs/contraction.md §9.5): a contraction computed as a plain
// einsum over the LOGICAL tensors — out[o] = Σ widen(a)·widen(b) over the contracted axes —
// independent of layouts, stages and summation order, for checking what an engine produced.
//
// Output axes are the output's axes; contracted axes are the operands' axes not in the output.
// It iterates output × contracted coordinates with running offsets: memory is the operands plus
// the output, never the outer product.
//
// Tolerance (floats; integers must match exactly after wrapping to i32). Derivation, with
// u = 2^-24 the unit roundoff of binary32 and P = Σ|products| of one output cell:
// - bf16 × bf16 and f8 × f8 products have at most 8 × 8 significand bits, so each product is
//   exact in f32 (unless it leaves the f32 exponent range, covered by the absolute term below).
// - The Packet Reducer's tree of depth d (docs/contraction.md §9.2) puts every product through d
//   additions; each rounds with relative error ≤ u on a partial sum whose magnitude is at most
//   the sum of the |products| below it: at most d·u·P in total.
// - The Time Reducer adds n_flits tree results one after the other onto +0: each of those
//   additions rounds with error ≤ u·(partial sum) ≤ u·P, at most n_flits·u·P.
// So |f32 result − exact| ≤ (d + n_flits)·u·P to first order. The bound used is
//     tol = (d + n_flits)·2^-24·P·(1 + 2^-16) + n_products·2^-149 + n_products·2^-52·P
// — the (1 + 2^-16) covers the second-order terms ((1+u)^k − 1 ≤ k·u·(1 + k·u) with k·u < 2^-16
// for any k < 256), the 2^-149 term covers products or sums that fall into the f32 subnormal
// range (absolute error at most half a subnormal step each), and the last term covers the
// oracle's own double rounding. An exact-match check is not possible for floats because the
// hardware order (tree then flits) differs from any einsum order.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/seq/contraction_program.h"
#include "ir/support/diagnostic.h"
#include "runtime/tensor/logical_tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tujit::runtime {

/// One operand: the logical tensor and the zero point subtracted from integer elements
/// (fetch_zero_point_sub, docs/contraction.md §2.2; 0 when absent).
struct OracleOperand {
  const LogicalTensor* tensor = nullptr;
  std::int64_t zero_point = 0;
};

/// The exact (integers) or double (floats) result per output element, in logical order.
struct OracleReference {
  ir::ScalarType accumulator = ir::ScalarType::F32;
  std::vector<ir::Axis> axes;       // output axes
  std::vector<ir::Axis> contracted; // summed axes
  std::vector<double> value;        // floats: Σ products in double
  std::vector<double> abs_sum;      // floats: Σ |products|
  std::vector<std::int32_t> exact;  // integers: Σ products wrapped to i32
  std::uint64_t products_per_output = 0;
};

/// A contracted axis the operands hold only part of (runtime/layout/held_readback.h): the device
/// sums over the coordinates stride·i, i < count (e.g. a DM tensor over `B / 2` holds the even
/// B), so the einsum does too.
///
/// With `block` set, the output holds only every stride-th coordinate of the axis: its axis
/// `block` (held_readback's "T / 16", or "T / 16 % k" for the first k of them) is coordinate
/// stride·i of `axis` (docs/mapping.md §3.1), and each output cell sums the coordinates of its
/// block [stride·i, stride·i + stride) that the operands hold, stride·i + step·j for j < count =
/// stride / step. Operands that hold the whole axis (or a first tile of it, read through
/// runtime/layout device_view) give step 1: the chain reduces the block's
/// other digits, one partial sum per block (weighted_sum keeps T / 16 in its Slice and reduces
/// T % 16: the einsum over the reshaped axis T → (T / 16) × (T % 16)). An operand that holds only
/// every stride-th coordinate too (a TRF Lane `R / 4`) gives step = stride: nothing is summed,
/// the cell is the einsum at R = stride·i.
struct HeldReduction {
  std::string axis;
  std::uint64_t stride = 1;
  std::uint64_t count = 1;
  std::string block;
  std::uint64_t step = 1;
};

/// Both operands' dtypes must be a contraction pair (docs/contraction.md §2.1); the accumulator is
/// the stream's. Contracted axes sum over every coordinate, or over the `held` ones. E-ORACLE-001
/// for an illegal pair, E-RUN-001 for an output over the element limit.
Result<OracleReference> einsum_oracle(const OracleOperand& stream, const OracleOperand& weight,
                                      const std::vector<ir::Axis>& out_axes,
                                      std::uint64_t max_elements = kDefaultMaxElements,
                                      const std::vector<HeldReduction>& held = {});

/// The contracted axes that `operands` (their device types) hold only part of, where both hold
/// the same part or one holds the whole axis, and the blocks of the axes the output holds every
/// stride-th coordinate of (summed over what the operands hold of each block). A diagnostic (the
/// oracle is then not applicable) when an operand has no logical view (E-RUN-006), the operands
/// hold different parts of one contracted axis, or an operand holds every s-th coordinate of a
/// block axis with s not dividing the output's stride (E-ORACLE-004).
Result<std::vector<HeldReduction>>
held_reductions(const ir::TensorType& output, const std::vector<const ir::TensorType*>& operands,
                const ir::AxisTable& table);

/// The two parameters of the tolerance bound above.
struct ToleranceModel {
  std::uint32_t tree_depth = 0; // d of the Packet Reducer
  std::uint64_t flits = 1;      // flits accumulated into one output cell (|OT| / |T2|)
};
double oracle_tolerance(const ToleranceModel& m, double abs_sum, std::uint64_t products);

/// d of the lowered chain's Packet Reducer and n_flits = |OT| / |T2| of its Time Reducer. A part of
/// a chain rounds only in the stages it runs: d = 0 without contract_packet, n_flits = 0 without
/// contract_time (a product, a tree result or a relocated value is rounded by nothing else).
ToleranceModel tolerance_model(const ir::seq::ContractionProgram& chain);

struct OracleMismatch {
  std::string coordinate; // "M=3, N=5"
  double expected = 0;
  double actual = 0;
  double tolerance = 0; // 0 for integers
};

struct OracleComparison {
  bool ok = true;
  std::uint64_t checked = 0;
  std::uint64_t mismatches = 0;
  double max_abs_err = 0;
  double max_err_over_tolerance = 0;            // floats: max err / tol (≤ 1 when ok)
  std::string worst;                            // coordinate of the largest error
  std::vector<OracleMismatch> first_mismatches; // at most 8
};

/// The output path's cast after the chain (docs/output-path.md §1, §2.2): the element type the
/// output is narrowed to, and whether the Commit Adapter's fused ReLU comes with it.
struct OracleCast {
  ir::ScalarType to = ir::ScalarType::BF16;
  bool relu = false;
};

/// The range of values the cast gives an f32 anywhere in [lo, hi]: [narrow(lo'), narrow(hi')]
/// widened to double, lo' the largest f32 at or below lo and hi' the smallest at or above hi (every
/// cast is monotone: round to nearest, saturation and the ReLU clamp never reorder two values).
std::pair<double, double> cast_range(const OracleCast& cast, double lo, double hi);

/// Compares an engine's output (dtype = the accumulator, or the cast's target with `cast`, same
/// axes) with the reference. With a cast, a float cell is right when its value lies in
/// cast_range of the chain's tolerance interval [r − t, r + t], an integer cell when it is the
/// exact sum narrowed (wrapped, docs/scalars.md §9.3). E-ORACLE-003 when axes or dtype differ.
Result<OracleComparison> compare_with_oracle(const OracleReference& ref,
                                             const LogicalTensor& actual,
                                             const ToleranceModel& model,
                                             const std::optional<OracleCast>& cast = std::nullopt);

/// One operand's einsum: out[o] = Σ input over the input's axes the output does not have (the
/// Packet / Time reductions of a part of a chain that starts from a ContractOuter / ContractPacket
/// tensor), or the input relocated when nothing is summed (the Lane Folder alone). Output axes
/// are the input's, or blocks of them (HeldReduction::block).
Result<OracleReference> reduction_oracle(const LogicalTensor& input,
                                         const std::vector<ir::Axis>& out_axes,
                                         std::uint64_t max_elements = kDefaultMaxElements,
                                         const std::vector<HeldReduction>& held = {});

/// A data move (a register-file store, a collected stream): every cell the output holds must be
/// the input's cell at the same coordinates, bit for bit. The output's axes are the input's in
/// any order, each whole or a prefix of it (a tile), or every stride-th coordinate of it
/// (held_readback's "T / 16", "T / 16 % k"), and axes the input lacks (a broadcast: each of their
/// coordinates holds the same input cell). E-ORACLE-003 when an output axis reaches past the
/// input's, or the output drops an input axis.
Result<OracleComparison> compare_moved(const LogicalTensor& expected, const LogicalTensor& actual);

/// Whether a plain einsum describes the kernel: nullopt when it does, else the reason. The
/// output holds every coordinate of its axes, a tile of them, or one partial sum per block of an
/// axis (HeldReduction::block); an operand may hold only the low digits of an axis (it is then
/// read through runtime/layout device_view: replicated over the others); any other partial
/// coverage means the device never touches some logical coordinates and the oracle would have
/// to guess ("oracle not applicable").
std::optional<std::string> oracle_not_applicable(const ir::TensorType& output,
                                                 const std::vector<const ir::TensorType*>& operands,
                                                 const ir::AxisTable& table);

} // namespace tujit::runtime

// The host's side of a Vector Engine pass's `&vrf` operands in the JIT (ir/seq/run_program.h
// vrf_operands, docs/vector-engine.md §3.2), shared by the data-movement and the contraction runs:
// each operand's source adapted once, and per cell of the output view (the same for every slice)
// the element the cell reads, 0 where the VRF element is not live (runtime::read_vrf_operand, the
// interpreter's reading). The generated code's loads are codegen/vrf_operand_emit.h.
#pragma once

#include "ir/seq/run_program.h"
#include "runtime/engine/run_io.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tujit::codegen {

/// One operand for one slice (field order is the generated code's struct layout,
/// vrf_operand_emit.h).
struct VrfOperandArgs {
  const std::uint32_t* source; // the operand's adapted elements at the slice's base
  std::uint64_t limit;         // elements from `source` to its end
  const std::uint64_t* offset; // [cells] the element each cell reads (0 where not live)
  const std::uint8_t* live;    // [cells] 1 where that element is live; else the cell reads 0
};

/// The tables of a run's VRF operands over the output view's cells.
class VrfOperandTables {
public:
  VrfOperandTables(const ir::seq::RunProgram& program, const runtime::RunInputs& inputs);
  bool empty() const { return operands_.empty(); }
  /// The arguments of slice `s`.
  std::vector<VrfOperandArgs> args(std::uint64_t s) const;
  /// The operands output cell `cell` reads, from a slice's args() (for values the host fills
  /// itself).
  static std::vector<std::uint32_t> values(const std::vector<VrfOperandArgs>& args,
                                           std::uint64_t cell);

private:
  struct Operand {
    const ir::seq::OperandStreams* streams = nullptr;
    /// Shared by the operands reading one tensor through one adapter: a reduce's terms (up to
    /// 1024 of them, docs/vector-engine.md §3.6) all read the stream's tensor.
    std::shared_ptr<const std::vector<std::uint32_t>> adapted;
    std::vector<std::uint64_t> offset;
    std::vector<std::uint8_t> live;
  };
  std::vector<Operand> operands_;
  std::vector<std::uint8_t> none_live_;
};

} // namespace tujit::codegen

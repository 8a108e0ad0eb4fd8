// One descriptor per stage operation of the kernel language (docs/kernel-language.md §6): the
// method, the tensor it is called on and the one it gives, its type arguments and the output slot
// each sets, what the output keeps of the input, whether the call takes value arguments, the unit
// that runs it, where its rules are written and the `tujit stage` OP that verifies it on bare
// mappings. The typer (ir/lang/sema.cpp), the kernel checker, `tujit stage` / `explain` and the
// cycle models read an operation's facts here; adding an operation is one line in
// stage_ops.def, one descriptor, its typing semantics and its verifier entry (docs/design.md §2.2).
#pragma once

#include "ir/lang/types.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace tujit::ir {

/// One call of the typestate chain (docs/kernel-language.md §6), as listed in stage_ops.def.
enum class StageOp : std::uint8_t {
#define TUJIT_STAGE_OP(op, method) op,
#include "ir/lang/stage_ops.def"
};
inline constexpr std::size_t kStageOpCount = 0
#define TUJIT_STAGE_OP(op, method) +1
#include "ir/lang/stage_ops.def"
    ;

/// The hardware unit that runs a stage (docs/contraction.md §2–§8, docs/vector-engine.md,
/// docs/datapath.md §4.2): what the cycle models time it as.
enum class StageUnit : std::uint8_t {
  FetchSequencer, // the Fetch Engine's sequencer reading DM
  FetchAdapter,   // cast / zero-point subtraction on the fetched stream
  Collect,        // packets regrouped into 32 B flits
  TrfStore,       // the stream written into the tensor register file
  VrfStore,       // the stream written into the vector register file
  ContractOuter,  // Stream Adapter, TRF Sequencer and Multiplier
  PacketReducer,
  TimeReducer,
  LaneFolder,
  VectorEngine,
  None,            // a view: no data moves (VrfTensor::reshape)
  MemReader,       // the book's MemTensor read: the sequencer streams a buffer
  MemWriter,       // the book's MemTensor write: the sequencer writes a stream into a buffer
  Dma,             // a DMA Engine transfer between HBM and DM (docs/dma.md)
  CastEngine,      // the Cast Engine narrowing a stream (docs/output-path.md §1)
  TransposeEngine, // the Transpose Engine swapping Time and Packet (docs/transpose.md)
  SwitchEngine,    // the Switch Engine moving a fetched stream across slices (docs/switch.md)
  CommitAdapter,   // the Commit Adapter's trim and cast (docs/output-path.md §2)
  CommitEngine     // the Commit Engine's write sequencer into DM (docs/output-path.md §3)
};

/// A type argument of a stage's method, in signature order.
struct StageTypeParam {
  std::string_view name;
  bool scalar = false; // an element type (`TrfD`, `D2`), not a mapping
  /// The output slot it sets; also where inference reads it from an expected type.
  std::optional<Slot> out;
};

struct StageDescriptor {
  StageOp op;
  std::string_view method; // the kernel-language method; to_string(op)
  TensorKind input;
  /// Further kinds it is called on (to_vrf: VectorFinal; cast: Contract, VectorFinal).
  std::span<const TensorKind> alt_inputs;
  TensorKind output;
  std::span<const StageTypeParam> params;
  std::size_t min_targs; // type arguments a turbofish must write (the rest inferred)
  /// Output slots copied from the input (Chip, Cluster and Slice always are).
  std::span<const Slot> kept;
  bool value_args; // takes call arguments (else `()` only, E-TYPE-016)
  StageUnit unit;
  std::string_view rules; // the docs/ section of its rules
  /// The `tujit stage` OP that runs this stage's verifier on bare mappings; empty when the stage
  /// needs its kernel (the fetch sequencer, Vector Engine chains, MemTensor buffers).
  std::string_view stage_command;
};

/// The descriptor of `op`.
const StageDescriptor& descriptor(StageOp op);
/// Every descriptor, in StageOp order.
std::span<const StageDescriptor> stage_descriptors();
/// The descriptor whose method is `method`, or nullptr (Vector Engine calls are one operation,
/// StageOp::Vector; their methods are listed by ir/lang/sema_methods.h). One method may be
/// several operations, one per receiver (`reshape` of a VrfTensor or a DmTensor): with `on`, the
/// one called on that kind (or nullptr), else the first.
const StageDescriptor* find_descriptor(std::string_view method,
                                       std::optional<TensorKind> on = std::nullopt);

/// The method name ("fetch", "contract_outer", …); also the `stage` of docs/cli.md where one
/// exists.
std::string_view to_string(StageOp op);
/// One of the four Contraction Engine stages (docs/contraction.md §5–§8).
bool is_contraction(StageOp op);
/// A Fetch Adapter stage: fetch_table_lookup, fetch_cast or fetch_zero_point_sub
/// (docs/scalars.md §5.1).
bool is_fetch_adapter(StageOp op);
/// A Fetch Adapter stage's place in the adapter's fixed order (docs/scalars.md §5.1): table lookup
/// 1, type cast 2, zero-point subtraction 3; nullopt for any other operation.
std::optional<std::size_t> fetch_adapter_position(StageOp op);
/// A register-file store: to_trf or to_vrf.
bool is_register_store(StageOp op);
/// A DMA transfer: to_dm or to_hbm.
bool is_dma(StageOp op);
/// A stage of the output path after the engines (docs/output-path.md): cast, transpose, the
/// Commit Adapter, commit.
bool is_output_path(StageOp op);

} // namespace tujit::ir

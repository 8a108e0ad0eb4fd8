// Tensor types of the kernel language (docs/kernel-language.md §5, docs/contraction.md
// §3): which tensor, its element type, and its named mapping slots, every mapping resolved to an
// ir::Mapping with the source span it came from.
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::ir {

/// The typestate of a tensor (docs/contraction.md §3). `Begin` is the stream
/// `ctx.main.begin(x.view())` yields before the Fetch Engine (furiosa-opt's BeginTensor: Time =
/// m![1], Packet = Element).
enum class TensorKind : std::uint8_t {
  Begin,
  Fetch,
  Collect,
  Trf,
  Vrf,
  Dm,
  Hbm,
  ContractOuter,
  ContractPacket,
  ContractTime,
  Contract,
  Vector,      // a stream inside the Vector Engine (vector_init … vector_final), "VectorTensor"
  VectorFinal, // VectorFinalTensor: the Vector Engine's output stream
  Mem,         // the book's MemTensor<D, Buf> (docs/datapath.md §4.2 pseudo type): Element = Buf
  Stream,      // the book's StreamTensor<'l, D, Time, Packet>
  Cast,        // CastTensor: the Cast Engine's output stream (docs/datapath.md §9)
  CommitTrim,  // CommitTrimTensor: after the Commit Adapter's trim
  CommitCast,  // CommitCastTensor: after the Commit Adapter's cast
  Transpose,   // TransposeTensor: the Transpose Engine's output stream (docs/transpose.md)
  Switch,      // SwitchTensor: the Switch Engine's output stream (docs/switch.md)
};
/// The type's name as written: "CollectTensor", "ContractOuterTensor", …
std::string_view tensor_type_name(TensorKind k);
std::optional<TensorKind> tensor_kind_from_name(std::string_view name);
/// Stream typestates carry furiosa-opt's `'l, const T: Tu` parameters (dropped when parsing).
bool has_tu_parameter(TensorKind k);

/// The context a command runs in (`ctx.main` / `ctx.sub`, or a `{ Tu::Main }` / `{ Tu::Sub }` type
/// argument; `ctx.tdma` for a DMA transfer); Unknown when it is a generic `T` (the caller chose the
/// context).
enum class ContextKind : std::uint8_t { Unknown, Main, Sub, Tdma };
std::string_view to_string(ContextKind c); // "main" | "sub" | "tdma" | "unknown"

/// The named mapping slots a tensor type has.
enum class Slot : std::uint8_t { Chip, Cluster, Slice, Lane, Time, Packet, Element };
inline constexpr std::size_t kSlotCount = 7;
std::string_view to_string(Slot s); // "Chip", "Cluster", …, as the book names the type parameters

/// One argument position of a tensor type, in furiosa-opt's order.
struct TensorArg {
  enum class Kind : std::uint8_t { Dtype, Storage, Mapping };
  Kind kind;
  Slot slot;             // Kind::Mapping
  std::string_view name; // "D", "Storage", "Chip", …
};
/// The argument list of `k` (docs/kernel-language.md table), lifetimes and `T` excluded.
std::span<const TensorArg> tensor_args(TensorKind k);

/// A mapping and where it was written (a `m![…]`, an alias name, or the call that derived it).
struct SpannedMapping {
  Mapping mapping;
  SourceSpan span;
};

struct TensorType {
  TensorKind kind = TensorKind::Collect;
  /// D: the element type. For ContractOuter/Packet/Time/Contract this is the accumulator
  /// (i32 / f32), as in furiosa-opt's type parameters.
  ScalarType dtype = ScalarType::BF16;
  SourceSpan dtype_span;
  /// The stream's storage type: ContractOuterTensor's `Storage` argument; for ContractPacket/
  /// ContractTime/Contract tensors produced by a chain it is carried from contract_outer (nullopt
  /// when only declared).
  std::optional<ScalarType> storage;
  std::array<std::optional<SpannedMapping>, kSlotCount> slots{};
  /// ContractTime/Contract tensors produced by a chain: contract_outer's OutTime before the Time
  /// Reducer ("remembers OT", docs/contraction.md §3); the Lane Folder needs it. nullopt when the
  /// tensor is a kernel parameter or only declared: its producer is not in the file, so a
  /// verifier must treat the pre-reduce Time as unknown (e.g. assume nothing was reduced).
  std::optional<SpannedMapping> pre_time;
  /// Where the whole type was written, or the call that produced it.
  SourceSpan span;
  /// A stream type's `T: Tu` argument when written `{ Tu::Main }` / `{ Tu::Sub }`.
  ContextKind tu = ContextKind::Unknown;

  bool has(Slot s) const { return slots[static_cast<std::size_t>(s)].has_value(); }
  /// The slot (present for every slot the kind has once sema built the type).
  const SpannedMapping* get(Slot s) const;
  /// The slot's mapping, or the identity when absent.
  const Mapping& mapping(Slot s) const;
  void set(Slot s, SpannedMapping m) { slots[static_cast<std::size_t>(s)] = std::move(m); }
};

/// `CollectTensor<bf16, m![1], m![1 # 2], …>` (mappings as written by Mapping::to_string).
std::string to_string(const TensorType& t);

/// Equal mappings in the sense of the spec (docs/mapping.md §4.3: equal normal forms).
bool same_mapping(const Mapping& a, const Mapping& b);

/// One difference between a declared type and the type a chain produces.
struct TypeDifference {
  std::string what;     // "the element type", "Time", …
  std::string declared; // text
  std::string produced; // text
  SourceSpan span;      // of the declared part
};
/// Compares `declared` with `produced` slot by slot (dtype, then every slot of `declared.kind`);
/// a kind mismatch is a single difference. Mappings are compared by normal form.
std::vector<TypeDifference> compare_types(const TensorType& declared, const TensorType& produced);

} // namespace tujit::ir

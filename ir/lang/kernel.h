// The typed kernel: what the front end (ir/lang/) hands to the stage verifiers (ir/verify/),
// lowering and the CLI. Every stage of every chain in a kernel body, with its input and output
// tensor types fully resolved (docs/contraction.md §3) and every mapping an ir::Mapping carrying
// the source span it came from, so a verifier can point its diagnostic at the right `m![…]`.
#pragma once

#include "ir/lang/stage_descriptor.h"
#include "ir/lang/switch_config.h"
#include "ir/lang/types.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/lane_mode.h"
#include "ir/types/vector_op.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::ir {

struct Stage {
  StageOp op{};
  SourceSpan span;      // the method name through the closing `)`
  SourceSpan name_span; // the method name
  TensorType input;     // the tensor the method is called on
  TensorType output;    // what it produces (declared or inferred type arguments applied)
  /// Each type argument as used (explicit or inferred), with its span: the explicit argument, or
  /// the place it was inferred from. Order as in the method's signature.
  std::vector<SpannedMapping> type_args;
  /// contract_outer: the TRF operand (its name and type).
  std::optional<TensorType> trf;
  std::string trf_name;
  SourceSpan trf_span;
  /// contract_lane: the Lane Folder mode.
  std::optional<LaneMode> lane_mode;
  SourceSpan lane_mode_span;
  /// fetch_zero_point_sub: the zero point (checked against the source range by the verifier).
  std::optional<std::int64_t> zero_point;
  SourceSpan zero_point_span;
  /// switch: the configuration literal (docs/switch.md §1).
  std::optional<SwitchConfig> switch_config;
  /// fetch_table_lookup / fetch_cast / fetch_zero_point_sub (and the output path's casts): the
  /// target type.
  std::optional<ScalarType> cast_to;
  /// A Vector Engine call (the Vector operation): the call and its arguments.
  std::optional<VectorCall> vector;
  /// A Vector Engine call whose operand0 is `&vrf` (VectorCall::reads_vrf): the VRF tensor's type,
  /// its name and span, the stage that stored it (a to_vrf; nullopt for a VrfTensor parameter)
  /// and the parameter its data comes from (docs/vector-engine.md §3.2).
  std::optional<TensorType> vrf;
  std::string vrf_name;
  SourceSpan vrf_span;
  std::optional<std::size_t> vrf_producer;
  std::string vrf_source;
  /// The context the chain runs in (`ctx.main` / `ctx.sub`, or the stream parameter's
  /// `{ Tu::… }`); Unknown for a generic `T`.
  ContextKind context = ContextKind::Unknown;
  /// Index of the statement (chain) this stage belongs to, numbered in evaluation order; the tail
  /// is the last. The statements of a called fn come before the caller's statement, whose chain
  /// holds the callee's tail (docs/kernel-language.md §9).
  std::size_t chain = 0;
  /// The `let` name the chain's result is bound to (empty for the tail / a bare statement); a
  /// `let` inside a called fn f is named `f.name` (`f#2.name` in f's second call).
  std::string bound_to;
  /// The stage whose output this stage reads (index into Kernel::stages, always smaller than this
  /// stage's own); nullopt when the input is a kernel parameter or `begin(x.view())`.
  std::optional<std::size_t> producer;
  /// The kernel parameter the input's data comes from: the DmTensor of the chain's `begin`, or
  /// the tensor parameter the chain starts from (through any number of stages).
  std::string source;
  /// contract_outer: the stage that made the TRF operand (a to_trf) and the parameter its data
  /// comes from; producer nullopt when the operand is a TrfTensor parameter.
  std::optional<std::size_t> trf_producer;
  std::string trf_source;
  /// MemWrite: the MemTensor parameter the stream is written into; a to_hbm written by
  /// `to_hbm_view`: the `&mut HbmTensor` output parameter it writes (docs/kernel-language.md §6).
  std::string target;
  /// The stage that wrote the memory tensor a chain's `begin(x.view())` reads (a to_dm, a commit
  /// of an earlier statement), set on the chain's first stage; nullopt when `x` is a parameter or
  /// built inside. A DMA stage reads its tensor through `producer`.
  std::optional<std::size_t> memory_producer;
  /// `begin_interleaved::<I, …>(a.view(), b.view())` (docs/vector-engine.md §3.5), set on the
  /// chain's first stage: the two DM tensors the fetch reads, at I = 0 and I = 1, each named as
  /// `source` and `memory_producer` name the one a `begin` reads (`source` is then "a+b", the pair
  /// they make). Empty for a `begin`.
  struct InterleavedSide {
    std::string source;
    std::optional<std::size_t> memory_producer;
  };
  std::vector<InterleavedSide> interleaved;

  /// The unit that runs this stage (its descriptor's, ir/lang/stage_descriptor.h): lowering, the
  /// engines and the cycle models recognise a stage by the hardware it stands for, so a new
  /// operation on an existing unit needs no edit outside its descriptor and semantics.
  StageUnit unit() const { return descriptor(op).unit; }
};

/// The method a stage is: to_string(op), or for a Vector Engine call its method
/// (`vector_fp_unary`).
std::string_view stage_name(const Stage& s);

/// A kernel input or other parameter.
struct KernelParam {
  std::string name;
  SourceSpan span; // the name
  bool by_ref = false;
  bool is_context = false; // `ctx: &mut Context`
  /// Not a parameter: a tensor the kernel builds itself (`let dm: DmTensor<…> = DmTensor::new();`).
  /// Where the register file or DM places it is the compiler's choice; `tujit run` feeds it like
  /// an input (its contents are whatever the program finds there).
  bool built_inside = false;
  std::optional<TensorType> tensor; // set for tensor-typed parameters (inputs, output parameters)
};

struct Kernel {
  std::string name;
  SourceSpan span;      // the whole fn
  SourceSpan name_span; // the fn name
  std::vector<KernelParam> params;
  /// Every typed stage, in evaluation order (statement order; within a chain, call order).
  std::vector<Stage> stages;
  std::optional<TensorType> declared_return; // the `-> Type`, when it is a tensor type
  std::optional<TensorType> returned;        // what the tail expression produces
  /// The stages of the file's driver code that builds this kernel's inputs and calls it (a book
  /// snippet's set-up, ir/lang/driver.h), typed as a body is; empty when no driver calls it. The
  /// kernel checker verifies them with the kernel's own stages.
  std::vector<Stage> driver;
  /// False when any error diagnostic of the front end points into this kernel.
  bool ok = true;
};

/// One complete contraction chain of a kernel (docs/contraction.md §5–§8): a contract_outer with
/// its TRF operand, and the Packet Reducer, Time Reducer and Lane Folder stages after it in the
/// same statement.
struct ContractionChain {
  const Stage* outer = nullptr;
  const Stage* packet = nullptr;
  const Stage* time = nullptr;
  const Stage* lane = nullptr;
};

/// The kernel's first complete contraction chain, in stage order: the chain the engines run and
/// the cycle models time. Nullopt when no contract_outer reaches a contract_lane.
std::optional<ContractionChain> find_contraction_chain(const Kernel& kernel);

struct SpecFile {
  SourceBuffer source;
  AxisTable axes;
  std::vector<Kernel> kernels;
  /// Warnings (e.g. refused operations in ignored driver code): not errors, still worth showing.
  Diagnostics warnings;
};

/// Everything analyze() learned: the file (always, possibly with fewer kernels) and every
/// diagnostic (errors and warnings, sorted by position, at most ~20 errors).
struct SpecAnalysis {
  SpecFile file;
  Diagnostics diagnostics;
};

/// The largest spec file tujit reads (E-LIMIT-001): far beyond any kernel file, small enough that
/// every source offset fits a SourceSpan and a stray multi-gigabyte input is refused at once.
inline constexpr std::uint64_t kMaxSpecBytes = std::uint64_t{64} << 20;

/// E-LIMIT-001 when a spec of `bytes` bytes (named `name`) exceeds kMaxSpecBytes. Callers that
/// read a file themselves call it with the file's size before reading it.
std::optional<Diagnostic> check_spec_size(std::uint64_t bytes, std::string_view name);

/// Lex, parse, resolve axes/aliases, type every chain. Never throws, never aborts on any input.
/// A source over kMaxSpecBytes is one E-LIMIT-001 diagnostic and no kernels.
SpecAnalysis analyze(SourceBuffer source);

/// The file's kernels, or every diagnostic when there is any error.
Result<SpecFile> analyze_spec(SourceBuffer source);
/// Reads `path` through ir/support/input_file.h (unreadable: E-IO-001; a directory, FIFO or
/// device: E-IO-005; over kMaxSpecBytes: E-LIMIT-001, checked before reading) and
/// analyze_spec()s it.
Result<SpecFile> load_spec(const std::string& path);

} // namespace tujit::ir

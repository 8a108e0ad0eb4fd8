// The verifier entry of every stage operation (ir/lang/stage_descriptor.h): how the kernel checker
// verifies one stage of a kernel, and which type argument each of its rules names. One entry per
// line of ir/lang/stage_ops.def, in its order (checked at compile time), so a new operation does
// not build until it has one (docs/design.md §2.2).
#pragma once

#include "ir/datapath/fetch_engine.h"
#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/stage_check.h"
#include "ir/verify/stage_facts.h"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::ir::verify {

/// The outcome of one stage of the kernel.
struct StageCheck {
  StageOp op{};
  DerivedTable derived;           // empty when the stage failed, was skipped or derives nothing
  StageFacts facts;               // the same derivation as typed values (monostate likewise)
  Diagnostics diagnostics;        // errors of this stage's rules, each with a span into the file
  std::vector<std::string> notes; // e.g. "skipped: …", "pre-reduce time unknown …"
  bool skipped = false;           // not verified because a stage it depends on failed
  bool ok() const { return !skipped && !has_errors(diagnostics); }
};

/// A stage in its list (a kernel body or its driver code): producers index the same list.
struct StageSite {
  std::span<const Stage> stages;
  std::size_t index = 0;
  const Stage& stage() const { return stages[index]; }
  /// The next stage of the same list, or nullptr.
  const Stage* next() const { return index + 1 < stages.size() ? &stages[index + 1] : nullptr; }
};

/// A rule whose diagnostic points at a type argument (index into Stage::type_args, the method's
/// mapping arguments in signature order) rather than at the call.
struct ArgumentRule {
  std::string_view code;
  std::size_t argument;
};

struct StageVerifier {
  StageOp op;
  /// Runs the stage's rules, filling `out.derived` or `out.diagnostics` (or marking it skipped).
  void (*check)(const StageSite& site, StageCheck& out);
  std::span<const ArgumentRule> arguments;
};

/// The derived parameters a fetch stage (or a MemTensor read) reports, from its Fetch Engine
/// derivation (ir/datapath/fetch_engine.h). Keys: sequencer (`[n:s, …] : p`), entries,
/// packet_size, contiguous_run, max_access_size, read_size, read_bytes, reads_per_packet, cycles,
/// footprint, over_read, buffer_size.
DerivedTable fetch_table(const datapath::FetchDerived& fetch);

/// The verifier entry of `op`.
const StageVerifier& stage_verifier(StageOp op);

/// The span a verifier diagnostic of `stage` points at: the type argument the rule names (e.g.
/// OutTime for E-LANE-004) when the stage has it, else the call.
SourceSpan diagnostic_span(const Stage& stage, const Diagnostic& d);

} // namespace tujit::ir::verify

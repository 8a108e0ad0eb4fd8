// Which context may run what (furiosa-opt docs/src/computing-tensors/index.md "Execution Context";
// the Register Files page, "Which context a store occupies"): the Contraction Engine runs in the
// main context only (the sub context drops it); a store to the VRF issued from the main context
// runs its write through the sub context, so it takes `&mut ctx.sub`; one issued from the sub
// context takes no argument; a DMA transfer runs in the DMA context (`&mut ctx.tdma`); the Commit
// Adapter's cast and the Fetch Adapter's table lookup run in the main context only. Each misuse is
// an E-CTX diagnostic (docs/errors.md).
#pragma once

#include "ir/lang/types.h"
#include "ir/support/diagnostic.h"

#include <optional>
#include <string_view>
#include <vector>

namespace tujit::ir::lang {

/// What one argument of a store is, as typed by the kernel typer.
struct ContextArg {
  bool is_context = false; // `ctx.main` / `ctx.sub` (through any `&` / `&mut`)
  ContextKind which = ContextKind::Unknown;
  bool by_mut_ref = false; // written `&mut …`
  SourceSpan span;
};

/// E-CTX-001: `contract_outer` on a stream of the sub context.
std::optional<Diagnostic> contraction_context_error(std::string_view method, SourceSpan span,
                                                    ContextKind stream);

/// The store `method` (to_vrf) on a stream of context `stream` with arguments `args` (all of them
/// typed): E-CTX-002 a main-context store without `&mut ctx.sub`, E-CTX-003 a sub-context store
/// with an argument, E-CTX-004 an argument that is not `&mut ctx.sub`.
std::optional<Diagnostic> store_context_error(std::string_view method, SourceSpan call_span,
                                              ContextKind stream,
                                              const std::vector<ContextArg>& args);

/// A DMA transfer (`to_dm` / `to_hbm`) with arguments `args`: E-CTX-005 unless its one argument
/// is `&mut ctx.tdma`, the DMA context (furiosa-opt docs/src/moving-tensors/dma-engine.md
/// "Interface").
std::optional<Diagnostic> dma_context_error(std::string_view method, SourceSpan call_span,
                                            const std::vector<ContextArg>& args);

/// E-CTX-006: the Commit Adapter's cast (`commit_cast`, `commit_cast_relu`) on a stream of the sub
/// context, which has no commit cast (furiosa-opt docs/src/computing-tensors/commit-adapter.md).
std::optional<Diagnostic> commit_cast_context_error(std::string_view method, SourceSpan span,
                                                    ContextKind stream);

/// E-CTX-007: the Fetch Adapter's table lookup (`fetch_table_lookup`) on a stream of the sub
/// context, whose Fetch Unit has no lookup table (furiosa-opt
/// docs/src/computing-tensors/fetch-adapter.md "Table Lookup").
std::optional<Diagnostic> table_lookup_context_error(std::string_view method, SourceSpan span,
                                                     ContextKind stream);

} // namespace tujit::ir::lang

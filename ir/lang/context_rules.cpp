#include "ir/lang/context_rules.h"

#include <fmt/format.h>

namespace tujit::ir::lang {

namespace {

constexpr std::string_view kPage = "furiosa-opt docs/src/computing-tensors/register-files.md";

Diagnostic ctx_error(std::string code, std::string message, SourceSpan span,
                     std::vector<std::string> notes) {
  Diagnostic d = make_error(std::move(code), std::move(message), span, std::move(notes));
  d.stage = "type";
  return d;
}

} // namespace

std::optional<Diagnostic> contraction_context_error(std::string_view method, SourceSpan span,
                                                    ContextKind stream) {
  if (stream != ContextKind::Sub) return std::nullopt;
  return ctx_error(
      "E-CTX-001",
      fmt::format("`{}` runs on a stream of the sub context, but the Contraction Engine runs in "
                  "the main context only",
                  method),
      span,
      {"the sub context drops the Contraction Engine (furiosa-opt "
       "docs/src/computing-tensors/index.md \"Execution Context\"); it prepares operands, e.g. "
       "`ctx.sub.begin(w.view())…to_trf()`",
       "fix: start the contraction's stream from `ctx.main` (or a `{ Tu::Main }` stream)"});
}

std::optional<Diagnostic> store_context_error(std::string_view method, SourceSpan call_span,
                                              ContextKind stream,
                                              const std::vector<ContextArg>& args) {
  for (const ContextArg& a : args) {
    if (a.is_context && a.which == ContextKind::Sub && a.by_mut_ref) continue;
    return ctx_error("E-CTX-004",
                     fmt::format("the argument of `{}` must be `&mut ctx.sub`, the sub context "
                                 "its write runs through",
                                 method),
                     a.span,
                     {fmt::format("a store issued from the main context occupies the sub context "
                                  "as well and borrows it for the statement ({} \"Which context "
                                  "a store occupies\")",
                                  kPage)});
  }
  if (args.size() > 1)
    return ctx_error("E-TYPE-016",
                     fmt::format("`{}` takes at most one argument (`&mut ctx.sub`), found {}",
                                 method, args.size()),
                     args[1].span, {});
  if (stream == ContextKind::Main && args.empty())
    return ctx_error(
        "E-CTX-002",
        fmt::format("`{}` on a main-context stream must take `&mut ctx.sub`: its write runs "
                    "through the sub context",
                    method),
        call_span,
        {fmt::format("a store issued from the main context occupies both contexts, so it borrows "
                     "the sub context for the statement ({} \"Which context a store occupies\")",
                     kPage),
         fmt::format("fix: `.{}(&mut ctx.sub)`", method)});
  if (stream == ContextKind::Sub && !args.empty())
    return ctx_error(
        "E-CTX-003",
        fmt::format("`{}` on a sub-context stream takes no argument: it already holds the sub "
                    "context",
                    method),
        args.front().span,
        {fmt::format("a store issued from the sub context needs no argument ({})", kPage),
         fmt::format("fix: `.{}()`", method)});
  return std::nullopt;
}

std::optional<Diagnostic> dma_context_error(std::string_view method, SourceSpan call_span,
                                            const std::vector<ContextArg>& args) {
  constexpr std::string_view kDmaPage = "furiosa-opt docs/src/moving-tensors/dma-engine.md";
  if (args.size() == 1 && args[0].is_context && args[0].which == ContextKind::Tdma &&
      args[0].by_mut_ref)
    return std::nullopt;
  const SourceSpan span = args.empty() ? call_span : args.front().span;
  return ctx_error(
      "E-CTX-005",
      args.empty()
          ? fmt::format("`{}` is a DMA transfer: it takes the DMA context, `&mut ctx.tdma`", method)
          : fmt::format("the argument of `{}` must be `&mut ctx.tdma`: a DMA transfer runs "
                        "in the DMA context, not in a Tensor Unit context",
                        method),
      span,
      {fmt::format("HBM ↔ DM and DM ↔ DM transfers run on the DMA Engine, driven by the tensor DMA "
                   "context `ctx.tdma` ({} \"Interface\"); `ctx.main` and `ctx.sub` drive the "
                   "Tensor Unit",
                   kDmaPage),
       fmt::format("fix: `.{}(&mut ctx.tdma)`", method)});
}

std::optional<Diagnostic> commit_cast_context_error(std::string_view method, SourceSpan span,
                                                    ContextKind stream) {
  if (stream != ContextKind::Sub) return std::nullopt;
  return ctx_error(
      "E-CTX-006",
      fmt::format("`{}` runs on a stream of the sub context, but the Commit Adapter's cast runs in "
                  "the main context only",
                  method),
      span,
      {"the sub context's Commit Adapter trims but does not cast (furiosa-opt "
       "docs/src/computing-tensors/commit-adapter.md, the support table)",
       "fix: commit the sub context's stream as it is, or cast it with the Cast Engine "
       "(`.cast::<D, OutPacket>()`) before commit_trim"});
}

std::optional<Diagnostic> table_lookup_context_error(std::string_view method, SourceSpan span,
                                                     ContextKind stream) {
  if (stream != ContextKind::Sub) return std::nullopt;
  return ctx_error(
      "E-CTX-007",
      fmt::format("`{}` runs on a stream of the sub context, but the Fetch Adapter's table "
                  "lookup runs in the main context only",
                  method),
      span,
      {"only the main context's Fetch Unit can point at a lookup table; the sub context's has "
       "none (furiosa-opt docs/src/computing-tensors/fetch-adapter.md \"Table Lookup\", "
       "docs/scalars.md §4.5)",
       "fix: decode in a main-context fetch and commit the decoded stream to DM, then read that "
       "from the sub context"});
}

} // namespace tujit::ir::lang

// The diagnostics of the sequencer derivation and the Fetch Engine (docs/datapath.md §4, §5):
// one code and reference-style rule name per rule, all in the E-FETCH family, stage "fetch"
// (docs/cli.md §1). docs/errors.md lists each with an example and the fix.
#pragma once

#include "ir/support/diagnostic.h"

#include <string>
#include <string_view>
#include <vector>

namespace tujit::ir::datapath {

struct SeqRule {
  std::string_view code;
  std::string_view name;
};

// docs/datapath.md §4 derivation
inline constexpr SeqRule kIncompatibleDecomposition{"E-FETCH-010", "IncompatibleDecomposition"};
inline constexpr SeqRule kFragmentReadTwice{"E-FETCH-011", "FragmentReadTwice"};
inline constexpr SeqRule kTermNotOneLoop{"E-FETCH-012", "TermNotOneLoop"};
// docs/datapath.md §4 constraints (the entry table)
inline constexpr SeqRule kTooManyEntries{"E-FETCH-013", "TooManyEntries"};
inline constexpr SeqRule kLoopTooLarge{"E-FETCH-014", "LoopTooLarge"};
// docs/datapath.md §4 access size, §5 read_size
inline constexpr SeqRule kNoAccessSize{"E-FETCH-015", "NoAccessSize"};
// the buffer bounds (docs/datapath.md §5: never execute a read past the buffer)
inline constexpr SeqRule kReadsPastBuffer{"E-FETCH-016", "ReadsPastBuffer"};
// write mode (commit / DMA write side)
inline constexpr SeqRule kBroadcastWrite{"E-FETCH-017", "BroadcastWrite"};
inline constexpr SeqRule kStreamPaddingUnsupported{"E-FETCH-018", "StreamPadding"};
inline constexpr SeqRule kUnwrittenCells{"E-FETCH-019", "UnwrittenCells"};
// docs/mapping.md §2: bottom padding is never touched, not even read
inline constexpr SeqRule kReadsBottomPadding{"E-FETCH-020", "ReadsBottomPadding"};

/// The stage every diagnostic here carries.
inline constexpr std::string_view kFetchStage = "fetch";

/// An E-FETCH diagnostic: code, stage "fetch", first note `rule: <name>`, then `notes`.
Diagnostic seq_error(const SeqRule& rule, std::string message, std::vector<std::string> notes = {});

} // namespace tujit::ir::datapath

// Deriving a sequencer configuration from mappings (docs/datapath.md §4 "Derivation"): the
// stream `[Time…, Packet…]` is walked term by term, outermost first, against the buffer mapping
// `Buf`. Each term's axis fragment is carved out of the current `Buf` with the mapping algebra's
// division (docs/mapping.md §7: the matched digit's dividend stride is the loop stride), and the
// division's relaxed residue — the fragment replaced by a Top hole over the same positions — is
// the next `Buf` (the book's placeholder `1 # extent`). A fragment absent from `Buf` is a
// broadcast (stride 0); a fragment that overlaps `Buf`'s digits without lining up with them is an
// incompatible decomposition. Entries beyond the 8-entry table are merged where contiguous; then
// the table limits are checked.
//
// Errors are E-FETCH diagnostics (stage "fetch") naming the term, the axis and the rule.
#pragma once

#include "ir/datapath/sequencer_config.h"
#include "ir/mapping/factor.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tujit::ir::datapath {

/// Read: buffer → stream (Fetch, a DMA read side); broadcast allowed, stream Top padding may
/// over-read, even past the buffer's last element (those positions are top padding: arbitrary
/// values, never data). Write: stream → buffer (Commit, a DMA write side); every live buffer cell
/// is written from exactly one live stream position, so broadcast and slicing are rejected, and
/// the stream's padded positions (any kind) are dropped: nothing is written for them.
enum class SeqMode : std::uint8_t { Read, Write };

/// One stream term's share of the derivation, for reports and tests.
struct TermStep {
  std::string term;              // the term as written, e.g. `A % 4 = 3`
  bool in_packet = false;        // a Packet term (else Time)
  std::vector<SeqEntry> entries; // outermost first; empty for a term of size 1
  bool broadcast = false;        // some entry of the term has stride 0 because Buf lacks it
  bool padded = false;           // the term declares padding: a read over-reads those positions,
                                 // a write drops them
  FactorList buf_after;          // Buf after the term's fragment became a placeholder
};

struct SequencerDerivation {
  std::vector<TermStep> steps;
  std::vector<SeqEntry> raw_entries; // every term's entries, in stream order (before merging)
  std::size_t time_entries = 0;      // how many raw entries come from Time terms
  bool merged = false;               // raw_entries exceeded the table and were merged
  SequencerConfig config;            // the final configuration (merged when needed)
  std::uint64_t buffer_size = 1;     // |Buf|: positions (elements) the buffer spans
  std::uint64_t time_size = 1;       // |Time|
  SeqMode mode = SeqMode::Read;
  /// One past the largest address a live (data-carrying) stream position reads or writes; the
  /// config's footprint() may exceed it by padded positions only.
  std::uint64_t live_footprint = 1;
  /// Stream positions that carry data: |Time|·|Packet| less the padded (and sliced-off) ones.
  std::uint64_t live_positions = 1;
};

/// The stream terms of a mapping: its top-level `,` elements, outermost first (a bracket only
/// groups, so `[A, B]` is the two terms A and B; `[B, C] # 16` is one term).
std::vector<Mapping> stream_terms(const Mapping& m);

/// docs/datapath.md §4: the configuration that reads `buf` as the stream (`time`, `packet`) (or
/// writes the stream into `buf`). Checks the table limits of §4 "Constraints" that do not depend
/// on the engine: at most 8 entries after merging, every size ≤ 65,536. The engine rules (access
/// size, the buffer bounds) are the callers' (fetch_engine.h).
Result<SequencerDerivation> derive_sequencer(const Mapping& buf, const Mapping& time,
                                             const Mapping& packet, SeqMode mode = SeqMode::Read);

} // namespace tujit::ir::datapath

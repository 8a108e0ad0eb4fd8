// The Fetch Engine's sequencer (docs/datapath.md §5): per slice, read DM by the sequencer of §4
// with Buf = the input `Time ⊗ Packet` and stream = (OutTime, OutPacket); derive read_size
// (elements per DM read), reads per packet and cycles; refuse a configuration that has no legal
// access size or that would feed live data from past its buffer. Padded stream positions may
// over-read past the buffer's end (docs/datapath.md §4.2): the simulators make those cells poison
// and never read memory outside the buffer for them.
#pragma once

#include "ir/datapath/sequencer_derive.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"

#include <cstdint>
#include <optional>

namespace tujit::ir::datapath {

/// docs/datapath.md §2 execution contexts: the main-context fetch reads up to 32 B per access; the
/// sub-context fetch always reads 8 B.
enum class FetchContext : std::uint8_t { Main, Sub };

struct FetchInput {
  ScalarType dtype = ScalarType::BF16;
  Mapping buf;    // the DM layout read: the Begin tensor's `Time ⊗ Packet` (or a DM Element)
  Mapping time;   // OutTime
  Mapping packet; // OutPacket
  FetchContext context = FetchContext::Main;
  /// The type a following fetch_cast widens to: one read's cast output must fit 32 B (§5).
  std::optional<ScalarType> cast_to;
  /// The type a following fetch_table_lookup decodes to: one read's decoded output must fit 32 B
  /// as well (§5, §6).
  std::optional<ScalarType> lookup_to;
};

struct FetchDerived {
  SequencerDerivation seq;
  std::uint64_t read_size = 1;        // elements per DM read
  std::uint64_t read_bytes = 1;       // read_size · BITS / 8
  std::uint64_t reads_per_packet = 1; // packet_size / read_size
  std::uint64_t cycles = 1;           // |Time| · reads_per_packet (one read per cycle)
  std::uint64_t footprint = 1;        // one past the largest element offset the loops touch
  /// Elements the loops read past the buffer's last element: top padding of the stream only
  /// (its values are arbitrary, so the engines make them poison).
  std::uint64_t over_read = 0;
};

/// §5 read_size: main context — the largest divisor of max_access_size whose byte size is 1, 2,
/// 4, 8, 16 or 32 (and, with a cast or a table lookup, whose output of the adapter's stages fits
/// 32 B); sub context — 8 bytes, which must divide the contiguous access. None when no size
/// qualifies (e.g. a transposed i4 read: half-byte accesses do not exist).
std::optional<std::uint64_t> fetch_read_size(std::uint64_t max_access_size, ScalarType dtype,
                                             FetchContext context,
                                             std::optional<ScalarType> cast_to = std::nullopt,
                                             std::optional<ScalarType> lookup_to = std::nullopt);

/// The engine rules on a derivation: a legal read_size (E-FETCH-015), then the buffer bounds
/// (E-FETCH-016: no live stream position may read past |Buf|; padded positions may over-read).
Result<FetchDerived> check_fetch(const SequencerDerivation& seq, ScalarType dtype,
                                 FetchContext context,
                                 std::optional<ScalarType> cast_to = std::nullopt,
                                 std::optional<ScalarType> lookup_to = std::nullopt);

/// derive_sequencer (read mode) followed by check_fetch.
Result<FetchDerived> verify_fetch(const FetchInput& in);

} // namespace tujit::ir::datapath

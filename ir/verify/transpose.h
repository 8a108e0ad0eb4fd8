// The Transpose Engine (`.transpose::<OutTime, OutPacket>()`, docs/transpose.md): it swaps the
// stream's Time and Packet one matrix at a time. Each iteration gathers `in_rows` rows of
// `in_cols` columns from `in_rows · packets_per_col` input flits (Unpack keeps the first
// `valid_size` elements of each flit, Gather concatenates `packets_per_col` consecutive flits into
// one row), transposes the matrix, drops the trailing `in_cols − out_rows` rows (Trim) and pads
// each of the `out_rows` output rows to one flit (Align). The verifier finds the parameters the
// declared OutTime and OutPacket imply, checks them against the per-width table, and proves that
// the engine's positional data movement is a relayout: every element keeps its logical coordinates
// (E-TRANSPOSE; docs/errors.md). The same parameters place every output cell
// (`transpose_source`), which is how a run moves the data (ir/seq/operand_streams.h).
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/stage_check.h"

#include <cstdint>
#include <optional>

namespace tujit::ir::verify {

struct TransposeInput {
  ScalarType dtype = ScalarType::I8;
  Mapping time, packet;         // the input stream
  Mapping out_time, out_packet; // the declared OutTime, OutPacket
};

struct TransposeDerived {
  std::uint64_t element_bits = 8;
  // The per-width table (docs/transpose.md §2).
  std::uint64_t valid_size = 8;     // valid elements per input flit (Unpack)
  std::uint64_t max_in_rows = 8;    // 8 bytes of elements
  std::uint64_t flit_elements = 32; // elements per 32-byte flit (Align pads each row to it)
  // What OutTime and OutPacket imply (§3).
  std::uint64_t in_rows = 1;         // elements per output row (OutPacket without Align's padding)
  std::uint64_t packets_per_col = 1; // input flits gathered into one row
  std::uint64_t in_cols = 8;         // packets_per_col · valid_size
  std::uint64_t out_rows = 8;        // rows kept by Trim (≤ in_cols)
  Mapping outer;                     // the Time outside one matrix, kept in OutTime
  Mapping rows;                      // the `in_rows` Time steps of one matrix: OutPacket's elements
  Mapping columns;                   // one row of the input matrix: [packets_per_col, valid_size]
  // Cycles (§5).
  std::uint64_t iterations = 1; // n = |OutTime| / out_rows
  std::uint64_t in_flits = 1;   // in_rows · packets_per_col per iteration
  bool double_buffered = true;  // in_cols ≤ 16
  std::uint64_t cycles = 0;     // the burst latency
  /// Keys: element_bits, valid_size, max_in_rows, flit_elements, in_rows, packets_per_col,
  /// in_cols, out_rows, outer, rows, columns, iterations, in_flits, buffering ("double" |
  /// "single"), cycles.
  DerivedTable to_table() const;
};

/// Rules, first failure wins (docs/transpose.md §3): E-TRANSPOSE-001 the element width,
/// E-TRANSPOSE-002 / 003 the input packet / OutPacket is not one flit, E-TRANSPOSE-004 the input
/// packet holds elements past valid_size, E-TRANSPOSE-005 OutPacket holds more rows than
/// max_in_rows, E-TRANSPOSE-006 OutPacket's rows are no factor of Time, E-TRANSPOSE-007 in_cols is
/// not a valid width, E-TRANSPOSE-008 |OutTime| is not iterations · out_rows, E-TRANSPOSE-009
/// out_rows > in_cols, E-TRANSPOSE-010 Trim would drop elements, E-TRANSPOSE-011 OutTime is not
/// [outer, the kept rows].
Result<TransposeDerived> verify_transpose(const TransposeInput& in);

/// The burst latency of docs/transpose.md §5 (the book's transpose page, "Performance"):
/// double buffering `in_flits + (n − 1) · max(in_flits, out_rows) + out_rows`, single buffering
/// `n · (in_flits + out_rows)`. Book: furiosa-opt docs/src/computing-tensors/transpose-engine.md
std::uint64_t transpose_cycles(bool double_buffered, std::uint64_t iterations,
                               std::uint64_t in_flits, std::uint64_t out_rows);

/// Where the Transpose Engine takes output cell (`out_time`, `out_packet`) from: the input
/// stream's cell (time, packet), or nullopt for a position Align pads (`out_packet ≥ in_rows`).
struct TransposeSource {
  std::uint64_t time = 0, packet = 0;
};
std::optional<TransposeSource> transpose_source(const TransposeDerived& d, std::uint64_t out_time,
                                                std::uint64_t out_packet);

} // namespace tujit::ir::verify

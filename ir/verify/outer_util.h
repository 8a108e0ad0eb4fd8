// Small helpers shared by the outer-stage verifiers (to_trf, to_vrf, collect, Stream Adapter, TRF
// Sequencer, operand pairs, hardware limits): byte arithmetic on wire bits, `m![…]` rendering for
// messages, and the digit-overlap test the [PROP] disjointness rules use
// (docs/contraction.md §0, §5.1 LaneAxisReused, §5.2 S1/S4).
#pragma once

#include "ir/mapping/factor.h"
#include "ir/mapping/mapping.h"
#include "ir/types/scalar_type.h"

#include <cstdint>
#include <string>

namespace tujit::ir::verify::outer_detail {

/// `m![…]` text of a mapping as the user wrote it.
std::string mtext(const Mapping& m);
/// `m![…]` text of a canonical list (its rendered normal form, docs/mapping.md §4.6).
std::string ftext(const FactorList& l);

/// a·b, saturated at the largest u64 (sizes come from user mappings; a saturated product is
/// always over every capacity, so comparisons stay right).
constexpr std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
  return (b != 0 && a > ~std::uint64_t{0} / b) ? ~std::uint64_t{0} : a * b;
}
/// Total bits of `len` elements on the wire (docs/contraction.md §0 bytes(D, M) = |M|·bits(D)/8).
constexpr std::uint64_t total_bits(ScalarType t, std::uint64_t len) {
  return sat_mul(len, wire_bits(t));
}
/// Bytes of `len` elements, rounded down (callers check whole_bytes first where it matters).
constexpr std::uint64_t bytes_of(ScalarType t, std::uint64_t len) {
  return total_bits(t, len) / target::kRngd.bits_per_byte;
}
constexpr bool whole_bytes(ScalarType t, std::uint64_t len) {
  return total_bits(t, len) % target::kRngd.bits_per_byte == 0;
}

/// True when two digit factors (Terms) can address the same coordinate of one axis: same axis and
/// intersecting digit ranges [s, s·c) (docs/mapping.md §4.1). Composite atoms are compared through
/// the axes they reference (conservative: any shared axis overlaps). Bcast and Pad never overlap.
bool digits_overlap(const Factor& a, const Factor& b);
/// True when some Term of `a` overlaps some Term of `b`; `which` receives the first such Term of a.
bool lists_overlap(const FactorList& a, const FactorList& b, Factor* which = nullptr);
/// True when the digit `f` (a Term) names an axis that some Term of `l` also names, whatever
/// the digits: the coordinate-level disjointness of the broadcast rules (a broadcast digit of an
/// axis the operand has would make the operand's coordinate differ from the output's,
/// docs/contraction.md §5.2 normative definition).
bool shares_axis(const Factor& f, const FactorList& l);
/// First Term of `a` sharing an axis with `b`, if any (into `which`).
bool lists_share_axis(const FactorList& a, const FactorList& b, Factor* which = nullptr);
/// `m![…]`-style text of one digit (e.g. `K / 16 % 2`) for messages.
std::string digit_text(const Factor& f);

/// Byte count as "64 B" / "8 KiB" style text used in messages.
std::string bytes_text(std::uint64_t bytes);

} // namespace tujit::ir::verify::outer_detail

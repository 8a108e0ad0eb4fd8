// Division of canonical factor lists (docs/mapping.md §7): carving a divisor mapping `V` (e.g. an
// engine's output Time) out of a dividend `D` (its input), after refining both lists to common
// digit boundaries. Provides the DivideTerm strides, exact and relaxed division, residues,
// bounds, padding ranges, the compacted remainder, the contiguous tail, padded_extent_at (§4.7)
// and the InnerTime rule of §7.5 that the contraction verifiers build on.
//
// Everything here is a pure function of its inputs; failures are Result diagnostics
// (code E-MAP-…, stage "type").
#pragma once

#include "ir/mapping/factor.h"
#include "ir/support/diagnostic.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tujit::ir {

/// docs/mapping.md §7.2: one matched (retained) digit run of the divisor found in the dividend.
struct DivideTerm {
  std::uint64_t dividend_stride = 1; // E_before of the digit in the refined dividend
  std::uint64_t divisor_stride = 1;  // E_before of the digit in the refined divisor
  std::uint64_t resize = 1;          // the digit's count
  std::vector<std::string> idents;   // axes the atom references, first occurrence innermost first
  friend bool operator==(const DivideTerm&, const DivideTerm&) = default;
};

/// A digit (Term or Bcast) of a refined list that division left unmatched (for the dividend:
/// a *reduced* digit, docs/mapping.md §7.2).
struct UnmatchedDigit {
  std::size_t factor = 0;          // index in the side's refined list
  std::uint64_t stride = 1;        // E_before in the refined list
  std::uint64_t count = 1;         // number of digit values
  std::vector<std::string> idents; // empty for a Bcast
  friend bool operator==(const UnmatchedDigit&, const UnmatchedDigit&) = default;
};

/// A half-open range [begin, end) in stride space (docs/mapping.md §7.4 padding ranges).
struct StrideRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  friend bool operator==(const StrideRange&, const StrideRange&) = default;
};

/// docs/mapping.md §7.4 bounds of one matched single-term leaf: `min` = smallest divisor of the
/// leaf extent that is >= its live count, `max` = the extent.
struct LeafBounds {
  std::uint64_t stride = 1; // the leaf's stride in the refined list
  std::uint64_t min = 1;
  std::uint64_t max = 1;
  friend bool operator==(const LeafBounds&, const LeafBounds&) = default;
};

/// One side (dividend or divisor) of a division.
struct DivisionSide {
  /// §7.1 working list (refined and lifted, not normalized). After matching, each DivideTerm
  /// covers exactly one factor of it (coalesced matches are merged back into one factor).
  FactorList refined;
  std::vector<bool> matched;             // per factor of `refined`: a digit matched by §7.2
  std::vector<UnmatchedDigit> unmatched; // unmatched Terms/Bcasts, innermost first
  FactorList relaxed_residue;            // §7.3: matched digits replaced by Top holes, normalized
};

/// The full result of docs/mapping.md §7 for one (D, V) pair; `terms` may be partial.
struct Division {
  std::vector<DivideTerm> terms; // sorted by dividend_stride descending (outermost first)
  /// Parallel to `terms`: the index of the term's factor in each side's refined list.
  struct Position {
    std::size_t dividend_factor = 0;
    std::size_t divisor_factor = 0;
  };
  std::vector<Position> positions;
  DivisionSide dividend;
  DivisionSide divisor;
  std::uint64_t contiguous_tail = 1; // §7.4 (D-12)
  /// True when every digit of the divisor was matched.
  bool exact() const { return divisor.unmatched.empty(); }
};

/// How the two sides are called in diagnostics ("the time", "the out-time", …).
struct DivideNames {
  std::string dividend = "dividend";
  std::string divisor = "divisor";
};

/// §7.1 refine and lift, exposed for tests and diagnostics: both working lists after the
/// fixpoint (first: dividend, second: divisor).
std::pair<FactorList, FactorList> refine_and_lift(const FactorList& d, const FactorList& v);

/// §7: the (possibly partial) division with both sides' residues and the contiguous tail.
/// `d` and `v` are canonical lists (outputs of factorize/normalize).
Division divide_relaxed(const FactorList& d, const FactorList& v);

/// §7.2 divide_exact: the terms, or an error (E-TYPE-331, stage "type") naming the divisor
/// digits that are not factors of the dividend.
Result<std::vector<DivideTerm>> divide_exact(const FactorList& d, const FactorList& v,
                                             const DivideNames& names = {});

/// Conveniences for callers holding expression trees: factorize (normalize) both, then divide.
Division divide_relaxed(const Mapping& d, const Mapping& v);
Result<std::vector<DivideTerm>> divide_exact(const Mapping& d, const Mapping& v,
                                             const DivideNames& names = {});

/// §7.3 relaxed residue of one side: its refined list with every matched digit replaced by a
/// Top hole over the same positions, normalized (D-11). Division stores it in each side.
FactorList relaxed_residue_of(const DivisionSide& side);

/// §7.3 residues of both sides.
struct Residues {
  FactorList dividend;
  FactorList divisor;
};

/// §7.3 tile residues for a `tile` view over the matched index digit `division.terms[term]`,
/// tile length `len` (1 <= len <= the term's resize): the dividend keeps the first `len` values
/// of that digit and pads the rest of it (Top for read views, Bottom for mutable views); other
/// matched digits become Top holes as in the relaxed residue. The divisor side is its relaxed
/// residue. Errors (E-TYPE-332): no such term, or `len` out of range.
Result<Residues> tile_residues(const Division& division, std::size_t term, std::uint64_t len,
                               bool mutable_view);

/// §7.4 bounds of one matched digit on both sides, parallel to `division.terms`.
struct TermBounds {
  LeafBounds dividend;
  LeafBounds divisor;
  friend bool operator==(const TermBounds&, const TermBounds&) = default;
};

/// §7.4 bounds {min, max} of every matched digit (parallel to `terms`). Error "misaligned"
/// (E-TYPE-333) when a matched digit is not a single-term leaf of its side.
Result<std::vector<TermBounds>> term_bounds(const Division& division);

/// §7.4 padding ranges of one side in stride space, merged where they touch, ascending.
/// `live_start` uses the live count instead of `min` as the start of matched leaves' ranges
/// (the variant the contiguous tail uses).
std::vector<StrideRange> padding_ranges(const DivisionSide& side, bool live_start = false);

/// §7.4 remainder (compacted quotient) of one side; error "misaligned" (E-TYPE-333) when a
/// matched digit lies inside a group leaf.
Result<FactorList> remainder(const DivisionSide& side);

/// §7.4 contiguous tail (D-12), recomputed from a division's terms and padding ranges.
std::uint64_t contiguous_tail(const Division& division);

/// §4.7 padded_extent_at: `map[term.dividend_stride]` when the term starts at an axis boundary
/// of the dividend (D-13), else none ("not an axis boundary").
std::optional<std::uint64_t>
padded_extent_at(const std::map<std::uint64_t, std::uint64_t>& padding_per_stride_map,
                 const DivideTerm& term);

/// §7.5 / docs/contraction.md §7 InnerTime from the division of the pre-reduce Time by the
/// post-reduce Time. `terms` = divide_exact(time, out_time) (outermost first), `time_padding` =
/// padding_per_stride(time). Only terms at an axis boundary of `time` count (those with a
/// padded_extent_at; a boundary ends at dividend_stride·extent). No such term: 1 (everything is
/// reduced). The outermost boundary ends below SIZE(time): the outermost axis is reduced, so the
/// whole `out_time_size` is inner. Otherwise walk the boundaries outer→inner: at the first gap
/// (the inner one does not end where the outer one starts) the result is the divisor stride of
/// the outer one; 1 when there is no gap.
std::uint64_t inner_time_from_division(const std::vector<DivideTerm>& terms,
                                       const std::map<std::uint64_t, std::uint64_t>& time_padding,
                                       std::uint64_t time_size, std::uint64_t out_time_size);

} // namespace tujit::ir

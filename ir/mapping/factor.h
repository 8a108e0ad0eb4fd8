// The canonical factor form of a mapping and the closed algebra on it (docs/mapping.md §4–§6):
// factorize/normalize, pair, padding, split_at (Stride/Modulo), resize, eval, axis leaves,
// rendering, remove_padding, padding_per_stride. Division is in divide.h.
//
// Lists are stored INNERMOST FIRST (factors[0] is the fastest-varying digit), as in the spec.
#pragma once

#include "ir/mapping/mapping.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tujit::ir {

struct FactorList;

/// docs/mapping.md §4.1 Atom: `Sym(X, n)` or `Comp(G)`; size(Comp(G)) = SIZE(G).
struct Atom {
  std::string name;                       // Sym: the axis name; Comp: empty
  std::uint64_t size = 1;                 // Sym: axis size; Comp: SIZE(G)
  std::shared_ptr<const FactorList> comp; // Comp: the canonical list G; Sym: null

  static Atom sym(const Axis& a);
  static Atom composite(FactorList g);
  bool is_composite() const { return comp != nullptr; }
  friend bool operator==(const Atom& a, const Atom& b); // deep on composites
};

/// docs/mapping.md §4.1 Factor.
struct Factor {
  enum class Kind : std::uint8_t { Term, Bcast, Pad };
  Kind kind = Kind::Bcast;
  Atom atom;                          // Term
  std::uint64_t stride = 1;           // Term: contributes digit·stride to the atom
  std::uint64_t count = 1;            // Term, Bcast: number of digit values (>= 2 after normalize)
  std::uint64_t total = 1;            // Pad: ABSOLUTE cumulative extent after this factor
  PaddingKind pad = PaddingKind::Top; // Pad

  static Factor term(Atom a, std::uint64_t stride, std::uint64_t count);
  static Factor bcast(std::uint64_t count);
  static Factor padding(std::uint64_t total, PaddingKind k);
  bool is_term() const { return kind == Kind::Term; }
  bool is_bcast() const { return kind == Kind::Bcast; }
  bool is_pad() const { return kind == Kind::Pad; }
  friend bool operator==(const Factor& a, const Factor& b);
};

/// A canonical factor list, innermost first. Equality is structural (docs/mapping.md §10 D-2).
struct FactorList {
  std::vector<Factor> factors;

  /// SIZE: the cumulative extent after the last factor (1 for the empty list).
  std::uint64_t size() const;
  /// E_before(j): the cumulative extent below factor j (E_0 = 1).
  std::uint64_t extent_before(std::size_t j) const;
  /// E_after(j).
  std::uint64_t extent_after(std::size_t j) const;
  bool empty() const { return factors.empty(); }
  friend bool operator==(const FactorList& a, const FactorList& b);
  /// A debugging dump such as `[Term(A,1,4), Pad(8,top)]` (innermost first).
  std::string debug_string() const;
};

// ---- construction and normalization (§4.3, §4.4) ----------------------------------------
/// normalize(E) = factorize(E): the canonical list of a mapping expression.
FactorList factorize(const Mapping& e);
/// Applies N1–N7 to a fixpoint (atoms normalized recursively).
FactorList normalize(FactorList l);
/// pair(outer, inner) = normalize(inner ++ outer') with outer's Pad totals scaled by SIZE(inner).
FactorList pair(const FactorList& outer, const FactorList& inner);
/// padding(L, t, k): t >= SIZE(L).
Result<FactorList> padding(const FactorList& l, std::uint64_t t, PaddingKind k);

// ---- split, stride, modulo, resize (§5, §6) ---------------------------------------------
struct Split {
  FactorList outer; // Stride(L, n)
  FactorList inner; // Modulo(L, n)
};
/// split_at(L, n): n >= 1 and n | SIZE(L), else an error "not divisible".
Result<Split> split_at(const FactorList& l, std::uint64_t n);
/// resize(L, r): 1 <= r <= SIZE(L).
Result<FactorList> resize(const FactorList& l, std::uint64_t r);
/// is_resize_of(x, orig) [REF]: SIZE(x) <= SIZE(orig) and normalize(x) == resize(normalize(orig),
/// SIZE(x)).
bool is_resize_of(const FactorList& x, const FactorList& orig);

// ---- evaluation (§4.2) -------------------------------------------------------------------
/// eval(L, p): the cell at position p (OutOfBounds when p >= SIZE). Composite atoms are
/// resolved; a composite value beyond its list is an overshoot, reported as a live index whose
/// coordinate exceeds the axis (finalize then flags it), matching Mapping::map.
Cell eval(const FactorList& l, std::uint64_t pos);

// ---- axis leaves, rendering, padding helpers (§4.5–§4.7) ---------------------------------
struct Leaf {
  std::size_t first = 0;    // index of its first (innermost) factor in the list
  std::size_t last = 0;     // index of its last (outermost) factor, inclusive
  std::uint64_t stride = 1; // E_before(first)
  std::uint64_t extent = 1; // E_after(last) / stride
  std::uint64_t live = 1;   // the term's count / E_before(first pad)/stride / 1
  bool group = false;       // several terms merged by a Pad (rendered `[...] # n`)
  bool pure_padding = false;
  /// Index of the first Pad that wraps the leaf as a whole (last + 1 when none): for a single
  /// Term/Bcast leaf first + 1; for a group the Pad that merged it (its inner leaves, with their
  /// own Pads, are the factors [first, first_pad)); for pure padding `first`.
  std::size_t first_pad = 0;
};
std::vector<Leaf> leaves(const FactorList& l);

/// The normal form as a Mapping tree (§4.6 rendering): leaves outermost first, right-nested.
/// Composite atoms render as `[render(G)]`.
Mapping render(const FactorList& l);
/// Same, as `m![…]` body text.
std::string render_text(const FactorList& l);

/// §4.6 remove_padding on a canonical list: delete the maximal run of Pads at the outer end.
FactorList remove_padding(const FactorList& l);
/// §4.6 remove_padding on a tree (the reference's recursive definition).
Mapping remove_padding(const Mapping& m);

/// §4.7 padding_per_stride: leaf stride → leaf extent over the leaves of normalize(M).
std::map<std::uint64_t, std::uint64_t> padding_per_stride(const FactorList& l);

/// How many times, since the program started, a bounded loop of the factor algebra ran out of
/// iterations or an internal invariant failed. Each is a bug; tests assert it stays 0.
std::uint64_t factor_internal_errors();

// ---- §8 byte/flit helpers ------------------------------------------------------------------
constexpr std::uint64_t size_in_bytes(std::uint64_t bits, std::uint64_t len) {
  return len * bits / 8;
}
constexpr std::uint64_t length_from_bytes(std::uint64_t bits, std::uint64_t bytes) {
  return bytes * 8 / bits;
}
constexpr std::uint64_t align_up(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b * b;
}

} // namespace tujit::ir

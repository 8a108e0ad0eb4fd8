// The mapping expression (`m![…]`) as a value: the tree the surface syntax builds, its SIZE and
// its position → Cell function (docs/mapping.md §1.2, §2, §3). The canonical factor form that
// normalize / split / divide work on lives in factor.h.
#pragma once

#include "ir/support/diagnostic.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tujit::ir {

/// docs/mapping.md §2: Bottom (never touched) < Zero (holds 0) < Top (arbitrary content).
enum class PaddingKind : std::uint8_t { Bottom, Zero, Top };
std::string_view to_string(PaddingKind k); // "bottom" | "zero" | "top"

/// An axis is identified by (name, size) (docs/mapping.md §10 D-17).
struct Axis {
  std::string name;
  std::uint64_t size = 1;
  friend bool operator==(const Axis&, const Axis&) = default;
  friend auto operator<=>(const Axis&, const Axis&) = default;
};

/// The axes of one kernel file (`axes![…]`), in declaration order: that order is the logical
/// tensor order everywhere (docs/cli.md §6).
class AxisTable {
public:
  const std::vector<Axis>& axes() const { return axes_; }
  const Axis* find(std::string_view name) const;
  /// False when the name is already declared.
  bool add(Axis a);

private:
  std::vector<Axis> axes_;
};

/// docs/mapping.md §2 Index: axis → coordinate. Iterates in ascending byte order of axis names
/// (D-18). Zero entries may be present structurally (D-4).
using Index = std::map<std::string, std::uint64_t>;

/// Structural equality after dropping zero entries (docs/mapping.md §2 "equivalent").
bool index_equivalent(const Index& a, const Index& b);

/// What a mapping position holds (docs/mapping.md §2).
struct Cell {
  // The enumerator `Index` names the same thing as the type ir::Index; -Wshadow flags that.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
  enum class Kind : std::uint8_t { Index, Padding, OutOfBounds };
#pragma GCC diagnostic pop
  Kind kind = Kind::OutOfBounds;
  Index index;                            // Kind::Index (may be empty: a live broadcast cell)
  PaddingKind padding = PaddingKind::Top; // Kind::Padding

  static Cell live(Index ix) {
    return Cell{Kind::Index, std::move(ix), PaddingKind::Top};
  }
  static Cell pad(PaddingKind k) {
    return Cell{Kind::Padding, {}, k};
  }
  static Cell out_of_bounds() {
    return Cell{};
  }
  bool is_live() const {
    return kind == Kind::Index;
  }
};

/// Equal kinds, equal padding kinds, and equivalent indexes.
bool cell_equivalent(const Cell& a, const Cell& b);

/// docs/mapping.md §2 combine(major, minor).
Cell combine(const Cell& major, const Cell& minor);

/// docs/mapping.md §2 finalize: the live coordinates with zeros dropped, or why the cell is not
/// live.
struct Finalized {
  enum class Kind : std::uint8_t { Live, Padding, Overshoot };
  Kind kind = Kind::Live;
  Index index;                // Live
  PaddingKind padding{};      // Padding (OutOfBounds becomes `oob_fill`)
  std::string overshoot_axis; // Overshoot: the first axis (by name order) whose coordinate >= size
};
Finalized finalize(const Cell& c, PaddingKind oob_fill, const AxisTable& axes);

/// An immutable mapping expression tree. Cheap to copy (shares nodes).
/// Built only through the validating factories, so every Mapping satisfies docs/mapping.md §1.3.
class Mapping {
public:
  enum class Kind : std::uint8_t { Symbol, Broadcast, Pair, Stride, Modulo, Resize, Padding };

  /// The identity `1`.
  Mapping();
  static Mapping symbol(const Axis& a);
  /// `n` (n >= 1; `1` is the identity).
  static Result<Mapping> broadcast(std::uint64_t n);
  /// `major, minor`.
  static Result<Mapping> pair(const Mapping& major, const Mapping& minor);
  /// `x / s`: s >= 1, s | SIZE(x).
  static Result<Mapping> stride(const Mapping& x, std::uint64_t s);
  /// `x % m`: m >= 1, m | SIZE(x).
  static Result<Mapping> modulo(const Mapping& x, std::uint64_t m);
  /// `x = r`: 1 <= r <= SIZE(x) (D-6).
  static Result<Mapping> resize(const Mapping& x, std::uint64_t r);
  /// `x # t` / `#{0}` / `#{!}`: t >= SIZE(x) (D-6).
  static Result<Mapping> padding(const Mapping& x, std::uint64_t t, PaddingKind k);

  Kind kind() const;
  std::uint64_t size() const;
  /// Height of the tree (1 for a leaf). Parsers bound it so that recursive walks stay shallow.
  std::size_t depth() const;
  /// Symbol: the axis.
  const Axis& axis() const;
  /// Broadcast count, Stride s, Modulo m, Resize r, Padding t.
  std::uint64_t number() const;
  PaddingKind padding_kind() const;
  /// Pair: major; Stride/Modulo/Resize/Padding: the operand.
  const Mapping& lhs() const;
  /// Pair: minor.
  const Mapping& rhs() const;

  /// docs/mapping.md §3: the cell at `pos` (OutOfBounds when pos >= SIZE).
  Cell map(std::uint64_t pos) const;

  /// Valid `m![…]` body text (without `m![ ]`) that parses back to an equal tree.
  std::string to_string() const;

  /// The axes this mapping names, each once, in first-occurrence order (outer→inner).
  std::vector<Axis> axes() const;

  /// Structural equality of trees (not equivalence: see factor.h for normal forms).
  friend bool operator==(const Mapping& a, const Mapping& b);

  struct Node;

private:
  explicit Mapping(std::shared_ptr<const Node> n) : node_(std::move(n)) {}
  std::shared_ptr<const Node> node_;
};

/// `m` with every occurrence of the axes named in `axes` replaced by a broadcast of that axis's
/// size: each position keeps its place and its padding and holds no coordinate on those axes. A
/// DMA copy of a tensor along an axis it does not have (docs/dma.md §1) is read this way.
Result<Mapping> broadcast_axes(const Mapping& m, const std::vector<std::string>& axes);

/// Brute-force equivalence by `map` over every position (docs/mapping.md §3 "Equivalence"):
/// equal sizes and every pair of cells equivalent. Cost O(SIZE); for tests and small mappings.
bool equivalent_by_map(const Mapping& a, const Mapping& b);

} // namespace tujit::ir

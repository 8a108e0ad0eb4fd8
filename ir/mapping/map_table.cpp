#include "ir/mapping/map_table.h"

#include <algorithm>

namespace tujit::ir {
namespace {

// The rows of a table for a list of positions; the recursion follows Mapping::map node by node
// (docs/mapping.md §3), so each node's rule is the one stated there.
struct Rows {
  std::vector<Cell::Kind> kind;
  std::vector<PaddingKind> padding;
  std::vector<std::uint64_t> coord;
};

class Evaluator {
public:
  explicit Evaluator(std::vector<std::string> columns) : columns_(std::move(columns)) {}

  Rows eval(const Mapping& m, const std::vector<std::uint64_t>& pos) const {
    const std::size_t n = pos.size(), nc = columns_.size();
    Rows r;
    r.kind.assign(n, Cell::Kind::Index);
    r.padding.assign(n, PaddingKind::Top);
    r.coord.assign(n * nc, 0);
    const std::uint64_t size = m.size();
    std::vector<std::uint64_t> inner; // positions handed to the operand
    std::vector<std::size_t> rows;    // which of our rows each operand position fills
    for (std::size_t k = 0; k < n; ++k)
      if (pos[k] >= size) r.kind[k] = Cell::Kind::OutOfBounds;
    switch (m.kind()) {
    case Mapping::Kind::Symbol: {
      const std::size_t c = column(m.axis().name);
      for (std::size_t k = 0; k < n; ++k)
        if (r.kind[k] == Cell::Kind::Index) r.coord[k * nc + c] = pos[k];
      return r;
    }
    case Mapping::Kind::Broadcast:
      return r;
    case Mapping::Kind::Pair: {
      const std::uint64_t minor = m.rhs().size();
      std::vector<std::uint64_t> maj, min;
      for (std::size_t k = 0; k < n; ++k)
        if (r.kind[k] == Cell::Kind::Index) {
          rows.push_back(k);
          maj.push_back(pos[k] / minor);
          min.push_back(pos[k] % minor);
        }
      const Rows a = eval(m.lhs(), maj), b = eval(m.rhs(), min);
      // docs/mapping.md §2 combine: a non-live major wins, then a non-live minor; else add.
      for (std::size_t j = 0; j < rows.size(); ++j) {
        const std::size_t k = rows[j];
        const Rows& decided = a.kind[j] != Cell::Kind::Index ? a : b;
        if (a.kind[j] != Cell::Kind::Index || b.kind[j] != Cell::Kind::Index) {
          r.kind[k] = decided.kind[j];
          r.padding[k] = decided.padding[j];
          continue;
        }
        for (std::size_t c = 0; c < nc; ++c)
          r.coord[k * nc + c] = a.coord[j * nc + c] + b.coord[j * nc + c];
      }
      return r;
    }
    case Mapping::Kind::Stride:
    case Mapping::Kind::Modulo:
    case Mapping::Kind::Resize:
    case Mapping::Kind::Padding:
      break;
    }
    const std::uint64_t scale = m.kind() == Mapping::Kind::Stride ? m.number() : 1;
    const std::uint64_t live_below =
        m.kind() == Mapping::Kind::Padding ? m.lhs().size() : size; // Padding: the operand's cells
    for (std::size_t k = 0; k < n; ++k) {
      if (r.kind[k] != Cell::Kind::Index) continue;
      if (pos[k] >= live_below) {
        r.kind[k] = Cell::Kind::Padding;
        r.padding[k] = m.padding_kind();
        continue;
      }
      rows.push_back(k);
      inner.push_back(pos[k] * scale);
    }
    const Rows a = eval(m.lhs(), inner);
    for (std::size_t j = 0; j < rows.size(); ++j) {
      const std::size_t k = rows[j];
      r.kind[k] = a.kind[j];
      r.padding[k] = a.padding[j];
      std::copy_n(a.coord.begin() + static_cast<std::ptrdiff_t>(j * nc), nc,
                  r.coord.begin() + static_cast<std::ptrdiff_t>(k * nc));
    }
    return r;
  }

  /// eval(m, {0, 1, …, n − 1}) for n <= SIZE(m), the case of every position of a mapping: a
  /// Pair's major and minor then see prefixes too, so each child is evaluated over its own
  /// (small) positions once and the rows are their combinations, instead of over n positions.
  Rows prefix(const Mapping& m, std::uint64_t n) const {
    const std::size_t nc = columns_.size();
    Rows r;
    switch (m.kind()) {
    case Mapping::Kind::Symbol:
    case Mapping::Kind::Broadcast: // live cells, a Symbol's on its own column
      r.kind.assign(n, Cell::Kind::Index);
      r.padding.assign(n, PaddingKind::Top);
      r.coord.assign(n * nc, 0);
      if (m.kind() == Mapping::Kind::Symbol)
        for (std::uint64_t k = 0, c = column(m.axis().name); k < n; ++k) r.coord[k * nc + c] = k;
      return r;
    case Mapping::Kind::Pair: {
      const std::uint64_t minor = m.rhs().size();
      const Rows a = prefix(m.lhs(), (n + minor - 1) / minor);
      const Rows b = prefix(m.rhs(), std::min(n, minor));
      r.kind.resize(n);
      r.padding.resize(n);
      r.coord.assign(n * nc, 0);
      // docs/mapping.md §2 combine: a non-live major wins, then a non-live minor; else add.
      for (std::uint64_t j = 0, k = 0; k < n; ++j)
        for (std::uint64_t i = 0; i < minor && k < n; ++i, ++k) {
          if (a.kind[j] != Cell::Kind::Index || b.kind[i] != Cell::Kind::Index) {
            const bool major = a.kind[j] != Cell::Kind::Index;
            r.kind[k] = major ? a.kind[j] : b.kind[i];
            r.padding[k] = major ? a.padding[j] : b.padding[i];
            continue;
          }
          r.kind[k] = Cell::Kind::Index;
          r.padding[k] = PaddingKind::Top;
          for (std::size_t c = 0; c < nc; ++c)
            r.coord[k * nc + c] = a.coord[j * nc + c] + b.coord[i * nc + c];
        }
      return r;
    }
    case Mapping::Kind::Modulo:
    case Mapping::Kind::Resize: // the operand's first cells (docs/mapping.md §3)
      return prefix(m.lhs(), n);
    case Mapping::Kind::Padding: {
      const std::uint64_t live = std::min(n, m.lhs().size());
      r = prefix(m.lhs(), live);
      r.kind.resize(n, Cell::Kind::Padding);
      r.padding.resize(n, m.padding_kind());
      r.coord.resize(n * nc, 0);
      return r;
    }
    case Mapping::Kind::Stride:
      break;
    }
    // `x / s` reads every s-th cell of x: through x's prefix when that is not much longer than
    // the positions asked for, else position by position.
    const std::uint64_t s = m.number();
    if (n == 0) return eval(m, {});
    const std::uint64_t reach = (n - 1) * s + 1;
    if (reach > 4 * n) {
      std::vector<std::uint64_t> pos(n);
      for (std::uint64_t k = 0; k < n; ++k) pos[k] = k;
      return eval(m, pos);
    }
    const Rows a = prefix(m.lhs(), reach);
    r.kind.resize(n);
    r.padding.resize(n);
    r.coord.resize(n * nc);
    for (std::uint64_t k = 0; k < n; ++k) {
      r.kind[k] = a.kind[k * s];
      r.padding[k] = a.padding[k * s];
      std::copy_n(a.coord.begin() + static_cast<std::ptrdiff_t>(k * s * nc), nc,
                  r.coord.begin() + static_cast<std::ptrdiff_t>(k * nc));
    }
    return r;
  }

private:
  std::size_t column(const std::string& name) const {
    return static_cast<std::size_t>(std::find(columns_.begin(), columns_.end(), name) -
                                    columns_.begin());
  }
  std::vector<std::string> columns_;
};

} // namespace

MappedTable map_table(const Mapping& m, const std::vector<Axis>& axes) {
  MappedTable t;
  t.size = m.size();
  for (const Axis& a : axes) t.columns.push_back(a.name);
  for (const Axis& a : m.axes())
    if (std::find(t.columns.begin(), t.columns.end(), a.name) == t.columns.end())
      t.columns.push_back(a.name);
  Rows r = Evaluator(t.columns).prefix(m, t.size);
  t.kind = std::move(r.kind);
  t.padding = std::move(r.padding);
  t.coord = std::move(r.coord);
  return t;
}

} // namespace tujit::ir

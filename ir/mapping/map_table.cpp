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
  std::vector<std::uint64_t> pos(t.size);
  for (std::uint64_t p = 0; p < t.size; ++p) pos[p] = p;
  Rows r = Evaluator(t.columns).eval(m, pos);
  t.kind = std::move(r.kind);
  t.padding = std::move(r.padding);
  t.coord = std::move(r.coord);
  return t;
}

} // namespace tujit::ir

#include "ir/mapping/live_coordinates.h"

#include "ir/mapping/map_table.h"

#include <algorithm>

namespace tujit::ir {
namespace {

class Collector {
public:
  Collector(std::vector<std::string> columns, std::vector<std::uint64_t> caps)
      : columns_(std::move(columns)), caps_(std::move(caps)) {}

  LiveCoordinates empty() const {
    LiveCoordinates r;
    r.columns = columns_;
    r.held.resize(columns_.size());
    for (std::size_t c = 0; c < columns_.size(); ++c) r.held[c].assign(caps_[c], false);
    r.beyond.assign(columns_.size(), false);
    return r;
  }

  LiveCoordinates collect(const Mapping& m) const {
    switch (m.kind()) {
    case Mapping::Kind::Symbol: {
      LiveCoordinates r = live_at_zero();
      const std::size_t c = column(m.axis().name);
      const std::uint64_t n = std::min(m.size(), caps_[c]);
      std::fill_n(r.held[c].begin(), n, true);
      r.beyond[c] = m.size() > caps_[c];
      return r;
    }
    case Mapping::Kind::Broadcast: // every cell live, at coordinate 0 on every axis
      return live_at_zero();
    case Mapping::Kind::Pair:
      return sums(collect(m.lhs()), collect(m.rhs()));
    case Mapping::Kind::Padding: // the operand's cells, then dead ones
      return collect(m.lhs());
    case Mapping::Kind::Modulo:
    case Mapping::Kind::Resize: // the operand's first cells: all of them when the sizes agree
      if (m.size() == m.lhs().size()) return collect(m.lhs());
      return from_table(m);
    case Mapping::Kind::Stride:
      break;
    }
    return from_table(m);
  }

private:
  LiveCoordinates live_at_zero() const {
    LiveCoordinates r = empty();
    r.any_live = true;
    for (auto& h : r.held) h[0] = true; // every cap is at least 1 (an axis's size)
    return r;
  }

  /// The pairs of live cells of both sides: per column {a + b}, split at the cap.
  LiveCoordinates sums(const LiveCoordinates& a, const LiveCoordinates& b) const {
    LiveCoordinates r = empty();
    if (!a.any_live || !b.any_live) return r;
    r.any_live = true;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const std::uint64_t cap = caps_[c];
      // A coordinate at or past the cap stays there: coordinates only add.
      r.beyond[c] = a.beyond[c] || b.beyond[c];
      const std::vector<std::uint64_t> ys = set_coordinates(b.held[c]);
      if (ys.size() == 1 && ys[0] == 0) { // adding 0: a's set (the common case of other axes)
        r.held[c] = a.held[c];
        continue;
      }
      for (std::uint64_t x = 0; x < cap; ++x) {
        if (!a.held[c][x]) continue;
        for (std::uint64_t y : ys) {
          if (x + y >= cap) {
            r.beyond[c] = true;
            break; // ys increase
          }
          r.held[c][x + y] = true;
        }
      }
    }
    return r;
  }

  /// Position by position (map_table) where the live positions are not a product of the
  /// operands' (a stride, or a prefix shorter than the operand).
  LiveCoordinates from_table(const Mapping& m) const {
    std::vector<Axis> asked;
    for (std::size_t c = 0; c < columns_.size(); ++c) asked.push_back({columns_[c], caps_[c]});
    const MappedTable t = map_table(m, asked);
    LiveCoordinates r = empty();
    for (std::uint64_t p = 0; p < t.size; ++p) {
      if (t.kind[p] != Cell::Kind::Index) continue;
      r.any_live = true;
      for (std::size_t c = 0; c < columns_.size(); ++c) {
        const std::uint64_t v = t.at(p)[c];
        if (v < caps_[c])
          r.held[c][v] = true;
        else
          r.beyond[c] = true;
      }
    }
    return r;
  }

  std::size_t column(const std::string& name) const {
    return static_cast<std::size_t>(std::find(columns_.begin(), columns_.end(), name) -
                                    columns_.begin());
  }

  std::vector<std::string> columns_;
  std::vector<std::uint64_t> caps_;
};

} // namespace

std::vector<std::uint64_t> set_coordinates(const std::vector<bool>& present) {
  // Sized first: an axis of a million coordinates would otherwise regrow the vector ~20 times.
  std::vector<std::uint64_t> v(
      static_cast<std::size_t>(std::count(present.begin(), present.end(), true)));
  std::size_t n = 0;
  for (std::uint64_t c = 0; c < present.size(); ++c)
    if (present[c]) v[n++] = c;
  return v;
}

std::uint64_t live_positions(const Mapping& m) {
  switch (m.kind()) {
  case Mapping::Kind::Symbol:
  case Mapping::Kind::Broadcast:
    return m.size();
  case Mapping::Kind::Pair: // the pairs of live positions of both sides
    return live_positions(m.lhs()) * live_positions(m.rhs());
  case Mapping::Kind::Padding: // the operand's positions, then dead ones
    return live_positions(m.lhs());
  case Mapping::Kind::Modulo:
  case Mapping::Kind::Resize:
    if (m.size() == m.lhs().size()) return live_positions(m.lhs());
    break;
  case Mapping::Kind::Stride:
    break;
  }
  std::uint64_t n = 0;
  for (std::uint64_t p = 0; p < m.size(); ++p) n += m.map(p).kind == Cell::Kind::Index ? 1 : 0;
  return n;
}

LiveCoordinates live_coordinates(const Mapping& m, const std::vector<Axis>& axes) {
  std::vector<std::string> columns;
  std::vector<std::uint64_t> caps;
  for (const Axis& a : axes) {
    columns.push_back(a.name);
    caps.push_back(a.size);
  }
  for (const Axis& a : m.axes())
    if (std::find(columns.begin(), columns.end(), a.name) == columns.end()) {
      columns.push_back(a.name);
      caps.push_back(1);
    }
  return Collector(std::move(columns), std::move(caps)).collect(m);
}

} // namespace tujit::ir

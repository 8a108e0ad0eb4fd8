#include "ir/seq/address_stream.h"

#include "ir/mapping/map_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace tujit::ir::seq {
namespace {

// The affine form of explicit cells, if every cell is live and the offsets are base + Σ
// digit·stride over some mixed radix: loops are found innermost first, each as long as the offsets
// keep advancing by one stride (cut to a divisor of what is left), then every position is checked.
std::optional<std::pair<std::uint64_t, std::vector<AddressLoop>>>
affine_form(const std::vector<std::uint64_t>& off, const std::vector<CellState>& state) {
  const std::uint64_t n = off.size();
  if (n == 0) return std::nullopt;
  for (CellState s : state)
    if (s != CellState::Live) return std::nullopt;
  const std::uint64_t base = off[0];
  std::vector<AddressLoop> loops;
  std::uint64_t block = 1;
  while (block < n) {
    const auto stride = static_cast<std::int64_t>(off[block] - base);
    std::uint64_t count = 2;
    while ((count + 1) * block <= n - 0 &&
           off[count * block] == base + static_cast<std::uint64_t>(stride) * count)
      ++count;
    while ((n / block) % count != 0) --count;
    if (count < 2) return std::nullopt;
    loops.push_back({count, stride});
    block *= count;
  }
  std::vector<std::uint64_t> digit(loops.size(), 0);
  std::uint64_t cur = base;
  for (std::uint64_t p = 0; p < n; ++p) {
    if (off[p] != cur) return std::nullopt;
    for (std::size_t k = 0; k < loops.size(); ++k) {
      cur += static_cast<std::uint64_t>(loops[k].stride);
      if (++digit[k] < loops[k].size) break;
      cur -= static_cast<std::uint64_t>(loops[k].stride) * loops[k].size;
      digit[k] = 0;
    }
  }
  return std::make_pair(base, std::move(loops));
}

bool mul_overflows(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > std::numeric_limits<std::uint64_t>::max() / b;
}

} // namespace

AddressTable AddressTable::affine(std::uint64_t base, std::vector<AddressLoop> loops) {
  AddressTable t;
  t.base_ = base;
  t.size_ = 1;
  for (const AddressLoop& l : loops) t.size_ *= l.size;
  t.loops_ = std::move(loops);
  return t;
}

AddressTable AddressTable::explicit_cells(std::vector<CellAddress> cells) {
  std::vector<std::uint64_t> off(cells.size());
  std::vector<CellState> st(cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    off[i] = cells[i].state == CellState::Live ? cells[i].offset : 0;
    st[i] = cells[i].state;
  }
  if (auto a = affine_form(off, st)) return affine(a->first, std::move(a->second));
  AddressTable t;
  t.size_ = cells.size();
  for (auto& c : cells)
    if (c.state != CellState::Live) {
      c.offset = 0;
      t.all_live_ = false;
    }
  t.explicit_ = std::move(cells);
  return t;
}

AddressTable AddressTable::from_function(std::uint64_t size,
                                         const std::function<CellAddress(std::uint64_t)>& f) {
  std::vector<CellAddress> cells(size);
  for (std::uint64_t p = 0; p < size; ++p) cells[p] = f(p);
  return explicit_cells(std::move(cells));
}

CellAddress AddressTable::at(std::uint64_t p) const {
  if (!explicit_.empty()) return explicit_[p];
  std::uint64_t off = base_;
  for (const AddressLoop& l : loops_) {
    off += static_cast<std::uint64_t>(l.stride) * (p % l.size);
    p /= l.size;
  }
  return {off, CellState::Live};
}

bool AddressTable::any(CellState s) const {
  if (explicit_.empty()) return s == CellState::Live && size_ > 0;
  return std::any_of(explicit_.begin(), explicit_.end(),
                     [s](const CellAddress& c) { return c.state == s; });
}

std::uint64_t AddressTable::live_count() const {
  if (explicit_.empty()) return size_;
  return static_cast<std::uint64_t>(
      std::count_if(explicit_.begin(), explicit_.end(),
                    [](const CellAddress& c) { return c.state == CellState::Live; }));
}

std::uint64_t AddressTable::max_offset() const {
  std::uint64_t m = 0;
  if (explicit_.empty()) {
    m = base_;
    for (const AddressLoop& l : loops_)
      if (l.stride > 0) m += static_cast<std::uint64_t>(l.stride) * (l.size - 1);
    return m;
  }
  for (const CellAddress& c : explicit_)
    if (c.state == CellState::Live) m = std::max(m, c.offset);
  return m;
}

bool operator==(const AddressTable& a, const AddressTable& b) {
  if (a.size_ != b.size_ || a.explicit_.size() != b.explicit_.size()) return false;
  if (a.explicit_.empty()) return a.base_ == b.base_ && a.loops_ == b.loops_;
  for (std::size_t i = 0; i < a.explicit_.size(); ++i)
    if (a.explicit_[i].state != b.explicit_[i].state ||
        a.explicit_[i].offset != b.explicit_[i].offset)
      return false;
  return true;
}

std::string AddressTable::text() const {
  if (!explicit_.empty()) return fmt::format("table of {} ({} live)", size_, live_count());
  std::string s = "[";
  for (std::size_t k = loops_.size(); k-- > 0;)
    s += fmt::format("{}{} : {}", k + 1 == loops_.size() ? "" : ", ", loops_[k].size,
                     loops_[k].stride);
  return s + fmt::format("] + {}", base_);
}

void AddressTable::hash(Fnv1a& h) const {
  h.add(size_);
  h.add(explicit_.size());
  if (explicit_.empty()) {
    h.add(base_);
    for (const AddressLoop& l : loops_) {
      h.add(l.size);
      h.add(static_cast<std::uint64_t>(l.stride));
    }
    return;
  }
  for (const CellAddress& c : explicit_) {
    h.add(c.offset);
    h.add(static_cast<std::uint64_t>(c.state));
  }
}

CellAddress CellStreams::at(std::uint64_t o, std::uint64_t i) const {
  if (!separable) return full.at(o * inner_size + i);
  const CellAddress a = outer.at(o);
  if (a.state != CellState::Live) return {0, a.state};
  const CellAddress b = inner.at(i);
  if (b.state != CellState::Live) return {0, b.state};
  return {a.offset + b.offset, CellState::Live};
}

bool CellStreams::all_live() const {
  return separable ? outer.all_live() && inner.all_live() : full.all_live();
}

bool CellStreams::any(CellState s) const {
  if (!separable) return full.any(s);
  if (s == CellState::Live) return outer.any(s) && inner.any(s);
  return outer.any(s) || (outer.any(CellState::Live) && inner.any(s));
}

CellStreams
CellStreams::from_function(std::uint64_t outer, std::uint64_t inner,
                           const std::function<CellAddress(std::uint64_t, std::uint64_t)>& f) {
  CellStreams c;
  c.outer_size = outer;
  c.inner_size = inner;
  // Rows and columns are anchored at the first row holding a live cell and, in it, the live
  // column with the smallest offset: outer(o) = f(o, i*), inner(i) = f(o*, i) − f(o*, i*), so
  // every offset of both tables is non-negative.
  std::optional<std::pair<std::uint64_t, std::uint64_t>> anchor;
  for (std::uint64_t o = 0; o < outer && !anchor; ++o)
    for (std::uint64_t i = 0; i < inner; ++i) {
      const CellAddress x = f(o, i);
      if (x.state != CellState::Live) continue;
      if (!anchor || x.offset < f(o, anchor->second).offset) anchor.emplace(o, i);
    }
  if (anchor) {
    const auto [o0, i0] = *anchor;
    const std::uint64_t origin = f(o0, i0).offset;
    std::vector<CellAddress> rows(outer), cols(inner);
    for (std::uint64_t o = 0; o < outer; ++o) rows[o] = f(o, i0);
    for (std::uint64_t i = 0; i < inner; ++i) {
      cols[i] = f(o0, i);
      if (cols[i].state == CellState::Live) cols[i].offset -= origin;
    }
    bool ok = true;
    for (std::uint64_t o = 0; o < outer && ok; ++o)
      for (std::uint64_t i = 0; i < inner && ok; ++i) {
        const CellAddress x = f(o, i);
        const CellState want = combine_states(rows[o].state, cols[i].state);
        ok = x.state == want &&
             (want != CellState::Live || x.offset == rows[o].offset + cols[i].offset);
      }
    if (ok) {
      c.outer = AddressTable::explicit_cells(std::move(rows));
      c.inner = AddressTable::explicit_cells(std::move(cols));
      return c;
    }
  }
  c.separable = false;
  c.full = AddressTable::from_function(outer * inner,
                                       [&](std::uint64_t k) { return f(k / inner, k % inner); });
  return c;
}

CellAddress TensorStreams::at(std::uint64_t s, std::uint64_t o, std::uint64_t i) const {
  const CellAddress a = spatial.at(s);
  if (a.state != CellState::Live) return {0, a.state};
  const CellAddress b = cells.at(o, i);
  if (b.state != CellState::Live) return b;
  return {a.offset + b.offset, CellState::Live};
}

std::string TensorStreams::text() const {
  std::string s = fmt::format("{} {} spatial {}; ", tensor, name(dtype), spatial.text());
  if (cells.separable)
    return s + fmt::format("outer {}; inner {}", cells.outer.text(), cells.inner.text());
  return s +
         fmt::format("cells [{}][{}] {}", cells.outer_size, cells.inner_size, cells.full.text());
}

ViewDims view_dims(TensorKind kind) {
  ViewDims d;
  d.spatial = {Slot::Chip, Slot::Cluster, Slot::Slice};
  switch (kind) {
  case TensorKind::Begin:
  case TensorKind::Fetch:
  case TensorKind::Collect:
  case TensorKind::Contract:
  case TensorKind::Vector:
  case TensorKind::VectorFinal:
  case TensorKind::Stream:
  case TensorKind::Cast:
  case TensorKind::CommitTrim:
  case TensorKind::CommitCast:
  case TensorKind::Transpose:
  case TensorKind::Switch:
    d.outer = {Slot::Time};
    d.inner = {Slot::Packet};
    break;
  case TensorKind::Trf:
    d.outer = {Slot::Lane};
    d.inner = {Slot::Element};
    break;
  case TensorKind::ContractOuter:
  case TensorKind::ContractPacket:
  case TensorKind::ContractTime:
    d.outer = {Slot::Lane, Slot::Time};
    d.inner = {Slot::Packet};
    break;
  case TensorKind::Vrf:
  case TensorKind::Dm:
  case TensorKind::Hbm:
  case TensorKind::Mem:
    d.inner = {Slot::Element};
    break;
  }
  return d;
}

Result<std::uint64_t> dimension_size(const TensorType& type, const std::vector<Slot>& slots,
                                     std::uint64_t max_positions) {
  std::uint64_t size = 1;
  for (Slot s : slots) {
    if (mul_overflows(size, type.mapping(s).size()))
      return run_error("E-RUN-003", fmt::format("the layout of {} has too many cells to count",
                                                to_string(type)));
    size *= type.mapping(s).size();
  }
  if (size > max_positions)
    return run_error("E-RUN-001",
                     fmt::format("a dimension of {} has {} positions, more than the limit of {}",
                                 to_string(type), size, max_positions));
  return size;
}

Diagnostic slot_axis_error(Slot slot, const Mapping& m, const std::string& axis) {
  return run_error("E-RUN-002",
                   fmt::format("the {} mapping `{}` names axis {}, which is not an axis of the "
                               "logical tensor",
                               to_string(slot), m.to_string(), axis));
}

Status check_slot_axes(const MappedTable& t, std::uint64_t p, std::size_t na, Slot slot,
                       const Mapping& m) {
  for (std::size_t c = na; c < t.columns.size(); ++c)
    if (t.at(p)[c] != 0) return slot_axis_error(slot, m, t.columns[c]);
  return {};
}

Result<DimCoordinates> slot_coordinates(const std::vector<Slot>& slots,
                                        const std::vector<Mapping>& mappings, std::uint64_t size,
                                        const std::vector<Axis>& axes) {
  const std::size_t na = axes.size();
  DimCoordinates d;
  d.axes = na;
  d.size = size;
  d.state.assign(size, CellState::Live);
  d.coord.assign(size * na, 0);
  std::uint64_t minor = size; // product of the sizes of this slot and the slots inside it
  for (std::size_t k = 0; k < mappings.size(); ++k) {
    const Mapping& m = mappings[k];
    const std::uint64_t msize = m.size();
    minor /= msize;
    // Every position of the slot at once, then spread over the dimension.
    const MappedTable t = map_table(m, axes);
    std::vector<CellState> pst(msize, CellState::Live);
    std::vector<std::uint64_t> pco(msize * na, 0);
    for (std::uint64_t p = 0; p < msize; ++p) {
      if (t.kind[p] == Cell::Kind::Padding) {
        pst[p] = cell_state_of(t.padding[p]);
        continue;
      }
      if (t.kind[p] == Cell::Kind::OutOfBounds) { // unreachable: p < SIZE
        pst[p] = CellState::Bottom;
        continue;
      }
      if (auto ok = check_slot_axes(t, p, na, slots[k], m); !ok) return ok.diagnostics();
      std::copy_n(t.at(p), na, pco.begin() + static_cast<std::ptrdiff_t>(p * na));
    }
    for (std::uint64_t pos = 0; pos < size; ++pos) {
      if (d.state[pos] != CellState::Live) continue; // a more major slot is padding
      const std::uint64_t p = (pos / minor) % msize;
      if (pst[p] != CellState::Live) {
        d.state[pos] = pst[p];
        continue;
      }
      for (std::size_t a = 0; a < na; ++a) d.coord[pos * na + a] += pco[p * na + a];
    }
  }
  for (std::uint64_t pos = 0; pos < size; ++pos)
    if (d.state[pos] != CellState::Live)
      std::fill_n(d.coord.begin() + static_cast<std::ptrdiff_t>(pos * na), na, 0);
  return d;
}

namespace {

// One view dimension of `type`, bounded by `max_positions`.
Result<DimCoordinates> dim_coordinates(const TensorType& type, const std::vector<Slot>& slots,
                                       const std::vector<Axis>& axes, std::uint64_t max_positions) {
  auto size = dimension_size(type, slots, max_positions);
  if (!size) return std::move(size).take_diagnostics();
  std::vector<Mapping> mappings;
  for (Slot s : slots) mappings.push_back(type.mapping(s));
  return slot_coordinates(slots, mappings, *size, axes);
}

std::vector<std::uint64_t> max_live(const DimCoordinates& d) {
  std::vector<std::uint64_t> m(d.axes, 0);
  for (std::uint64_t p = 0; p < d.size; ++p)
    if (d.state[p] == CellState::Live)
      for (std::size_t a = 0; a < d.axes; ++a) m[a] = std::max(m[a], d.at(p)[a]);
  return m;
}

/// The axes `m` pads as a whole (`X # t`, `X #{0} t`), with the padded extent and its state.
void padded_axes(const Mapping& m, ViewCoordinates& v) {
  if (m.kind() == Mapping::Kind::Padding && m.lhs().kind() == Mapping::Kind::Symbol)
    for (std::size_t a = 0; a < v.axes.size(); ++a)
      if (v.axes[a].name == m.lhs().axis().name) {
        v.padded_extent[a] = m.number();
        v.padded_state[a] = cell_state_of(m.padding_kind());
      }
  if (m.kind() == Mapping::Kind::Symbol || m.kind() == Mapping::Kind::Broadcast) return;
  padded_axes(m.lhs(), v);
  if (m.kind() == Mapping::Kind::Pair) padded_axes(m.rhs(), v);
}

bool any_live(const DimCoordinates& d) {
  return std::any_of(d.state.begin(), d.state.end(),
                     [](CellState s) { return s == CellState::Live; });
}

} // namespace

Result<ViewCoordinates> view_coordinates(const TensorType& type, const std::vector<Axis>& axes,
                                         std::uint64_t max_positions) {
  const ViewDims dims = view_dims(type.kind);
  ViewCoordinates v;
  v.axes = axes;
  auto s = dim_coordinates(type, dims.spatial, axes, max_positions);
  if (!s) return std::move(s).take_diagnostics();
  auto o = dim_coordinates(type, dims.outer, axes, max_positions);
  if (!o) return std::move(o).take_diagnostics();
  auto i = dim_coordinates(type, dims.inner, axes, max_positions);
  if (!i) return std::move(i).take_diagnostics();
  v.spatial = std::move(*s);
  v.outer = std::move(*o);
  v.inner = std::move(*i);
  v.padded_extent.assign(axes.size(), 0);
  v.padded_state.assign(axes.size(), CellState::Top);
  for (const auto& slots : {dims.spatial, dims.outer, dims.inner})
    for (Slot slot : slots) padded_axes(type.mapping(slot), v);
  return v;
}

std::vector<std::uint64_t> reached_extent(const ViewCoordinates& v) {
  std::vector<std::uint64_t> e(v.axes.size(), 0);
  if (!any_live(v.spatial) || !any_live(v.outer) || !any_live(v.inner)) return e;
  const auto s = max_live(v.spatial), o = max_live(v.outer), i = max_live(v.inner);
  for (std::size_t a = 0; a < e.size(); ++a) e[a] = s[a] + o[a] + i[a] + 1;
  return e;
}

std::uint64_t element_count(const std::vector<Axis>& axes) {
  std::uint64_t n = 1;
  for (const Axis& a : axes) n *= a.size;
  return n;
}

std::vector<std::uint64_t> row_major_strides(const std::vector<Axis>& axes) {
  std::vector<std::uint64_t> stride(axes.size(), 1);
  for (std::size_t a = axes.size(); a-- > 1;) stride[a - 1] = stride[a] * axes[a].size;
  return stride;
}

Result<TensorStreams> tensor_streams(const std::string& tensor, ScalarType dtype,
                                     const ViewCoordinates& v, const std::vector<Axis>& tensor_axes,
                                     const std::vector<std::uint64_t>& divide_in) {
  const std::size_t na = v.axes.size();
  std::vector<std::uint64_t> divide = divide_in;
  divide.resize(na, 1);
  // Overshoot (docs/mapping.md §2 finalize): the dimensions are independent, so some live cell
  // reaches the sum of each dimension's largest live coordinate.
  const std::vector<std::uint64_t> reach = reached_extent(v);
  const std::vector<std::uint64_t> spatial_reach = max_live(v.spatial);
  std::vector<bool> into_padding(na, false);
  for (std::size_t a = 0; a < na; ++a) {
    // Cell digits of one padded axis that sum into its padding (docs/mapping.md §2).
    into_padding[a] = reach[a] > v.axes[a].size && a < v.padded_extent.size() &&
                      reach[a] <= v.padded_extent[a] && spatial_reach[a] == 0;
    if (reach[a] > v.axes[a].size && !into_padding[a])
      return run_error("E-RUN-002",
                       fmt::format("a live cell of the layout overshoots axis {}: coordinate {} is "
                                   "not below its size {}",
                                   v.axes[a].name, reach[a] - 1, v.axes[a].size));
    if (std::min(reach[a], v.axes[a].size) > tensor_axes[a].size * divide[a])
      return run_error("E-RUN-005",
                       fmt::format("the view reaches coordinate {} of axis {}, outside the tensor "
                                   "`{}` (size {})",
                                   reach[a] - 1, v.axes[a].name, tensor, tensor_axes[a].size));
  }
  const std::vector<std::uint64_t> stride = row_major_strides(tensor_axes);
  std::optional<Diagnostic> error;
  const auto table = [&](const DimCoordinates& d) {
    return AddressTable::from_function(d.size, [&](std::uint64_t p) -> CellAddress {
      if (d.state[p] != CellState::Live) return {0, d.state[p]};
      std::uint64_t off = 0;
      for (std::size_t a = 0; a < na; ++a) {
        const std::uint64_t c = d.at(p)[a];
        if (c % divide[a] != 0 && !error)
          error = run_error("E-RUN-005",
                            fmt::format("the view holds coordinate {} of axis {}, which is not a "
                                        "multiple of {}",
                                        c, v.axes[a].name, divide[a]));
        off += c / divide[a] * stride[a];
      }
      return {off, CellState::Live};
    });
  };
  TensorStreams t;
  t.tensor = tensor;
  t.dtype = dtype;
  t.axes = tensor_axes;
  t.spatial = table(v.spatial);
  t.cells.outer_size = v.outer.size;
  t.cells.inner_size = v.inner.size;
  t.cells.outer = table(v.outer);
  t.cells.inner = table(v.inner);
  if (std::find(into_padding.begin(), into_padding.end(), true) != into_padding.end()) {
    // The cells decide their state together: one table per slice.
    t.cells = CellStreams::from_function(
        v.outer.size, v.inner.size, [&](std::uint64_t o, std::uint64_t i) -> CellAddress {
          const CellState st = combine_states(v.outer.state[o], v.inner.state[i]);
          if (st != CellState::Live) return {0, st};
          std::uint64_t off = 0;
          for (std::size_t a = 0; a < na; ++a) {
            const std::uint64_t c = v.outer.at(o)[a] + v.inner.at(i)[a];
            if (c >= v.axes[a].size) return {0, v.padded_state[a]};
            off += c / divide[a] * stride[a];
          }
          return {off, CellState::Live};
        });
  }
  if (error) return *error;
  return t;
}

} // namespace tujit::ir::seq

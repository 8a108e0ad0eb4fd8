#include "harness/tune/candidate.h"

#include "ir/mapping/factor.h"
#include "ir/target/rngd.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace tujit::tune {

namespace {

using ir::Factor;
using ir::FactorList;
using ir::Mapping;

constexpr const target::TensorUnitDescription& kTu = target::kRngd;

Diagnostic not_the_einsum(std::string message, std::vector<std::string> notes = {}) {
  Diagnostic d = make_error("E-TUNE-010", std::move(message), std::nullopt, std::move(notes));
  d.stage = "tune";
  return d;
}

Diagnostic internal(std::string message) {
  Diagnostic d = make_error("E-TUNE-011", "internal: " + std::move(message));
  d.stage = "tune";
  return d;
}

std::uint64_t next_pow2(std::uint64_t n) {
  std::uint64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

// Builds mappings from the validating factories; the first failure is kept (a bug here: every
// stride and count divides its axis by construction).
class Builder {
public:
  explicit Builder(const Problem& p) : p_(p) {}
  bool failed() const { return failed_; }

  Mapping take(Result<Mapping> r) {
    if (r) return std::move(*r);
    failed_ = true;
    return Mapping();
  }
  // `A / stride % count`, `A % count`, `A / stride` or `A`.
  Mapping digit(std::size_t a, std::uint64_t stride, std::uint64_t count) {
    Mapping m = Mapping::symbol(p_.axes[a].axis);
    if (stride > 1) m = take(Mapping::stride(m, stride));
    if (count < m.size()) m = take(Mapping::modulo(m, count));
    return m;
  }
  // [m0, m1, …] outer → inner; the identity `1` when empty.
  Mapping sequence(const std::vector<Mapping>& ms) {
    if (ms.empty()) return Mapping();
    Mapping out = ms.back();
    for (std::size_t i = ms.size() - 1; i-- > 0;) out = take(Mapping::pair(ms[i], out));
    return out;
  }
  Mapping padded(Mapping m, std::uint64_t to) {
    if (m.size() >= to) return m;
    return take(Mapping::padding(m, to, ir::PaddingKind::Top));
  }

private:
  const Problem& p_;
  bool failed_ = false;
};

// Strides of an axis's digits (canonical order, outer → inner).
struct Strides {
  std::uint64_t cluster, slice, lane, time, packet = 1;
};
Strides strides_of(const AxisPieces& x) {
  Strides s;
  s.time = x.packet;
  s.lane = s.time * x.time;
  s.slice = s.lane * x.lane;
  s.cluster = s.slice * x.slice;
  return s;
}

// Index of the problem axis a Term names (its atom is an axis symbol), or nullopt.
std::optional<std::size_t> axis_of(const Problem& p, const Factor& f) {
  if (!f.is_term() || f.atom.is_composite()) return std::nullopt;
  for (std::size_t a = 0; a < p.axes.size(); ++a)
    if (p.axes[a].axis.name == f.atom.name) return a;
  return std::nullopt;
}

// True when the Terms of axis `a` in `lists` tile its digits exactly once (strides 1, c0, c0·c1, …
// up to its size): the mappings hold every coordinate of the axis, none twice.
bool covers(const Problem& p, std::size_t a, const std::vector<const FactorList*>& lists) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> digits; // stride, count
  for (const FactorList* l : lists)
    for (const Factor& f : l->factors)
      if (axis_of(p, f) == a) digits.emplace_back(f.stride, f.count);
  std::sort(digits.begin(), digits.end());
  std::uint64_t next = 1;
  for (const auto& [stride, count] : digits) {
    if (stride != next) return false;
    next = stride * count;
  }
  return next == p.axes[a].axis.size;
}

bool names_axis_of_role(const Problem& p, const FactorList& l, AxisRole role) {
  return std::any_of(l.factors.begin(), l.factors.end(), [&](const Factor& f) {
    auto a = axis_of(p, f);
    return a && p.axes[*a].role == role;
  });
}

} // namespace

bool same_core(const Choice& a, const Choice& b) {
  return a.pieces == b.pieces && a.time_count == b.time_count && a.pack_size == b.pack_size &&
         std::equal(a.time_order.begin(), a.time_order.begin() + a.time_count,
                    b.time_order.begin());
}

bool same_element(const Choice& a, const Choice& b) {
  return a.row_count == b.row_count &&
         std::equal(a.row_order.begin(), a.row_order.begin() + a.row_count, b.row_order.begin());
}

std::uint64_t live_slices(const Problem& p, const Choice& c) {
  std::uint64_t n = 1;
  for (std::size_t a = 0; a < p.axes.size(); ++a) n *= c.pieces[a].cluster * c.pieces[a].slice;
  return n;
}

namespace {

/// The stream's mappings (Cluster, Slice, Lane, Time, Packet) from the choice's digits, each
/// padded to the sizes the hardware takes; returns the time-broadcast digits (a Col axis's Time
/// digits, which the Stream Adapter repeats: docs/contraction.md §5.1).
Result<Mapping> place_digits(const Problem& p, const Choice& c, ir::seq::ChainMappings& m) {
  Builder b(p);
  const std::size_t n = p.axes.size();
  std::vector<Mapping> cluster, slice, lane, tb, packet_row, packet_batch, packet_contracted;
  std::vector<Mapping> time(c.time_count);
  std::vector<int> time_slot(n, -1);
  for (std::uint8_t i = 0; i < c.time_count; ++i) time_slot[c.time_order[i]] = i;
  for (std::size_t a = 0; a < n; ++a) {
    const AxisPieces& x = c.pieces[a];
    const Strides s = strides_of(x);
    const AxisRole role = p.axes[a].role;
    if (x.cluster > 1) cluster.push_back(b.digit(a, s.cluster, x.cluster));
    if (x.slice > 1) slice.push_back(b.digit(a, s.slice, x.slice));
    if (x.lane > 1) lane.push_back(b.digit(a, s.lane, x.lane));
    if (x.time > 1) {
      if (role == AxisRole::Col)
        tb.push_back(b.digit(a, s.time, x.time));
      else if (time_slot[a] >= 0)
        time[static_cast<std::size_t>(time_slot[a])] = b.digit(a, s.time, x.time);
      else
        return internal(fmt::format("axis {} has a Time digit but no place in Time order",
                                    p.axes[a].axis.name));
    }
    if (x.packet > 1) {
      auto& dst = role == AxisRole::Row     ? packet_row
                  : role == AxisRole::Batch ? packet_batch
                                            : packet_contracted;
      dst.push_back(b.digit(a, s.packet, x.packet));
    }
  }
  m.chip = Mapping();
  m.cluster = b.sequence(cluster);
  Mapping sl = b.sequence(slice);
  std::uint64_t slice_cells = sl.size();
  for (std::uint64_t accepted = 1; accepted <= kTu.slices_per_cluster; accepted *= 2)
    if (target::is_valid_slice_size(accepted) && sl.size() <= accepted) {
      slice_cells = accepted;
      break;
    }
  m.slice = b.padded(sl, slice_cells);
  Mapping ln = b.sequence(lane);
  m.lane = b.padded(ln, next_pow2(ln.size()));
  m.time = b.sequence(time);
  std::vector<Mapping> pk = packet_row;
  pk.insert(pk.end(), packet_batch.begin(), packet_batch.end());
  pk.insert(pk.end(), packet_contracted.begin(), packet_contracted.end());
  m.packet = b.padded(b.sequence(pk), ir::flit_elements(p.stream_type));
  const Mapping tb_map = b.sequence(tb);
  if (b.failed()) return internal("a digit of the choice does not divide its axis");
  return tb_map;
}

/// The Stream Adapter's OutTime and OutPacket.
struct Adapted {
  FactorList time, ot, op; // time: the stream's Time, factorized
};

/// Stream Adapter (docs/contraction.md §5.1): OT = [Time / PackSize, TB], OP = [Time % PackSize,
/// Packet]. The TRF's rows are the TRF-axis digits OutTime walks; its part of the packet is
/// OutPacket's innermost TRF digits and padding (docs/contraction.md §5.2: ReadSize is the
/// innermost part of Element that matches OutPacket).
Result<Adapted> adapt_stream(const Problem& p, const Choice& c, const Mapping& tb_map,
                             ChainCore& core) {
  ir::seq::ChainMappings& m = core.m;
  Adapted s;
  s.time = ir::factorize(m.time);
  auto packed = ir::split_at(s.time, c.pack_size);
  if (!packed) return internal("PackSize does not divide Time");
  s.ot = ir::pair(packed->outer, ir::factorize(tb_map));
  s.op = ir::pair(packed->inner, ir::factorize(m.packet));
  m.out_time = ir::render(s.ot);
  m.out_packet = ir::render(s.op);
  for (std::size_t i = s.ot.factors.size(); i-- > 0;) {
    const Factor& f = s.ot.factors[i];
    if (f.is_pad()) return internal("OutTime is padded");
    auto a = axis_of(p, f);
    if (a && p.in_trf(*a)) core.rows.push_back(f);
  }
  if (core.rows.size() != c.row_count)
    return internal(fmt::format("OutTime has {} TRF digits, the choice orders {}", core.rows.size(),
                                c.row_count));
  for (const Factor& f : s.op.factors) {
    auto a = axis_of(p, f);
    if (!f.is_pad() && !(a && p.in_trf(*a))) break;
    core.trf_run.factors.push_back(f);
  }
  return s;
}

/// Packet Reducer (docs/contraction.md §6): a tree over the contracted cells innermost in
/// OutPacket (with the packet's padding among them); the columns above it are P2.
Status reduce_packet(const Problem& p, const FactorList& op, ChainCore& core) {
  std::size_t reduced = 0;
  while (reduced < op.factors.size()) {
    const Factor& f = op.factors[reduced];
    auto a = axis_of(p, f);
    if (!f.is_pad() && !(a && p.axes[*a].role == AxisRole::Contracted)) break;
    ++reduced;
  }
  const std::uint64_t group = reduced == 0 ? 1 : op.extent_after(reduced - 1);
  if ((group & (group - 1)) != 0)
    return not_the_einsum(fmt::format(
        "the packet's {} contracted cells are no power-of-two adder-tree group", group));
  auto columns = ir::split_at(op, group);
  if (!columns) return internal("the tree group does not divide OutPacket");
  core.p2 = ir::remove_padding(columns->outer);
  if (names_axis_of_role(p, core.p2, AxisRole::Contracted))
    return not_the_einsum(
        "a contracted digit of the packet lies above a column the tree keeps",
        {"the Packet Reducer sums only the innermost cells (docs/contraction.md §6)"});
  if (core.p2.size() != next_pow2(core.p2.size())) {
    auto padded = ir::padding(core.p2, next_pow2(core.p2.size()), ir::PaddingKind::Top);
    if (!padded) return internal("P2 padding");
    core.p2 = std::move(*padded);
  }
  core.m.p2 = ir::render(core.p2);
  return {};
}

/// Time Reducer (docs/contraction.md §7): every contracted digit of OutTime is summed, the rest
/// kept in order.
void reduce_time(const Problem& p, const FactorList& ot, ChainCore& core) {
  for (const Factor& f : ot.factors) {
    auto a = axis_of(p, f);
    if (!(a && p.axes[*a].role == AxisRole::Contracted)) core.t2.factors.push_back(f);
  }
  core.t2 = ir::normalize(core.t2);
  core.m.t2 = ir::render(core.t2);
}

/// The chain must compute the einsum: each operand holds every coordinate of its axes once (the
/// TRF: Lane, its rows and its part of the packet, in any row order), the output every output
/// coordinate once (T2, P2 and Lane, in either LaneMode) and no contracted digit.
Status computes_einsum(const Problem& p, const ChainCore& core, const FactorList& time_fl) {
  const ir::seq::ChainMappings& m = core.m;
  const FactorList cl = ir::factorize(m.cluster), sc = ir::factorize(m.slice);
  const FactorList pk_fl = ir::factorize(m.packet);
  FactorList rows;
  rows.factors = core.rows;
  for (std::size_t a = 0; a < p.axes.size(); ++a) {
    const std::string& name = p.axes[a].axis.name;
    if (p.in_stream(a) && !covers(p, a, {&cl, &sc, &time_fl, &pk_fl}))
      return not_the_einsum(fmt::format("the stream does not hold every digit of {}", name));
    if (p.in_trf(a) && !covers(p, a, {&cl, &sc, &core.lane, &rows, &core.trf_run}))
      return not_the_einsum(fmt::format("the TRF operand does not hold every digit of {}", name));
    if (p.in_output(a) && !covers(p, a, {&cl, &sc, &core.t2, &core.p2, &core.lane}))
      return not_the_einsum(fmt::format("the output does not hold every digit of {}", name));
  }
  if (names_axis_of_role(p, core.t2, AxisRole::Contracted))
    return not_the_einsum("a contracted digit reaches the output");
  return {};
}

} // namespace

Result<ChainCore> build_core(const Problem& p, const Choice& c) {
  ChainCore core;
  auto tb_map = place_digits(p, c, core.m);
  if (!tb_map) return std::move(tb_map).take_diagnostics();
  auto adapted = adapt_stream(p, c, *tb_map, core);
  if (!adapted) return std::move(adapted).take_diagnostics();
  if (auto r = reduce_packet(p, adapted->op, core); !r) return std::move(r).take_diagnostics();
  reduce_time(p, adapted->ot, core);
  core.lane = ir::factorize(core.m.lane);
  if (auto r = computes_einsum(p, core, adapted->time); !r) return std::move(r).take_diagnostics();
  return core;
}

Mapping element_of(const ChainCore& core, const Choice& c) {
  FactorList element = core.trf_run;
  for (std::size_t i = c.row_count; i-- > 0;) element.factors.push_back(core.rows[c.row_order[i]]);
  return ir::render(ir::normalize(element));
}

void fold_lanes(const ChainCore& core, ir::LaneMode mode, ir::seq::ChainMappings& m) {
  const std::uint64_t bus = kTu.output_bus_elements;
  if (mode == ir::LaneMode::Interleaved) {
    m.t3 = ir::render(ir::pair(core.t2, core.p2));
    // |Lane| ≤ 8 and |P2| is a power of two, so these paddings always exist.
    m.p3 = ir::render(*ir::padding(core.lane, bus, ir::PaddingKind::Top));
    return;
  }
  const FactorList pp =
      *ir::padding(core.p2, (core.p2.size() + bus - 1) / bus * bus, ir::PaddingKind::Top);
  const auto flits = *ir::split_at(pp, bus);
  m.t3 = ir::render(ir::pair(core.t2, ir::pair(core.lane, flits.outer)));
  m.p3 = ir::render(flits.inner);
}

Result<ir::seq::ChainMappings> build_chain(const Problem& p, const Choice& c) {
  auto core = build_core(p, c);
  if (!core) return core.diagnostics();
  ir::seq::ChainMappings m = core->m;
  m.element = element_of(*core, c);
  fold_lanes(*core, c.mode, m);
  return m;
}

std::string kernel_name(const Problem& p) {
  std::string s = "tune_" + p.einsum;
  for (char& ch : s)
    if (ch == ',' || ch == '-') ch = '_';
  s.erase(std::remove(s.begin(), s.end(), '>'), s.end());
  return s;
}

std::string kernel_text(const Problem& p, const ir::seq::ChainMappings& m, ir::LaneMode mode,
                        const std::string& comment) {
  std::string head;
  std::size_t start = 0;
  while (start < comment.size()) {
    const std::size_t end = std::min(comment.find('\n', start), comment.size());
    head += "// " + comment.substr(start, end - start) + "\n";
    start = end + 1;
  }
  std::string axes;
  for (const auto& a : p.axes)
    axes += fmt::format("{}{} = {}", axes.empty() ? "" : ", ", a.axis.name, a.axis.size);
  const auto t = [](const Mapping& x) { return "m![" + x.to_string() + "]"; };
  const std::string_view sd = ir::name(p.stream_type), wd = ir::name(p.trf_type),
                         acc = ir::name(p.accumulator);
  return fmt::format(
      R"({head}#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![{axes}];

type Chip    = {chip};
type Cluster = {cluster};
type Slice   = {slice};
type Lane    = {lane};

fn {name}<'l, const T: Tu>(
    input: CollectTensor<'l, T, {sd}, Chip, Cluster, Slice, {time}, {packet}>,
    trf: &TrfTensor<{wd}, Chip, Cluster, Slice, Lane, {element}>,
) -> ContractTensor<'l, T, {acc}, Chip, Cluster, Slice, {t3}, {p3}> {{
    input
        .contract_outer::<{ot}, {op}, _, _, _>(trf)
        .contract_packet::<{p2}>()
        .contract_time::<{t2}>()
        .contract_lane::<{t3}, {p3}>(LaneMode::{mode})
}}
)",
      fmt::arg("head", head), fmt::arg("axes", axes), fmt::arg("chip", t(m.chip)),
      fmt::arg("cluster", t(m.cluster)), fmt::arg("slice", t(m.slice)), fmt::arg("lane", t(m.lane)),
      fmt::arg("name", kernel_name(p)), fmt::arg("sd", sd), fmt::arg("wd", wd),
      fmt::arg("acc", acc), fmt::arg("time", t(m.time)), fmt::arg("packet", t(m.packet)),
      fmt::arg("element", t(m.element)), fmt::arg("t3", t(m.t3)), fmt::arg("p3", t(m.p3)),
      fmt::arg("ot", t(m.out_time)), fmt::arg("op", t(m.out_packet)), fmt::arg("p2", t(m.p2)),
      fmt::arg("t2", t(m.t2)),
      fmt::arg("mode", mode == ir::LaneMode::Interleaved ? "Interleaved" : "Sequential"));
}

std::string mapping_summary(const ir::seq::ChainMappings& m) {
  // Formatted: `"[" + std::string` trips g++ 12's false -Wrestrict at -O3.
  const auto s = [](const Mapping& x) { return fmt::format("[{}]", x.to_string()); };
  return fmt::format("Cluster {} Slice {} Lane {} Time {} Packet {} OT {} OP {} Element {}",
                     s(m.cluster), s(m.slice), s(m.lane), s(m.time), s(m.packet), s(m.out_time),
                     s(m.out_packet), s(m.element));
}

} // namespace tujit::tune

// The regular Switch Engine configurations (docs/switch.md §3.1), the derived values and the
// cycle estimate. Each configuration splits InSlice into [slice2, slice1, slice0] and InTime into
// its time sub-dimensions at the sizes it is given, rebuilds the OutSlice and OutTime it produces
// (furiosa-opt docs/src/computing-tensors/switch-engine.md, one diagram per configuration) and
// compares them with the declared ones by normal form (docs/mapping.md §4).
#include "ir/verify/switch.h"

#include "ir/mapping/factor.h"
#include "ir/target/rngd.h"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tujit::ir::verify {

namespace {

constexpr const auto& tu = target::kRngd;
constexpr std::string_view kPage = "furiosa-opt docs/src/computing-tensors/switch-engine.md";

bool power_of_two(std::uint64_t n) {
  return n != 0 && (n & (n - 1)) == 0;
}

using detail::any_padding;
using detail::overlaps;

std::string text(const FactorList& l) {
  return l.empty() ? "1" : render_text(l);
}

/// A slot of an output layout: a sub-dimension of the input, or a broadcast slot of `size`.
struct Slot {
  std::optional<FactorList> from; // nullopt: a broadcast slot
  std::uint64_t size = 1;
};

/// `[a, b, …]` as one list (outermost first).
FactorList pair_all(const std::vector<FactorList>& outer_first) {
  FactorList out;
  for (const FactorList& l : outer_first) out = pair(out, l);
  return out;
}

std::string slots_text(const std::vector<Slot>& slots) {
  std::string out;
  for (const Slot& s : slots)
    out +=
        (out.empty() ? "" : ", ") + (s.from ? text(*s.from) : fmt::format("broadcast({})", s.size));
  return "[" + out + "]";
}

/// The first axis of a broadcast slot that the input already carries (a broadcast axis must be
/// new: docs/switch.md §3), or nullopt.
std::optional<std::string> carried_axis(const FactorList& slot, const FactorList& slice,
                                        const FactorList& time) {
  for (const Factor& f : slot.factors)
    if (f.is_term() && (overlaps(f, slice) || overlaps(f, time)))
      return f.atom.is_composite() ? std::string("a composite axis") : f.atom.name;
  return std::nullopt;
}

/// Splits `l` into the given slot sizes, outermost first (their product is SIZE(l)).
std::vector<FactorList> split_sizes(const FactorList& l, const std::vector<std::uint64_t>& sizes) {
  std::vector<FactorList> out(sizes.size());
  FactorList rest = l;
  for (std::size_t i = sizes.size(); i-- > 1;) {
    auto s = split_at(rest, sizes[i]);
    if (!s) return {};
    out[i] = s->inner;
    rest = s->outer;
  }
  out[0] = rest;
  return out;
}

/// The configuration's expected OutSlice (outermost first) and OutTime, from the input's
/// sub-dimensions (the book's per-configuration diagrams).
struct Expected {
  std::vector<Slot> slice;
  FactorList time;
};

struct Parts {
  FactorList s2, s1, s0, t2, t1, t0;
};

Expected expected_layout(SwitchKind k, const Parts& p, const SwitchDerived& d,
                         const FactorList& in_time) {
  switch (k) {
  case SwitchKind::Broadcast01: // [s2, X, Y] / [t1, s1, t0, s0]
    return {{{p.s2, d.slice2}, {std::nullopt, d.slice1 * d.slice0}},
            pair_all({p.t1, p.s1, p.t0, p.s0})};
  case SwitchKind::Broadcast1: // [s2, X, s0] / [t0, s1]
    return {{{p.s2, d.slice2}, {std::nullopt, d.slice1}, {p.s0, d.slice0}},
            pair_all({in_time, p.s1})};
  case SwitchKind::Transpose: // [s2, s0, s1] / Time
    return {{{p.s2, d.slice2}, {p.s0, d.slice0}, {p.s1, d.slice1}}, in_time};
  case SwitchKind::InterTranspose: // [s2, t1, s0] / [t2, t0, s1]
    return {{{p.s2, d.slice2}, {p.t1, d.time1}, {p.s0, d.slice0}}, pair_all({p.t2, p.t0, p.s1})};
  case SwitchKind::TransposedBroadcast1: // [s2, Y, s1] / [t0, s0]
    return {{{p.s2, d.slice2}, {std::nullopt, d.slice0}, {p.s1, d.slice1}},
            pair_all({in_time, p.s0})};
  case SwitchKind::CustomBroadcast:
    break;
  }
  return {};
}

/// E-SWITCH-001 … 005: the sizes the configuration is given against the input.
Status check_sizes(const SwitchInput& in, SwitchDerived& d) {
  const SwitchConfig& c = in.config;
  const bool has_time0 = c.kind == SwitchKind::Broadcast01 || c.kind == SwitchKind::InterTranspose;
  if (c.slice1 == 0 || c.slice0 == 0 || (has_time0 && c.time0 == 0))
    return detail::switch_error(
        "E-SWITCH-001", "ZeroDimension",
        fmt::format("every size of SwitchConfig::{} must be at least 1, got slice1 {}, slice0 {}{}",
                    to_string(c.kind), c.slice1, c.slice0,
                    has_time0 ? fmt::format(", time0 {}", c.time0) : ""));
  const std::uint64_t n = in.slice.size();
  if (c.kind == SwitchKind::InterTranspose && n != tu.switch_ring_slices)
    return detail::switch_error(
        "E-SWITCH-004", "SliceNotDivisible",
        fmt::format("InterTranspose needs InSlice over all {} slices, but {} has {}",
                    tu.switch_ring_slices, in.slice.to_string(), n),
        {fmt::format("{} \"InterTranspose\": slice2 × slice1 × slice0 == 256", kPage)});
  if (n % (c.slice1 * c.slice0) != 0)
    return detail::switch_error(
        "E-SWITCH-004", "SliceNotDivisible",
        fmt::format("InSlice {} ({} slices) does not split at slice1 × slice0 = {} × {}",
                    in.slice.to_string(), n, c.slice1, c.slice0));
  d.slice1 = c.slice1;
  d.slice0 = c.slice0;
  d.slice2 = n / (c.slice1 * c.slice0);
  for (auto [name, v] : {std::pair{"slice2", d.slice2}, std::pair{"slice1", d.slice1},
                         std::pair{"slice0", d.slice0}})
    if (!power_of_two(v))
      return detail::switch_error(
          "E-SWITCH-002", "NotPowerOfTwo",
          fmt::format("the switch's {} must be a power of 2, got {}", name, v),
          {"the ring partitions its 256 slices into sub-rings of slice1 × slice0 (docs/switch.md "
           "§2)"});
  const std::uint64_t t = in.time.size();
  const std::uint64_t by = c.kind == SwitchKind::Broadcast01      ? c.time0
                           : c.kind == SwitchKind::InterTranspose ? c.slice1 * c.time0
                                                                  : 1;
  if (t % by != 0)
    return detail::switch_error(
        "E-SWITCH-005", "TimeNotDivisible",
        fmt::format("InTime {} ({} steps) does not split at the configuration's time sizes ({})",
                    in.time.to_string(), t, by),
        {c.kind == SwitchKind::InterTranspose ? "InterTranspose splits InTime into [time2, time1 "
                                                "= slice1, time0]"
                                              : "Broadcast01 splits InTime into [time1, time0]"});
  if (c.kind == SwitchKind::Broadcast01) {
    d.time0 = c.time0;
    d.time1 = t / c.time0;
  } else if (c.kind == SwitchKind::InterTranspose) {
    d.time0 = c.time0;
    d.time1 = c.slice1;
    d.time2 = t / (c.slice1 * c.time0);
  } else {
    d.time0 = t;
  }
  return {};
}

/// E-SWITCH-006, 008, 007: the declared layouts against the configuration's.
Status check_layout(const SwitchInput& in, const SwitchDerived& d) {
  const FactorList slice = any_padding(factorize(in.slice));
  const FactorList time = any_padding(factorize(in.time));
  std::vector<FactorList> s = split_sizes(slice, {d.slice2, d.slice1, d.slice0});
  std::vector<FactorList> t = split_sizes(time, {d.time2, d.time1, d.time0});
  if (s.empty() || t.empty())
    return detail::switch_error("E-SWITCH-004", "SliceNotDivisible",
                                "internal: the input does not split at the derived sizes");
  const Parts p{s[0], s[1], s[2], t[0], t[1], t[2]};
  const Expected e = expected_layout(in.config.kind, p, d, time);
  std::vector<std::uint64_t> sizes;
  for (const Slot& x : e.slice) sizes.push_back(x.size);
  const FactorList out_slice = any_padding(factorize(in.out_slice));
  const std::vector<FactorList> got = split_sizes(out_slice, sizes);
  const std::string expected = slots_text(e.slice);
  for (std::size_t i = 0; i < e.slice.size(); ++i) {
    if (!e.slice[i].from || (!got.empty() && any_padding(got[i]) == any_padding(*e.slice[i].from)))
      continue;
    return detail::switch_error(
        "E-SWITCH-006", "OutSliceMismatch",
        fmt::format("SwitchConfig::{} gives OutSlice {}, but the switch declares {}",
                    to_string(in.config.kind), expected, in.out_slice.to_string()),
        {fmt::format("slice2 = {}, slice1 = {}, slice0 = {} of InSlice {}", text(p.s2), text(p.s1),
                     text(p.s0), in.slice.to_string())});
  }
  for (std::size_t i = 0; i < e.slice.size() && !got.empty(); ++i) {
    if (e.slice[i].from) continue;
    if (auto axis = carried_axis(got[i], slice, time))
      return detail::switch_error(
          "E-SWITCH-008", "BroadcastNotNew",
          fmt::format("the broadcast slot `{}` of OutSlice {} carries {}, an axis of the input's "
                      "Slice or Time",
                      text(got[i]), in.out_slice.to_string(), *axis),
          {fmt::format("SwitchConfig::{} lays OutSlice out as {}; a broadcast axis must be new "
                       "({} \"Regular Configurations\")",
                       to_string(in.config.kind), expected, kPage)});
  }
  if (!(any_padding(e.time) == any_padding(factorize(in.out_time))))
    return detail::switch_error(
        "E-SWITCH-007", "OutTimeMismatch",
        fmt::format("SwitchConfig::{} gives OutTime {}, but the switch declares {}",
                    to_string(in.config.kind), text(e.time), in.out_time.to_string()),
        {fmt::format("InTime {} splits into time2 = {}, time1 = {}, time0 = {}",
                     in.time.to_string(), text(p.t2), text(p.t1), text(p.t0))});
  return {};
}

} // namespace

namespace detail {

FactorList any_padding(const FactorList& l) {
  FactorList out = l;
  for (Factor& f : out.factors) {
    if (f.is_pad()) f.pad = PaddingKind::Top;
    if (f.is_term() && f.atom.is_composite()) f.atom = Atom::composite(any_padding(*f.atom.comp));
  }
  return normalize(std::move(out));
}

std::optional<std::size_t> overlapping(const Factor& f, const FactorList& in) {
  for (std::size_t j = 0; j < in.factors.size(); ++j) {
    const Factor& g = in.factors[j];
    if (!g.is_term() || !(g.atom == f.atom)) continue;
    if (f.atom.is_composite() || (f.stride < g.stride * g.count && g.stride < f.stride * f.count))
      return j;
  }
  return std::nullopt;
}

bool overlaps(const Factor& f, const FactorList& in) {
  return f.is_term() && overlapping(f, in).has_value();
}

Diagnostic switch_error(std::string code, std::string rule, std::string message,
                        std::vector<std::string> notes) {
  return rule_error(std::move(code), "switch", std::move(rule), std::move(message),
                    std::move(notes));
}
} // namespace detail

DerivedTable SwitchDerived::to_table() const {
  DerivedTable t{{"config", std::string(to_string(kind))},
                 {"ring_size", ring_size},
                 {"sub_rings", sub_rings},
                 {"time_size", time_size},
                 {"packet_bytes", packet_bytes},
                 {"flits_per_packet", flits_per_packet},
                 {"cycles", cycles}};
  if (kind == SwitchKind::CustomBroadcast) return t;
  t.emplace("slice2", slice2);
  t.emplace("slice1", slice1);
  t.emplace("slice0", slice0);
  t.emplace("time0", time0);
  if (kind == SwitchKind::Broadcast01 || kind == SwitchKind::InterTranspose)
    t.emplace("time1", time1);
  if (kind == SwitchKind::InterTranspose) t.emplace("time2", time2);
  return t;
}

std::uint64_t switch_cycles(std::uint64_t ring_size, std::uint64_t time_size,
                            std::uint64_t flits_per_packet) {
  return ring_size * time_size * flits_per_packet;
}

std::uint64_t switch_flits_per_packet(ScalarType dtype, std::uint64_t packet_size) {
  const std::uint64_t bits = std::uint64_t{wire_bits(dtype)} * packet_size;
  const std::uint64_t flit_bits = std::uint64_t{tu.switch_flit_bytes} * tu.bits_per_byte;
  return std::max<std::uint64_t>(1, (bits + flit_bits - 1) / flit_bits);
}

Result<SwitchDerived> verify_switch(const SwitchInput& in) {
  SwitchDerived d;
  d.kind = in.config.kind;
  if (in.slice.size() != in.out_slice.size())
    return detail::switch_error(
        "E-SWITCH-003", "SliceSizeMismatch",
        fmt::format("the switch keeps the slice count, but InSlice {} has {} slices and OutSlice "
                    "{} has {}",
                    in.slice.to_string(), in.slice.size(), in.out_slice.to_string(),
                    in.out_slice.size()),
        {fmt::format("{} \"Interface\": InSlice::SIZE == OutSlice::SIZE", kPage)});
  if (d.kind == SwitchKind::CustomBroadcast) {
    if (auto s = detail::verify_custom_broadcast(in, d); !s) return std::move(s).take_diagnostics();
  } else {
    if (auto s = check_sizes(in, d); !s) return std::move(s).take_diagnostics();
    if (auto s = check_layout(in, d); !s) return std::move(s).take_diagnostics();
    d.ring_size = d.slice1 * d.slice0;
  }
  d.sub_rings = std::max<std::uint64_t>(1, tu.switch_ring_slices / d.ring_size);
  d.time_size = in.time.size();
  d.packet_bytes = std::uint64_t{wire_bits(in.dtype)} * in.packet.size() / tu.bits_per_byte;
  d.flits_per_packet = switch_flits_per_packet(in.dtype, in.packet.size());
  d.cycles = switch_cycles(d.ring_size, d.time_size, d.flits_per_packet);
  return d;
}

} // namespace tujit::ir::verify

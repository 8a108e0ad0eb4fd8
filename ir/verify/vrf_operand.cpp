#include "ir/verify/vrf_operand.h"

#include "ir/verify/outer_util.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace tujit::ir::verify {

using namespace outer_detail;

namespace {

/// `c`'s coordinates on `axes` only, zeros dropped (equal cells compare equal, docs/mapping.md §2).
Index restricted(const Cell& c, const std::set<std::string>& axes) {
  Index k;
  for (const auto& [axis, v] : c.index)
    if (v != 0 && axes.count(axis) != 0) k.emplace(axis, v);
  return k;
}

std::string index_text(const Index& ix) {
  std::string s;
  for (const auto& [axis, v] : ix) s += fmt::format("{}{} = {}", s.empty() ? "" : ", ", axis, v);
  return s.empty() ? "the origin" : "(" + s + ")";
}

} // namespace

DerivedTable VrfOperandDerived::to_table() const {
  return DerivedTable{{"vrf_reads", reads}, {"vrf_elements_read", vrf_elements}};
}

Result<VrfOperandDerived> verify_vrf_operand(const VrfOperandInput& in) {
  std::set<std::string> stream_axes, vrf_axes;
  for (const Axis& a : in.time.axes()) stream_axes.insert(a.name);
  for (const Axis& a : in.packet.axes()) stream_axes.insert(a.name);
  for (const Axis& a : in.element.axes()) {
    vrf_axes.insert(a.name);
    if (stream_axes.count(a.name) != 0) continue;
    return rule_error(
        "E-VE-018", "vector", "VrfAxisNotInStream",
        fmt::format("the VRF operand's Element {} names axis {}, which the stream's Time {} and "
                    "Packet {} do not hold",
                    mtext(in.element), a.name, mtext(in.time), mtext(in.packet)),
        {"each element reads the VRF element with its own coordinates: an axis only the VRF "
         "has would leave the element to read undecided (docs/vector-engine.md §3.2)"});
  }
  std::map<Index, std::int64_t> by_coords;
  for (std::uint64_t a = 0; a < in.element.size(); ++a) {
    const Cell c = in.element.map(a);
    if (c.is_live()) by_coords.emplace(restricted(c, vrf_axes), static_cast<std::int64_t>(a));
  }
  VrfOperandDerived d;
  d.element_of.assign(in.time.size() * in.packet.size(), -1);
  std::set<std::int64_t> read;
  for (std::uint64_t t = 0; t < in.time.size(); ++t) {
    const Cell tc = in.time.map(t);
    if (!tc.is_live()) continue;
    for (std::uint64_t e = 0; e < in.packet.size(); ++e) {
      const Cell c = combine(tc, in.packet.map(e));
      if (!c.is_live()) continue;
      const Index key = restricted(c, vrf_axes);
      auto it = by_coords.find(key);
      if (it == by_coords.end())
        return rule_error(
            "E-VE-018", "vector", "VrfElementMissing",
            fmt::format("stream cell (time {}, packet {}) reads the VRF element at {}, which the "
                        "VRF operand's Element {} does not hold",
                        t, e, index_text(key), mtext(in.element)),
            {"the VRF operand holds, in each slice, every coordinate the stream's live elements "
             "read (docs/vector-engine.md §3.2)"});
      d.element_of[t * in.packet.size() + e] = it->second;
      read.insert(it->second);
      ++d.reads;
    }
  }
  d.vrf_elements = read.size();
  return d;
}

} // namespace tujit::ir::verify

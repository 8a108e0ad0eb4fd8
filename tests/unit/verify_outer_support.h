// Helpers shared by the outer-stage verifier tests ("[verify-outer]"): parse bare mappings over
// an axes list, compare mappings by normal form, and assert on rule failures.
#pragma once

#include "tests/support/mapping_fixture.h"

#include "ir/mapping/factor.h"
#include "ir/mapping/mapping.h"
#include "ir/mapping/syntax.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/outer_stage.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::testing::verify_outer {

using testing::Axes;
using testing::contains;
using testing::expect_rule;
using testing::why;

/// Sum of live indexes (docs/mapping.md §2: contributions for one axis add).
inline ir::Index add(ir::Index a, const ir::Index& b) {
  for (const auto& [k, v] : b) a[k] += v;
  return a;
}

/// The entries of `ix` on `axes`, zero coordinates dropped.
inline ir::Index restrict_to(const ir::Index& ix, const std::set<std::string>& axes) {
  ir::Index out;
  for (const auto& [k, v] : ix)
    if (v != 0 && axes.count(k)) out[k] = v;
  return out;
}

inline void add_axis_names(const ir::FactorList& l, std::set<std::string>& out) {
  for (const ir::Factor& f : l.factors) {
    if (!f.is_term()) continue;
    if (f.atom.is_composite())
      add_axis_names(*f.atom.comp, out);
    else
      out.insert(f.atom.name);
  }
}

/// The axes a mapping really varies with (its normal form: `B / 2` with B = 2 names none).
inline std::set<std::string> axis_names(std::initializer_list<const ir::Mapping*> ms) {
  std::set<std::string> out;
  for (const ir::Mapping* m : ms) add_axis_names(ir::factorize(*m), out);
  return out;
}

/// Independent check of an accepted Outer stage against the tree semantics (Mapping::map,
/// docs/mapping.md §3) and the stage algorithm of docs/contraction.md §5.4 / the normative TRF
/// definition of §5.2: for every live (lane, OT, OP) position, the stream flit/element the Stream
/// Adapter feeds and the TRF element the loop configuration reads hold exactly the coordinates of
/// OT(t) ⊕ OP(p) ⊕ Lane(l) on their own axes. Returns an empty string when it holds.
inline std::string brute_force_outer(const ir::verify::ContractOuterInput& in,
                                     const ir::verify::ContractOuterDerived& d,
                                     std::uint64_t budget) {
  const std::uint64_t ot_n = in.out_time.size(), op_n = in.out_packet.size();
  const std::uint64_t lanes = in.lane.size();
  if (ot_n * op_n > budget) return {};
  const std::uint64_t ps = d.stream_adapter.pack_size;
  const std::uint64_t tb = d.stream_adapter.time_broadcast_size;
  const std::uint64_t fe = 256 / ir::wire_bits(in.stream_dtype);
  const std::uint64_t rs = d.trf_sequencer.read_size;
  const auto& loops = d.trf_sequencer.loops;
  const std::set<std::string> stream_axes = axis_names({&in.time, &in.packet});
  const std::set<std::string> trf_axes = axis_names({&in.element, &in.lane});
  std::vector<ir::Cell> ot(ot_n), op(op_n), el(in.element.size());
  for (std::uint64_t t = 0; t < ot_n; ++t) ot[t] = in.out_time.map(t);
  for (std::uint64_t p = 0; p < op_n; ++p) op[p] = in.out_packet.map(p);
  for (std::uint64_t a = 0; a < el.size(); ++a) el[a] = in.element.map(a);
  for (std::uint64_t t = 0; t < ot_n; ++t) {
    if (!ot[t].is_live()) continue;
    // Read address: the loops are a mixed-radix counter over OT positions (outer→inner).
    std::uint64_t addr = 0, rest = t, span = ot_n;
    for (const ir::verify::TrfLoopEntry& l : loops) {
      span /= l.size;
      addr += (rest / span) * l.stride;
      rest %= span;
    }
    for (std::uint64_t p = 0; p < op_n; ++p) {
      if (!op[p].is_live()) continue;
      const ir::Index x = add(ot[t].index, op[p].index);
      // Stream side.
      const std::uint64_t f = (t / tb) * ps + p / fe;
      const ir::Cell tf = in.time.map(f), pe = in.packet.map(p % fe);
      if (!tf.is_live() || !pe.is_live())
        return fmt::format("stream position (t {}, p {}) reads padding at flit {}", t, p, f);
      if (restrict_to(add(tf.index, pe.index), stream_axes) != restrict_to(x, stream_axes))
        return fmt::format("stream position (t {}, p {}) holds other coordinates", t, p);
      // TRF side, first and last lane.
      const std::uint64_t a = addr + p % rs;
      for (std::uint64_t l : {std::uint64_t{0}, lanes - 1}) {
        const ir::Cell lc = in.lane.map(l);
        if (!lc.is_live()) continue;
        if (a >= el.size() || !el[a].is_live())
          return fmt::format("TRF read (l {}, t {}, p {}) at element {} is not live", l, t, p, a);
        if (restrict_to(add(el[a].index, lc.index), trf_axes) !=
            restrict_to(add(x, lc.index), trf_axes))
          return fmt::format("TRF read (l {}, t {}, p {}) at element {} holds other coordinates", l,
                             t, p, a);
      }
    }
  }
  return {};
}
} // namespace tujit::testing::verify_outer

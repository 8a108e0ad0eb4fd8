// Shared helpers of the [datapath] tests: parsing test mappings, entry lists, and the brute-force
// oracle of a sequencer configuration — for every stream position, the cell the mapping algebra
// gives (Mapping::map of [Time, Packet]) must sit at the address the loops compute
// (docs/datapath.md §4 "Model"), found independently by enumerating every buffer position.
#pragma once

#include "ir/datapath/sequencer_config.h"
#include "ir/mapping/mapping.h"
#include "ir/mapping/syntax.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tujit::testing {

inline ir::AxisTable axes_of(const std::string& text) {
  auto a = ir::parse_axes_text(text);
  REQUIRE(a.ok());
  return *a;
}

inline ir::Mapping parse_m(const ir::AxisTable& axes, const std::string& text) {
  auto m = ir::parse_mapping_text(text, axes);
  INFO("mapping: " << text);
  REQUIRE(m.ok());
  return *m;
}

inline std::vector<ir::datapath::SeqEntry>
seq_entries(std::initializer_list<std::pair<std::uint64_t, std::uint64_t>> l) {
  std::vector<ir::datapath::SeqEntry> out;
  for (auto [n, s] : l) out.push_back(ir::datapath::SeqEntry{n, s});
  return out;
}

/// The outcome of walking a configuration against the brute-force oracle.
struct AddressCheck {
  std::string failure;               // empty: every live stream position is read where it lives
  std::uint64_t live = 0;            // live stream positions checked
  std::uint64_t padding = 0;         // stream padding positions (any in-bounds address is fine)
  std::uint64_t max_offset = 0;      // largest offset the walk produced
  std::uint64_t max_live_offset = 0; // largest offset a live stream position produced
};

/// For every position p of [time, packet]: finalize its cell; a live cell (restricted to the
/// buffer's axes: an axis the buffer lacks is a broadcast) must be held by the buffer at
/// config.offset_at(p). Stream padding is only counted. Also records the largest offset.
inline AddressCheck check_addresses(const ir::AxisTable& axes, const ir::Mapping& buf,
                                    const ir::Mapping& time, const ir::Mapping& packet,
                                    const ir::datapath::SequencerConfig& config) {
  AddressCheck r;
  auto stream = ir::Mapping::pair(time, packet);
  if (!stream) {
    r.failure = "stream pair invalid";
    return r;
  }
  if (config.stream_size() != stream->size()) {
    r.failure = fmt::format("loops enumerate {} positions, the stream has {}", config.stream_size(),
                            stream->size());
    return r;
  }
  std::set<std::string> buf_axes;
  for (const auto& a : buf.axes()) buf_axes.insert(a.name);
  std::map<ir::Index, std::set<std::uint64_t>> where;
  std::map<std::string, std::uint64_t> bound; // per buffer axis: one past its largest live value
  for (std::uint64_t q = 0; q < buf.size(); ++q) {
    ir::Finalized f = ir::finalize(buf.map(q), ir::PaddingKind::Top, axes);
    if (f.kind != ir::Finalized::Kind::Live) continue;
    where[f.index].insert(q);
    for (const auto& [axis, v] : f.index) bound[axis] = std::max(bound[axis], v + 1);
  }
  for (std::uint64_t p = 0; p < stream->size(); ++p) {
    const std::uint64_t off = config.offset_at(p);
    r.max_offset = std::max(r.max_offset, off);
    ir::Finalized f = ir::finalize(stream->map(p), ir::PaddingKind::Top, axes);
    if (f.kind == ir::Finalized::Kind::Padding) {
      ++r.padding;
      continue;
    }
    if (f.kind == ir::Finalized::Kind::Overshoot) {
      r.failure = fmt::format("stream position {} overshoots", p);
      return r;
    }
    ir::Index ix;
    for (const auto& [axis, v] : f.index)
      if (buf_axes.count(axis) && v != 0) ix[axis] = v;
    ++r.live;
    r.max_live_offset = std::max(r.max_live_offset, off);
    auto it = where.find(ix);
    if (it == where.end()) {
      // A buffer holding only a low fragment of an axis (`N % 512` read as `N / 512, N % 512`,
      // the book's sequencer page) is broadcast over the rest: the cell is the coordinate modulo
      // the fragment.
      ir::Index low;
      for (const auto& [axis, v] : ix) {
        const std::uint64_t b = bound.count(axis) ? bound.at(axis) : 0;
        if (b == 0)
          low[axis] = v;
        else if (v % b != 0)
          low[axis] = v % b;
      }
      it = where.find(low);
    }
    if (it == where.end()) {
      r.failure = fmt::format("stream position {}: its cell is not in the buffer", p);
      return r;
    }
    if (!it->second.count(off)) {
      r.failure = fmt::format("stream position {}: loops read offset {}, the cell lives at {}", p,
                              off, *it->second.begin());
      return r;
    }
  }
  return r;
}

} // namespace tujit::testing

// Property tests of the sequencer derivation (docs/datapath.md §4): for random (buffer, stream)
// pairs, walking the derived loops as nested loops yields, for every stream position, exactly the
// buffer address the mapping algebra gives for that position's cell (brute force via
// Mapping::map), and an accepted fetch never addresses outside its buffer. Two sources:
//  - structured pairs: a buffer of permuted, optionally padded axis digits, and a stream that
//    refines, coarsens, permutes, slices, pads and broadcasts them — always derivable;
//  - tests/support/mapping_gen.h buffers read by their own terms, shuffled — soundness only
//    (the derivation may refuse ragged or zero-padded shapes, but what it accepts is right).
// Fixed seeds; every case is small enough to enumerate.
#include "datapath_test_support.h"

#include "ir/datapath/fetch_engine.h"
#include "ir/datapath/sequencer_derive.h"
#include "tests/support/mapping_gen.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <random>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::ir::datapath;
using tujit::testing::check_addresses;

namespace {

std::uint64_t pick(std::mt19937_64& rng, std::uint64_t lo, std::uint64_t hi) {
  return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
}

bool chance(std::mt19937_64& rng, int percent) {
  return pick(rng, 1, 100) <= static_cast<std::uint64_t>(percent);
}

/// One digit of an axis: values d < count contribute d·stride.
struct Digit {
  std::string axis;
  std::uint64_t axis_size = 1;
  std::uint64_t stride = 1;
  std::uint64_t count = 1;
};

std::string digit_text(const Digit& d) {
  std::string s = d.axis;
  if (d.stride > 1) s += fmt::format(" / {}", d.stride);
  if (d.stride * d.count < d.axis_size) s += fmt::format(" % {}", d.count);
  return s;
}

/// Splits `n` into an ordered list of factors >= 2 (innermost first), at most `parts` of them.
std::vector<std::uint64_t> factor_split(std::mt19937_64& rng, std::uint64_t n, int parts) {
  std::vector<std::uint64_t> out;
  while (n > 1 && static_cast<int>(out.size()) + 1 < parts && chance(rng, 60)) {
    std::vector<std::uint64_t> divs;
    for (std::uint64_t d = 2; d < n; ++d)
      if (n % d == 0) divs.push_back(d);
    if (divs.empty()) break;
    const std::uint64_t d = divs[pick(rng, 0, divs.size() - 1)];
    out.push_back(d);
    n /= d;
  }
  if (n > 1) out.push_back(n);
  return out;
}

struct Pair {
  std::string axes, buf, time, packet;
};

/// A structured (buffer, stream) pair (see the file comment).
Pair structured_pair(std::mt19937_64& rng) {
  static const std::vector<std::uint64_t> sizes = {2, 3, 4, 6, 8, 12, 16};
  static const std::vector<std::string> names = {"A", "B", "C", "D"};
  const std::size_t n_axes = pick(rng, 1, 3);
  std::vector<std::string> decls;
  std::vector<Digit> buf_digits;
  for (std::size_t i = 0; i < n_axes; ++i) {
    const std::uint64_t size = sizes[pick(rng, 0, sizes.size() - 1)];
    decls.push_back(fmt::format("{}={}", names[i], size));
    std::uint64_t stride = 1;
    for (std::uint64_t c : factor_split(rng, size, 3)) {
      buf_digits.push_back(Digit{names[i], size, stride, c});
      stride *= c;
    }
  }
  std::shuffle(buf_digits.begin(), buf_digits.end(), rng);

  // The buffer: digits in memory order, some Top-padded, maybe an outer pad.
  std::vector<std::string> buf_terms;
  std::uint64_t buf_size = 1;
  for (const Digit& d : buf_digits) {
    std::string t = digit_text(d);
    std::uint64_t ext = d.count;
    if (chance(rng, 20)) {
      ext = d.count + pick(rng, 1, d.count);
      t += fmt::format(" # {}", ext);
    }
    buf_terms.push_back(t);
    buf_size *= ext;
  }
  std::string buf;
  for (std::size_t i = 0; i < buf_terms.size(); ++i) buf += (i ? ", " : "") + buf_terms[i];
  if (chance(rng, 15)) buf = fmt::format("[{}] # {}", buf, buf_size + pick(rng, 1, 40));

  // The stream: each buffer digit refined into up to two pieces, or an axis read whole (the
  // derivation then cuts it where the buffer does).
  std::vector<std::string> terms;
  std::vector<std::string> whole_axes;
  for (std::size_t i = 0; i < n_axes; ++i)
    if (chance(rng, 20)) whole_axes.push_back(names[i]);
  for (const Digit& d : buf_digits) {
    if (std::find(whole_axes.begin(), whole_axes.end(), d.axis) != whole_axes.end()) continue;
    std::uint64_t stride = d.stride;
    for (std::uint64_t c : factor_split(rng, d.count, 2)) {
      Digit piece{d.axis, d.axis_size, stride, c};
      std::string t = digit_text(piece);
      if (chance(rng, 10) && c > 2) t = fmt::format("{} = {}", t, pick(rng, 1, c - 1)); // slice
      terms.push_back(t);
      stride *= c;
    }
  }
  for (const auto& a : whole_axes) terms.push_back(a);
  // Broadcasts: an axis the buffer lacks, or a literal.
  if (chance(rng, 25)) {
    decls.push_back(fmt::format("T={}", pick(rng, 2, 4)));
    terms.push_back("T");
  }
  if (chance(rng, 15)) terms.push_back(fmt::format("{}", pick(rng, 2, 3)));
  std::shuffle(terms.begin(), terms.end(), rng);
  // Top padding on the innermost term sometimes (an over-read).
  if (!terms.empty() && chance(rng, 20) && terms.back().find('=') == std::string::npos &&
      terms.back() != "T" && !std::isdigit(static_cast<unsigned char>(terms.back()[0])))
    terms.back() = fmt::format("[{}] # 32", terms.back());

  const std::size_t split = pick(rng, 0, terms.size());
  std::string time, packet;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    std::string& side = i < split ? time : packet;
    side += (side.empty() ? "" : ", ") + terms[i];
  }
  if (time.empty()) time = "1";
  if (packet.empty()) packet = "1";
  std::string axes;
  for (std::size_t i = 0; i < decls.size(); ++i) axes += (i ? "," : "") + decls[i];
  return Pair{axes, buf, time, packet};
}

} // namespace

TEST_CASE("property: structured pairs derive, and the loops read each cell where it lives",
          "[datapath]") {
  std::mt19937_64 rng(0x5e9c0de);
  int derived = 0, refused_table = 0, over_read = 0, broadcasts = 0, merged = 0, pieces = 0;
  for (int iter = 0; iter < 400; ++iter) {
    const Pair p = structured_pair(rng);
    INFO("axes " << p.axes << " | buf " << p.buf << " | time " << p.time << " | packet "
                 << p.packet);
    ir::AxisTable axes = tujit::testing::axes_of(p.axes);
    ir::Mapping buf = tujit::testing::parse_m(axes, p.buf);
    ir::Mapping time = tujit::testing::parse_m(axes, p.time);
    ir::Mapping packet = tujit::testing::parse_m(axes, p.packet);
    auto r = derive_sequencer(buf, time, packet);
    if (!r) {
      // The only legitimate refusal here: more than 8 loops that do not merge.
      INFO(render(r.diagnostics().front(), nullptr));
      CHECK(r.diagnostics().front().code == "E-FETCH-013");
      ++refused_table;
      continue;
    }
    ++derived;
    if (r->merged) ++merged;
    for (const auto& s : r->steps) {
      if (s.broadcast) ++broadcasts;
      if (s.entries.size() > 1) ++pieces; // a term the buffer holds in pieces
    }
    auto walk = check_addresses(axes, buf, time, packet, r->config);
    INFO("config " << r->config.to_string() << ": " << walk.failure);
    REQUIRE(walk.failure.empty());
    CHECK(walk.max_offset + 1 == r->config.footprint());
    CHECK(r->config.entries.size() <= 8);
    bool odometer_agrees = true;
    for_each_offset(r->config, [&](std::uint64_t pos, std::uint64_t off) {
      odometer_agrees = odometer_agrees && off == r->config.offset_at(pos);
    });
    CHECK(odometer_agrees);
    auto f = check_fetch(*r, ir::ScalarType::I8, FetchContext::Main);
    // Live positions never read past the buffer; padded ones may (the over-read).
    CHECK(walk.max_live_offset < buf.size());
    CHECK(walk.max_live_offset + 1 == r->live_footprint);
    if (f.ok()) {
      CHECK(f->cycles == r->time_size * f->reads_per_packet);
      CHECK(f->over_read == (walk.max_offset < buf.size() ? 0 : walk.max_offset + 1 - buf.size()));
      if (walk.max_offset >= buf.size()) ++over_read;
    } else {
      CHECK(f.diagnostics().front().code == "E-FETCH-015");
    }
  }
  // The generator must exercise the interesting paths, not just identity reads.
  CHECK(derived >= 300);
  CHECK(broadcasts >= 20);
  CHECK(over_read >= 5);
  CHECK(refused_table <= 40);
  CHECK(pieces >= 10);
  CHECK(merged >= 1); // some streams need more than 8 raw loops and merge
}

TEST_CASE("property: mapping_gen buffers read by their own shuffled terms", "[datapath]") {
  tujit::testing::MappingGenOptions opts;
  opts.max_size = 512;
  opts.max_axes = 3;
  opts.max_axis_size = 16;
  opts.allow_broadcast = false;
  tujit::testing::MappingGenerator gen(0xda7a9a7, opts);
  std::mt19937_64 rng(42);
  int accepted = 0;
  const int total = 300;
  for (int iter = 0; iter < total; ++iter) {
    auto g = gen.next();
    std::vector<ir::Mapping> terms = stream_terms(g.mapping);
    if (chance(rng, 50)) std::shuffle(terms.begin(), terms.end(), rng);
    const std::size_t split = pick(rng, 0, terms.size());
    ir::Mapping time, packet;
    bool ok = true;
    for (std::size_t i = 0; i < terms.size() && ok; ++i) {
      ir::Mapping& side = i < split ? time : packet;
      auto pr = ir::Mapping::pair(side, terms[i]);
      if (!pr)
        ok = false;
      else
        side = *pr;
    }
    if (!ok) continue;
    INFO("buf " << g.mapping.to_string() << " | time " << time.to_string() << " | packet "
                << packet.to_string());
    auto r = derive_sequencer(g.mapping, time, packet);
    if (!r) continue;
    ++accepted;
    auto walk = check_addresses(g.axes, g.mapping, time, packet, r->config);
    INFO("config " << r->config.to_string() << ": " << walk.failure);
    REQUIRE(walk.failure.empty());
    auto f = check_fetch(*r, ir::ScalarType::I8, FetchContext::Main);
    if (f) CHECK(walk.max_offset < g.mapping.size());
  }
  CHECK(accepted >= total / 4);
}

// Property tests of the outer-stage verifiers (docs/contraction.md §4.2, §5.1, §5.2,
// docs/datapath.md §8): random valid configurations built the way the book's strategies build them
// (K in Packet with M in Time, K in Time, a packed Time digit with a TRF time broadcast, GEMM
// with lanes over part of J; lanes 1/2/4/8, PackSize 1/2, broadcast axes) are accepted with the
// derived values those strategies imply, computed here independently, and agree position by
// position with the tree semantics (brute force); single-term mutations of one mapping are
// either accepted (and then agree as well) or rejected with a diagnostic, never a crash.
// Fixed seeds.
#include "ir/mapping/syntax.h"
#include "ir/verify/collect.h"
#include "ir/verify/outer_stage.h"
#include "ir/verify/to_trf.h"

#include "verify_outer_support.h"

#include <fmt/format.h>

#include <array>
#include <initializer_list>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::ir;
using namespace tujit::ir::verify;
using tujit::testing::verify_outer::brute_force_outer;
using tujit::testing::verify_outer::why;

namespace {

using Terms = std::vector<std::string>;

std::string join(const Terms& t) {
  std::string s;
  for (std::size_t i = 0; i < t.size(); ++i) s += (i ? ", " : "") + t[i];
  return s;
}

/// One configuration: the mappings as term lists (outer→inner) plus the values the strategy
/// implies.
struct Config {
  std::string axes;
  ScalarType stream = ScalarType::BF16, weight = ScalarType::BF16;
  // index: 0 time, 1 packet, 2 lane, 3 element, 4 out_time, 5 out_packet, 6 w_time,
  // 7 w_packet, 8 raw_time, 9 raw_packet
  std::array<Terms, 10> m;
  std::uint64_t ps = 1, tb = 1, lb = 1, rs = 1, pb_size = 1, fpl = 1;
  bool wide = false;
  std::vector<TrfLoopEntry> loops;
};

void add_loop(std::vector<TrfLoopEntry>& l, std::uint64_t size, std::uint64_t stride) {
  if (size > 1)
    l.push_back({size, stride}); // normalize drops one-value digits (docs/mapping.md N1)
}

Config generate(std::mt19937_64& rng) {
  auto pick = [&](auto const& v) { return v[rng() % v.size()]; };
  const std::array<std::pair<ScalarType, ScalarType>, 6> pairs = {
      {{ScalarType::BF16, ScalarType::BF16},
       {ScalarType::I8, ScalarType::I8},
       {ScalarType::I9, ScalarType::I8},
       {ScalarType::F8E4M3, ScalarType::F8E4M3},
       {ScalarType::I4, ScalarType::I4},
       {ScalarType::I5, ScalarType::I4}}};
  Config c;
  std::tie(c.stream, c.weight) = pick(pairs);
  const std::uint64_t fe = 256 / wire_bits(c.stream);
  const std::uint64_t lanes = pick(std::array<std::uint64_t, 4>{1, 2, 4, 8});
  const std::uint64_t bx = pick(std::array<std::uint64_t, 4>{1, 2, 3, 5});
  const std::uint64_t m = 1 + rng() % 6;
  c.lb = lanes;
  const int strategy = static_cast<int>(rng() % 4);
  if (strategy == 0) {
    // K in Packet, M in Time, TRF-only B broadcast innermost (§11.2, §11.4, §11.13).
    c.ps = 1 + rng() % 2;
    const std::uint64_t kk = pick(std::array<std::uint64_t, 3>{1, 2, 4});
    const std::uint64_t k = fe * c.ps * kk;
    c.axes = fmt::format("M={}, K={}, N={}, B={}", m, k, lanes, bx);
    c.m[0] = {"M", fmt::format("K / {}", fe)};
    c.m[1] = {fmt::format("K % {}", fe)};
    c.m[2] = {"N"};
    c.m[3] = {"B", "K"};
    c.m[4] = {"M", fmt::format("K / {}", fe * c.ps), "B"};
    c.m[5] = {fmt::format("K % {}", fe * c.ps)};
    c.m[6] = {"N", "B", fmt::format("K / {}", fe)};
    c.m[7] = {fmt::format("K % {}", fe)};
    c.m[8] = {"M"};
    c.m[9] = {"K"};
    c.tb = bx;
    c.rs = fe * c.ps;
    c.wide = c.ps == 2;
    c.fpl = bx * k / fe;
    add_loop(c.loops, m, 0);
    add_loop(c.loops, kk, fe * c.ps);
    add_loop(c.loops, bx, k);
  } else if (strategy == 1) {
    // K in Time (§11.1): the packet is one padded element, the TRF is read one element a cycle.
    const std::uint64_t kk = 1 + rng() % 4;
    const std::uint64_t k = fe * kk;
    c.axes = fmt::format("V={}, K={}, N={}", m, k, lanes);
    c.m[0] = {"V", "K"};
    c.m[1] = {fmt::format("1 # {}", fe)};
    c.m[2] = {"N"};
    c.m[3] = {"K"};
    c.m[4] = {"V", "K"};
    c.m[5] = {fmt::format("1 # {}", fe)};
    c.m[6] = {"N", fmt::format("K / {}", fe)};
    c.m[7] = {fmt::format("K % {}", fe)};
    c.m[8] = {"V", "K"};
    c.m[9] = {fmt::format("1 # {}", fe)};
    c.ps = 1;
    c.tb = 1;
    c.rs = 1;
    c.wide = false;
    c.pb_size = fe;
    c.fpl = kk;
    add_loop(c.loops, m, 0);
    add_loop(c.loops, k, 1);
  } else if (strategy == 3) {
    // GEMM (§11.12): the lanes hold J % lanes, the stream is re-fetched for every J / lanes
    // block (a Time digit of J), K is split between rows and the read.
    c.ps = 1 + rng() % 2;
    const std::uint64_t kk = pick(std::array<std::uint64_t, 3>{1, 2, 4});
    const std::uint64_t jj = 1 + rng() % 4;
    const std::uint64_t k = fe * c.ps * kk;
    c.axes = fmt::format("I={}, J={}, K={}", m, lanes * jj, k);
    const std::string jb = fmt::format("J / {} % {}", lanes, jj);
    c.m[0] = {"I", jb, fmt::format("K / {}", fe)};
    c.m[1] = {fmt::format("K % {}", fe)};
    c.m[2] = {fmt::format("J % {}", lanes)};
    c.m[3] = {jb, "K"};
    c.m[4] = {"I", jb, fmt::format("K / {}", fe * c.ps)};
    c.m[5] = {fmt::format("K % {}", fe * c.ps)};
    c.m[6] = {fmt::format("J % {}", lanes), jb, fmt::format("K / {}", fe)};
    c.m[7] = {fmt::format("K % {}", fe)};
    c.m[8] = {"I", jb};
    c.m[9] = {"K"};
    c.tb = 1;
    c.rs = fe * c.ps;
    c.wide = c.ps == 2;
    c.fpl = jj * k / fe;
    add_loop(c.loops, m, 0);
    add_loop(c.loops, jj, k);
    add_loop(c.loops, kk, fe * c.ps);
  } else {
    // A packed Time digit L with a TRF time broadcast B (§11.4).
    c.axes = fmt::format("M={}, L=2, K={}, N={}, B={}", m, fe, lanes, bx);
    c.m[0] = {"M", "L"};
    c.m[1] = {"K"};
    c.m[2] = {"N"};
    c.m[3] = {"B", "L", "K"};
    c.m[4] = {"M", "B"};
    c.m[5] = {"L", "K"};
    c.m[6] = {"N", "B", "L"};
    c.m[7] = {"K"};
    c.m[8] = {"M"};
    c.m[9] = {"L", "K"};
    c.ps = 2;
    c.tb = bx;
    c.rs = 2 * fe;
    c.wide = true;
    c.fpl = 2 * bx;
    add_loop(c.loops, m, 0);
    add_loop(c.loops, bx, 2 * fe);
  }
  return c;
}

struct Parsed {
  bool ok = true;
  std::array<Mapping, 10> m;
};

Parsed parse(const Config& c) {
  Parsed p;
  auto axes = parse_axes_text(c.axes);
  if (!axes) return Parsed{false, {}};
  for (std::size_t i = 0; i < c.m.size(); ++i) {
    auto r = parse_mapping_text(join(c.m[i]), *axes);
    if (!r) return Parsed{false, {}};
    p.m[i] = *r;
  }
  return p;
}

ContractOuterInput outer_input(const Config& c, const Parsed& p) {
  return ContractOuterInput{c.stream, c.weight, p.m[0], p.m[1], p.m[2],
                            p.m[3],   p.m[4],   p.m[5], {},     {}};
}

/// A rejection must be a proper diagnostic: a stable code, a message and the rule's name.
template <class T>
void check_rejection(const Result<T>& r) {
  REQUIRE_FALSE(r.diagnostics().empty());
  const Diagnostic& d = r.diagnostics().front();
  CHECK(d.severity == Severity::Error);
  CHECK(d.code.rfind("E-", 0) == 0);
  CHECK_FALSE(d.message.empty());
}

/// One single-term mutation of one mapping; false when it cannot apply.
bool mutate(Config& c, std::mt19937_64& rng) {
  static const std::array<const char*, 14> pool = {"M", "K",         "N",     "B",     "V",
                                                   "L", "K / 2",     "K % 2", "M # 8", "1 # 2",
                                                   "2", "K / 4 % 2", "N % 2", "B # 4"};
  Terms& t = c.m[rng() % c.m.size()];
  const std::size_t i = rng() % t.size();
  switch (rng() % 6) {
  case 0: // drop a term
    // Not `t[0] = "1"`: that assignment trips g++ 12's false -Wstringop-overflow at -O3.
    if (t.size() < 2)
      t[0] = std::string("1");
    else
      t.erase(t.begin() + static_cast<std::ptrdiff_t>(i));
    return true;
  case 1: // swap adjacent terms
    if (t.size() < 2) return false;
    std::swap(t[i], t[(i + 1) % t.size()]);
    return true;
  case 2: // replace by another term
    t[i] = pool[rng() % pool.size()];
    return true;
  case 3: // pad a term
    t[i] = fmt::format("[{}] # {}", t[i], 64 << (rng() % 3));
    return true;
  case 4: // repeat a term
    t.insert(t.begin() + static_cast<std::ptrdiff_t>(i), t[i]);
    return true;
  default: // stride a term
    t[i] = fmt::format("[{}] / 2", t[i]);
    return true;
  }
}

} // namespace

TEST_CASE("property: strategy-built configurations are accepted with the implied values",
          "[verify-outer]") {
  std::mt19937_64 rng(20261129);
  for (int n = 0; n < 300; ++n) {
    const Config c = generate(rng);
    const Parsed p = parse(c);
    INFO("axes " << c.axes << "; time " << join(c.m[0]) << " / " << join(c.m[1]) << "; TRF "
                 << join(c.m[2]) << " / " << join(c.m[3]) << "; OT " << join(c.m[4]) << " OP "
                 << join(c.m[5]) << "; " << name(c.stream) << " x " << name(c.weight));
    REQUIRE(p.ok);

    auto trf = verify_to_trf(ToTrfInput{c.weight, p.m[6], p.m[7], p.m[2], p.m[3]});
    INFO(why(trf));
    REQUIRE(trf.ok());
    CHECK(trf->flits_per_lane == c.fpl);
    CHECK(trf->lanes == c.lb);

    auto col = verify_collect(CollectInput{c.stream, p.m[8], p.m[9], p.m[0], p.m[1]});
    INFO(why(col));
    REQUIRE(col.ok());

    auto r = verify_contract_outer(outer_input(c, p));
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->stream_adapter.pack_size == c.ps);
    CHECK(r->stream_adapter.time_broadcast_size == c.tb);
    CHECK(r->stream_adapter.lane_broadcast == c.lb);
    CHECK(r->trf_sequencer.read_size == c.rs);
    CHECK(r->trf_sequencer.wide == c.wide);
    CHECK(r->trf_sequencer.packet_broadcast_size == c.pb_size);
    CHECK(r->trf_sequencer.loops == c.loops);
    CHECK(brute_force_outer(outer_input(c, p), *r, 1u << 16) == "");
  }
}

TEST_CASE("property: single-term mutations are accepted or diagnosed, never a crash",
          "[verify-outer]") {
  std::mt19937_64 rng(7);
  int accepted = 0, rejected = 0;
  for (int n = 0; n < 300; ++n) {
    const Config base = generate(rng);
    for (int k = 0; k < 10; ++k) {
      Config c = base;
      if (!mutate(c, rng)) continue;
      const Parsed p = parse(c);
      if (!p.ok) continue; // the mutant broke a static rule of the mapping (docs/mapping.md §1.3)
      INFO("axes " << c.axes << "; time " << join(c.m[0]) << " / " << join(c.m[1]) << "; TRF "
                   << join(c.m[2]) << " / " << join(c.m[3]) << "; OT " << join(c.m[4]) << " OP "
                   << join(c.m[5]) << "; w " << join(c.m[6]) << " / " << join(c.m[7]));

      auto r = verify_contract_outer(outer_input(c, p));
      if (r.ok()) {
        ++accepted;
        // Independent arithmetic on an accepted stage (§5.1): OP is PackSize flits, and
        // |OT| = |Time| / PackSize · TB.
        CHECK(r->stream_adapter.pack_size * 256 == p.m[5].size() * wire_bits(c.stream));
        CHECK(p.m[4].size() * r->stream_adapter.pack_size ==
              p.m[0].size() * r->stream_adapter.time_broadcast_size);
        CHECK(p.m[3].size() % r->trf_sequencer.read_size == 0);
        CHECK(brute_force_outer(outer_input(c, p), *r, 1u << 12) == "");
      } else {
        ++rejected;
        check_rejection(r);
      }
      auto trf = verify_to_trf(ToTrfInput{c.weight, p.m[6], p.m[7], p.m[2], p.m[3]});
      if (!trf.ok()) check_rejection(trf);
      auto col = verify_collect(CollectInput{c.stream, p.m[8], p.m[9], p.m[0], p.m[1]});
      if (!col.ok()) check_rejection(col);
    }
  }
  CHECK(accepted > 0);
  CHECK(rejected > 0);
}

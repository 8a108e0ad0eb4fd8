// Property test for the Packet Reducer / Time Reducer / Lane Folder verifiers: random valid
// contraction tails (OT built from random axis factors, T2 an order-preserving subset of them, P2
// = OP / 2^d, lanes 1/2/4/8, both modes; T3/P3 built by the formulas of docs/contraction.md §8) are
// accepted, and the derived InnerTime equals two independent computations on the generator's own
// factor model:
//   * brute force: walk OT positions in flit order (padding positions included: the
//     accumulator addresses slots by T2 position, padding slots included), map each to its T2
//     slot, and count the slots open at once (opened by their first flit, closed by their last);
//   * the §7 rule: the product of the padded extents of the retained factors inner to the
//     outermost reduced factor (1 when nothing is reduced).
// Single-term mutations are then accepted or rejected with a diagnostic, never a crash.
#include "ir/verify/contract_lane.h"
#include "ir/verify/contract_packet.h"
#include "ir/verify/contract_time.h"

#include "tests/unit/verify_reduce_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::ir;
using namespace tujit::ir::verify;
using tujit::testing::verify_reduce::Axes;
using tujit::testing::verify_reduce::why;

namespace {

struct GenFactor {
  std::string text;      // surface text of this factor, e.g. "X0", "X1 # 5", "X2 / 3"
  std::string axis;      // its axis
  int piece = 0;         // 0 whole axis, 1 outer digit `/ b`, 2 inner digit `% b`
  std::uint64_t extent;  // padded extent (positions it spans in OT)
  bool retained = false; // kept in T2
  bool padded = false;
};

struct GenConfig {
  std::string axes_text;
  std::vector<GenFactor> ot; // outer → inner
  ScalarType dtype = ScalarType::BF16;
  std::string op_text;
  std::uint64_t op_size = 0;
  bool op_padded = false;
  std::uint64_t group = 1; // 2^d used to build P2
  std::uint64_t lanes = 1;
  LaneMode mode = LaneMode::Interleaved;

  std::string t2_text() const {
    std::string s;
    for (const auto& f : ot)
      if (f.retained) s += (s.empty() ? "" : ", ") + f.text;
    return s.empty() ? "1" : s;
  }
  std::string ot_text() const {
    std::string s;
    for (const auto& f : ot) s += (s.empty() ? "" : ", ") + f.text;
    return s;
  }
};

std::uint64_t pick(std::mt19937_64& rng, std::uint64_t lo, std::uint64_t hi) {
  return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
}

// Pieces `X / b` immediately followed by `X % b` would normalize into the whole axis, changing
// the factor structure the model assumes (docs/mapping.md §4.3 N4).
bool merges(const std::vector<GenFactor>& ot) {
  for (std::size_t i = 0; i + 1 < ot.size(); ++i)
    if (ot[i].axis == ot[i + 1].axis && ot[i].piece == 1 && ot[i + 1].piece == 2) return true;
  return false;
}

GenConfig generate(std::mt19937_64& rng) {
  GenConfig g;
  std::string axes;
  const std::uint64_t units = pick(rng, 1, 4);
  for (std::uint64_t i = 0; i < units; ++i) {
    const std::string x = "X" + std::to_string(i);
    switch (pick(rng, 0, 2)) {
    case 0: { // whole axis
      const auto s = pick(rng, 2, 6);
      axes += x + "=" + std::to_string(s) + ",";
      g.ot.push_back({x, x, 0, s, false, false});
      break;
    }
    case 1: { // padded axis `X # t`
      const auto s = pick(rng, 2, 5);
      const auto t = pick(rng, s + 1, 2 * s);
      axes += x + "=" + std::to_string(s) + ",";
      g.ot.push_back({x + " # " + std::to_string(t), x, 0, t, false, true});
      break;
    }
    default: { // two digits of one axis, placed independently
      const auto a = pick(rng, 2, 4), b = pick(rng, 2, 4);
      axes += x + "=" + std::to_string(a * b) + ",";
      g.ot.push_back({x + " / " + std::to_string(b), x, 1, a, false, false});
      g.ot.push_back({x + " % " + std::to_string(b), x, 2, b, false, false});
      break;
    }
    }
  }
  for (int tries = 0; tries < 20; ++tries) {
    std::shuffle(g.ot.begin(), g.ot.end(), rng);
    if (!merges(g.ot)) break;
  }
  if (merges(g.ot)) // only when the list is exactly [X / b, X % b]: transpose the digits
    std::reverse(g.ot.begin(), g.ot.end());
  for (auto& f : g.ot) f.retained = pick(rng, 0, 1) == 1;

  // Packet: one or two flits of the stream type.
  const ScalarType types[] = {ScalarType::I4, ScalarType::I8, ScalarType::I9, ScalarType::F8E4M3,
                              ScalarType::BF16};
  g.dtype = types[pick(rng, 0, 4)];
  g.op_size = pick(rng, 1, 2) * 256 / wire_bits(g.dtype);
  switch (pick(rng, 0, 3)) {
  case 0:
    axes += "K=" + std::to_string(g.op_size) + ",";
    g.op_text = "K";
    break;
  case 1: {
    const auto k1 = std::uint64_t{1} << pick(rng, 1, 3);
    axes += "K=" + std::to_string(k1) + ",J=" + std::to_string(g.op_size / k1) + ",";
    g.op_text = "K, J";
    break;
  }
  case 2: { // a ragged live prefix padded to the packet
    const auto live = pick(rng, g.op_size / 2 + 1, g.op_size - 1);
    axes += "K=" + std::to_string(live) + ",";
    g.op_text = "K # " + std::to_string(g.op_size);
    g.op_padded = true;
    break;
  }
  default:
    g.op_text = "1 # " + std::to_string(g.op_size);
    g.op_padded = true;
    break;
  }
  // d with |OP| / 2^d <= 32 columns.
  std::uint64_t dmin = 0;
  while ((g.op_size >> dmin) > 32) ++dmin;
  std::uint64_t dmax = 0;
  while ((std::uint64_t{1} << (dmax + 1)) <= g.op_size) ++dmax;
  g.group = std::uint64_t{1} << pick(rng, dmin, dmax);

  g.lanes = std::uint64_t{1} << pick(rng, 0, 3);
  axes += "LN=" + std::to_string(g.lanes) + ",Z=7";
  g.axes_text = axes;
  g.mode = pick(rng, 0, 1) == 0 ? LaneMode::Interleaved : LaneMode::Sequential;
  return g;
}

// Brute force (see the file comment).
std::uint64_t inner_time_brute_force(const std::vector<GenFactor>& ot) {
  const std::size_t n = ot.size();
  std::vector<std::uint64_t> t2_stride(n, 0);
  std::uint64_t s = 1, total = 1;
  for (std::size_t k = n; k-- > 0;) {
    total *= ot[k].extent;
    if (ot[k].retained) {
      t2_stride[k] = s;
      s *= ot[k].extent;
    }
  }
  const std::uint64_t t2_size = s;
  std::vector<std::int64_t> first(t2_size, -1), last(t2_size, -1);
  for (std::uint64_t p = 0; p < total; ++p) {
    std::uint64_t q = p, u = 0;
    for (std::size_t k = n; k-- > 0;) {
      const std::uint64_t digit = q % ot[k].extent;
      q /= ot[k].extent;
      u += digit * t2_stride[k];
    }
    if (first[u] < 0) first[u] = static_cast<std::int64_t>(p);
    last[u] = static_cast<std::int64_t>(p);
  }
  std::vector<std::int64_t> delta(total + 1, 0);
  for (std::uint64_t u = 0; u < t2_size; ++u) {
    delta[static_cast<std::size_t>(first[u])] += 1;
    delta[static_cast<std::size_t>(last[u]) + 1] -= 1;
  }
  std::int64_t open = 0, most = 0;
  for (std::uint64_t p = 0; p < total; ++p) {
    open += delta[p];
    most = std::max(most, open);
  }
  return static_cast<std::uint64_t>(most);
}

// docs/contraction.md §7 rule on the model.
std::uint64_t inner_time_rule(const std::vector<GenFactor>& ot) {
  std::size_t r = 0;
  while (r < ot.size() && ot[r].retained) ++r;
  std::uint64_t it = 1;
  for (std::size_t k = r + 1; k < ot.size(); ++k)
    if (ot[k].retained) it *= ot[k].extent;
  return it;
}

Mapping must(Result<Mapping> r) {
  REQUIRE(r.ok());
  return *r;
}

struct Tail {
  Mapping lane, t2, p2, t3, p3, op, ot;
};

Tail build_tail(const GenConfig& g, const Axes& ax, std::uint64_t group, LaneMode mode) {
  Tail t;
  t.ot = ax(g.ot_text());
  t.t2 = ax(g.t2_text());
  t.op = ax(g.op_text);
  t.lane = ax("LN");
  t.p2 = must(Mapping::stride(t.op, group));
  const std::uint64_t bus = 8;
  if (mode == LaneMode::Interleaved) {
    t.t3 = must(Mapping::pair(t.t2, t.p2));
    t.p3 = must(Mapping::padding(t.lane, bus, PaddingKind::Top));
  } else {
    const std::uint64_t padded = (t.p2.size() + bus - 1) / bus * bus;
    Mapping pp = must(Mapping::padding(t.p2, padded, PaddingKind::Top));
    t.t3 = must(Mapping::pair(t.t2, must(Mapping::pair(t.lane, must(Mapping::stride(pp, bus))))));
    t.p3 = must(Mapping::modulo(pp, bus));
  }
  return t;
}

template <class T>
void accepted_or_diagnosed(const Result<T>& r) {
  if (r.ok()) return;
  REQUIRE_FALSE(r.diagnostics().empty());
  const auto& d = r.diagnostics().front();
  CHECK(d.severity == Severity::Error);
  CHECK(d.code.rfind("E-", 0) == 0);
  CHECK_FALSE(d.message.empty());
}

} // namespace

TEST_CASE("random valid contraction tails are accepted with the brute-force InnerTime",
          "[verify-reduce][property]") {
  std::mt19937_64 rng(0x5EED'4EDCu);
  int buffer_rejections = 0, accepted = 0;
  for (int iter = 0; iter < 1000; ++iter) {
    const GenConfig g = generate(rng);
    INFO("iteration " << iter << ": axes " << g.axes_text << "; OT [" << g.ot_text() << "], T2 ["
                      << g.t2_text() << "], " << name(g.dtype) << " OP [" << g.op_text << "] / "
                      << g.group << ", lanes " << g.lanes << ", " << to_string(g.mode));
    Axes ax(g.axes_text);
    const Tail t = build_tail(g, ax, g.group, g.mode);

    auto pk = verify_contract_packet(ContractPacketInput{g.dtype, t.op, t.p2});
    INFO(why(pk));
    REQUIRE(pk.ok());
    CHECK(pk->group <= g.group);
    if (!g.op_padded) CHECK(pk->group == g.group);
    CHECK(pk->out_columns == g.op_size / g.group);

    const std::uint64_t bf = inner_time_brute_force(g.ot);
    CHECK(bf == inner_time_rule(g.ot));

    auto tm = verify_contract_time(ContractTimeInput{t.ot, t.t2});
    INFO(why(tm));
    REQUIRE(tm.ok());
    CHECK(tm->inner_time == bf);
    // The reference's divide-stride walk (docs/mapping.md §7.5) agrees: every kept factor here is a
    // whole factor of OT, so each retained term sits at an axis boundary.
    {
      const FactorList ot = factorize(t.ot), t2 = factorize(t.t2);
      auto terms = divide_exact(ot, t2);
      REQUIRE(terms.ok());
      CHECK(inner_time_from_division(*terms, padding_per_stride(ot), ot.size(), t2.size()) == bf);
    }

    auto ln = verify_contract_lane(ContractLaneInput{g.mode, t.lane, t.t2, t.p2, t.t3, t.p3, t.ot});
    const std::uint64_t cols = g.op_size / g.group;
    const std::uint64_t cells = g.mode == LaneMode::Interleaved ? 8 * bf * cols : g.lanes * bf * 32;
    if (cells <= 1024) {
      INFO(why(ln));
      REQUIRE(ln.ok());
      CHECK(ln->inner_time == bf);
      CHECK(ln->accumulator_cells == cells);
      CHECK(ln->output_flits == t.t3.size());
      CHECK(ln->slot_capacity * (cells / bf) == 1024);
      const auto table = ln->to_table();
      CHECK(std::get<std::uint64_t>(table.at("inner_time")) == bf);
      CHECK(std::get<std::string>(table.at("mode")) == std::string(to_string(g.mode)));
      ++accepted;
    } else {
      REQUIRE_FALSE(ln.ok());
      CHECK(ln.diagnostics().front().code == "E-LANE-007");
      ++buffer_rejections;
    }
  }
  // The generator reaches both outcomes.
  CHECK(accepted > 50);
  CHECK(buffer_rejections > 0);
}

TEST_CASE("single-term mutations are accepted or rejected with a diagnostic",
          "[verify-reduce][property]") {
  std::mt19937_64 rng(0xBADC0FFEu);
  for (int iter = 0; iter < 1000; ++iter) {
    GenConfig g = generate(rng);
    Axes ax(g.axes_text);
    const int kind = static_cast<int>(pick(rng, 0, 6));
    INFO("iteration " << iter << ", mutation " << kind << ": axes " << g.axes_text << "; OT ["
                      << g.ot_text() << "], T2 [" << g.t2_text() << "]");
    Tail t = build_tail(g, ax, g.group, g.mode);
    std::vector<std::size_t> kept;
    for (std::size_t i = 0; i < g.ot.size(); ++i)
      if (g.ot[i].retained) kept.push_back(i);

    switch (kind) {
    case 0: { // swap two kept factors of different axes → OrderNotPreserved
      if (kept.size() < 2) break;
      const auto a = kept[pick(rng, 0, kept.size() - 2)];
      const auto b = kept[pick(rng, 0, kept.size() - 1)];
      if (a == b || g.ot[a].axis == g.ot[b].axis) break;
      std::swap(g.ot[a], g.ot[b]); // T2 order swapped; OT keeps its own text
      auto r = verify_contract_time(ContractTimeInput{t.ot, ax(g.t2_text())});
      REQUIRE_FALSE(r.ok());
      CHECK(r.diagnostics().front().code == "E-TIME-002");
      break;
    }
    case 1: { // a foreign axis in T2 → Indivisible
      auto r = verify_contract_time(ContractTimeInput{t.ot, ax(g.t2_text() + ", Z")});
      REQUIRE_FALSE(r.ok());
      CHECK(r.diagnostics().front().code == "E-TIME-001");
      break;
    }
    case 2: { // one term of T2 replaced by another factor text (padding changed, reduced, …)
      std::vector<std::string> pool = {"Z", "1 # 2", "2"};
      for (const auto& f : g.ot) {
        pool.push_back(f.text);
        pool.push_back(f.axis);
        pool.push_back(f.axis + " # " + std::to_string(f.extent + 1));
      }
      std::string t2;
      const std::size_t victim = kept.empty() ? 0 : pick(rng, 0, kept.size() - 1);
      for (std::size_t i = 0; i < kept.size(); ++i)
        t2 += (t2.empty() ? "" : ", ") +
              (i == victim ? pool[pick(rng, 0, pool.size() - 1)] : g.ot[kept[i]].text);
      if (t2.empty()) t2 = pool[pick(rng, 0, pool.size() - 1)];
      auto t2m = ir::parse_mapping_text(t2, ax.table);
      if (!t2m.ok()) break; // e.g. an axis named twice may overshoot: not a verifier input
      accepted_or_diagnosed(verify_contract_time(ContractTimeInput{t.ot, *t2m}));
      accepted_or_diagnosed(
          verify_contract_lane(ContractLaneInput{g.mode, t.lane, *t2m, t.p2, t.t3, t.p3, t.ot}));
      break;
    }
    case 3: { // another depth for P2 (T3/P3 left as they were)
      const std::uint64_t other =
          pick(rng, 0, 1) == 0 ? g.group * 2 : std::max<std::uint64_t>(1, g.group / 2);
      if (other > g.op_size) break;
      auto p2 = must(Mapping::stride(t.op, other));
      accepted_or_diagnosed(verify_contract_packet(ContractPacketInput{g.dtype, t.op, p2}));
      accepted_or_diagnosed(
          verify_contract_lane(ContractLaneInput{g.mode, t.lane, t.t2, p2, t.t3, t.p3, t.ot}));
      break;
    }
    case 4: { // the other lane mode with the same T3/P3
      const LaneMode other =
          g.mode == LaneMode::Interleaved ? LaneMode::Sequential : LaneMode::Interleaved;
      accepted_or_diagnosed(
          verify_contract_lane(ContractLaneInput{other, t.lane, t.t2, t.p2, t.t3, t.p3, t.ot}));
      break;
    }
    case 5: { // P3 without the padding to 8 → OutPacketSize when Lane < 8
      auto r =
          verify_contract_lane(ContractLaneInput{LaneMode::Interleaved, t.lane, t.t2, t.p2,
                                                 must(Mapping::pair(t.t2, t.p2)), t.lane, t.ot});
      if (g.lanes < 8) {
        REQUIRE_FALSE(r.ok());
        CHECK(r.diagnostics().front().code == "E-LANE-002");
      } else {
        accepted_or_diagnosed(r);
      }
      break;
    }
    default: { // another element type for the same packet
      const ScalarType types[] = {ScalarType::I4, ScalarType::I8, ScalarType::BF16, ScalarType::F32,
                                  ScalarType::I16};
      accepted_or_diagnosed(
          verify_contract_packet(ContractPacketInput{types[pick(rng, 0, 4)], t.op, t.p2}));
      break;
    }
    }
  }
}

TEST_CASE("InnerTime when the kept digits are outer pieces of whole axes",
          "[verify-reduce][property]") {
  // OT = whole axes; T2 keeps only `X / b` of some of them (the low digit X % b is summed). No
  // kept term sits at an axis boundary of OT, so contract_time's rule 3 has nothing to check;
  // the brute force on the digit model (X = [X / b kept, X % b summed]) gives InnerTime.
  std::mt19937_64 rng(0xC0FFEEu);
  for (int iter = 0; iter < 300; ++iter) {
    std::vector<GenFactor> model;
    std::string axes, ot, t2;
    const std::uint64_t units = pick(rng, 1, 4);
    bool any_cut = false;
    for (std::uint64_t i = 0; i < units; ++i) {
      const std::string x = "X" + std::to_string(i);
      const auto a = pick(rng, 2, 4), b = pick(rng, 2, 4);
      const bool cut = pick(rng, 0, 1) == 1 || (i + 1 == units && !any_cut);
      any_cut = any_cut || cut;
      axes += x + "=" + std::to_string(a * b) + ",";
      ot += (ot.empty() ? "" : ", ") + x;
      if (cut) {
        t2 += (t2.empty() ? "" : ", ") + x + " / " + std::to_string(b);
        model.push_back({x + " / " + std::to_string(b), x, 1, a, true, false});
        model.push_back({x + " % " + std::to_string(b), x, 2, b, false, false});
      } else {
        model.push_back({x, x, 0, a * b, false, false});
      }
    }
    axes += "N=8,P=16";
    INFO("axes " << axes << "; OT [" << ot << "], T2 [" << t2 << "]");
    Axes ax(axes);
    const std::uint64_t bf = inner_time_brute_force(model);
    CHECK(bf == inner_time_rule(model));
    auto tm = verify_contract_time(ContractTimeInput{ax(ot), ax(t2)});
    INFO(why(tm));
    REQUIRE(tm.ok());
    CHECK(tm->inner_time == bf);
    auto ln = verify_contract_lane(ContractLaneInput{LaneMode::Interleaved, ax("N"), ax(t2),
                                                     ax("P"), ax(t2 + ", P"), ax("N"), ax(ot)});
    if (8 * bf * 16 <= 1024) {
      INFO(why(ln));
      REQUIRE(ln.ok());
      CHECK(ln->inner_time == bf);
    } else {
      REQUIRE_FALSE(ln.ok());
      CHECK(ln.diagnostics().front().code == "E-LANE-007");
    }
  }
}

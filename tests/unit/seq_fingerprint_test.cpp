// The contraction program's fingerprint (ir/seq/contraction_program.h, "[seq-fingerprint]"): it
// is generated from the program's fields (for_each_field), so changing any field an engine's code
// depends on — every field but the kernel's name and the mappings — changes it, `ftz_results`
// and the part of the chain included; and verify() refuses a broken program.
#include "tests/unit/jit_test_support.h"

#include "ir/seq/contraction_program.h"

#include <string>
#include <type_traits>
#include <vector>

using namespace tujit;
using ir::seq::ContractionProgram;

namespace {

/// Makes a value of any field's type different: numbers + 1, flags flipped, enums to their next
/// value, vectors one element longer, names and mappings changed too (they must not count).
struct Change {
  template <class T>
  requires std::is_arithmetic_v<T>
  void operator()(T& v) const {
    if constexpr (std::is_same_v<T, bool>)
      v = !v;
    else
      v = static_cast<T>(v + 1);
  }
  template <class T>
  requires std::is_enum_v<T>
  void operator()(T& v) const { v = static_cast<T>(static_cast<std::underlying_type_t<T>>(v) + 1); }
  void operator()(std::string& s) const { s += "'"; }
  void operator()(ir::seq::ChainMappings& m) const { std::swap(m.time, m.t3); }
  template <class T>
  void operator()(std::vector<T>& v) const {
    v.emplace_back();
  }
};

template <class T>
constexpr bool kReportOnly =
    std::is_same_v<T, std::string> || std::is_same_v<T, ir::seq::ChainMappings>;

std::size_t field_count(ContractionProgram& p) {
  std::size_t n = 0;
  ir::seq::for_each_field(p, [&n](auto&) { ++n; });
  return n;
}

} // namespace

TEST_CASE("seq fingerprint: changing any field but the name and the mappings changes it",
          "[seq-fingerprint]") {
  ContractionProgram base = testing::jit::bmatmul();
  const std::uint64_t fp = ir::seq::fingerprint(base);
  const std::size_t n = field_count(base);
  std::size_t changed = 0, report_only = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ContractionProgram p = base;
    bool excluded = false;
    std::size_t k = 0;
    ir::seq::for_each_field(p, [&](auto& f) {
      if (k++ != i) return;
      Change{}(f);
      excluded = kReportOnly<std::remove_cvref_t<decltype(f)>>;
    });
    INFO("field " << i);
    if (excluded) {
      CHECK(ir::seq::fingerprint(p) == fp);
      ++report_only;
    } else {
      CHECK(ir::seq::fingerprint(p) != fp);
      ++changed;
    }
  }
  CHECK(report_only == 2); // kernel_name, m
  CHECK(changed == n - 2);
  CHECK(n >= 36);
}

TEST_CASE("seq fingerprint: changing one element of a table or one loop field changes it",
          "[seq-fingerprint]") {
  ContractionProgram base = testing::jit::bmatmul();
  base.cycle_live.assign(base.cycles, 1); // tables the lowering leaves empty when all live
  base.cell_live.assign(base.op, 1);
  const std::uint64_t fp = ir::seq::fingerprint(base);
  std::size_t tables = 0, loop_fields = 0;
  for (std::size_t i = 0; i < field_count(base); ++i) {
    const auto change_first = [&](auto&& mutate) {
      ContractionProgram p = base;
      bool changed = false;
      std::size_t k = 0;
      ir::seq::for_each_field(p, [&](auto& f) {
        if (k++ == i) changed = mutate(f);
      });
      if (changed) CHECK(ir::seq::fingerprint(p) != fp);
      return changed;
    };
    INFO("field " << i);
    tables += change_first([](auto& f) {
      using T = std::remove_cvref_t<decltype(f)>;
      if constexpr (std::is_same_v<T, std::vector<std::uint8_t>> ||
                    std::is_same_v<T, std::vector<std::int64_t>>) {
        if (f.empty()) return false;
        f.front() = static_cast<typename T::value_type>(f.front() == 0 ? 1 : 0);
        return true;
      }
      return false;
    });
    for (std::size_t j = 0; j < 4; ++j)
      loop_fields += change_first([j](auto& f) {
        using T = std::remove_cvref_t<decltype(f)>;
        if constexpr (std::is_same_v<T, std::vector<ir::seq::CycleLoop>>) {
          std::size_t m = 0;
          ir::seq::for_each_field(f.front(), [&](auto& x) {
            if (m++ == j) ++x;
          });
          return true;
        }
        return false;
      });
  }
  CHECK(tables == 5); // spatial_live, lane_live, cycle_live, cell_live, drain
  CHECK(loop_fields == 4);
}

TEST_CASE("seq fingerprint: ftz_results and the part run are in it", "[seq-fingerprint]") {
  ContractionProgram p = testing::jit::bmatmul();
  const std::uint64_t fp = ir::seq::fingerprint(p);
  p.ftz_results = true;
  CHECK(ir::seq::fingerprint(p) != fp);
  p.ftz_results = false;
  p.last = ir::seq::ChainStage::Time;
  CHECK(ir::seq::fingerprint(p) != fp);
}

TEST_CASE("seq verify: a broken contraction program is E-RUN-102", "[seq-fingerprint]") {
  const ContractionProgram good = testing::jit::bmatmul();
  CHECK(ir::seq::verify(good).ok());
  const auto refused = [](const ContractionProgram& p) {
    auto r = ir::seq::verify(p);
    REQUIRE_FALSE(r.ok());
    CHECK(r.diagnostics().front().code == "E-RUN-102");
  };
  ContractionProgram p = good;
  p.cycle_nest.front().size += 1; // the nest no longer covers |OT|
  refused(p);
  p = good;
  p.lane_live.pop_back();
  refused(p);
  p = good;
  p.drain.front() = static_cast<std::int64_t>(p.accumulator_cells());
  refused(p);
  p = good;
  p.group *= 2; // no longer 2^depth
  refused(p);
  p = good;
  p.first = ir::seq::ChainStage::Time;
  p.last = ir::seq::ChainStage::Packet;
  refused(p);
  p = good;
  p.cycle_nest.back().trf_stride += p.element; // a cycle reads past the lane's elements
  refused(p);
}

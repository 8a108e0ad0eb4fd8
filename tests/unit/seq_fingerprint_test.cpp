// The programs' fingerprints (ir/seq/field_hash.h, "[seq-fingerprint]"): each is generated from the
// program's fields (for_each_field), so changing any field an engine's code depends on — every
// field but the names, the mappings and the tensor types kept for reports — changes it,
// `ftz_results` and the part of the chain included, for the contraction program, the run program
// (operand and output streams, adapters, the Vector Engine pass, the fetch programs) and the fetch
// program; ir::seq::FieldEqual tells the same changes apart without hashing; and verify()
// refuses a broken program.
#include "tests/unit/jit_test_support.h"

#include "harness/run/run_pipeline.h"
#include "ir/seq/contraction_program.h"
#include "ir/seq/field_hash.h"
#include "ir/seq/run_operands.h"
#include "ir/seq/run_program.h"
#include "tests/support/checked.h"

#include <filesystem>
#include <optional>
#include <variant>

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

namespace {

/// Changes the `target`-th leaf field (depth first) of a program: numbers + 1, flags flipped,
/// enums to their next value, a vector one element longer (then its first element's fields), an
/// optional set or cleared (then its value's fields), a variant to another alternative, an address
/// table moved by one element; names, mappings and tensor types changed too, and flagged as
/// report-only (they must not count).
struct ChangeLeaf {
  std::size_t target;
  std::size_t leaf = 0;
  bool report_only = false;

  bool hit() { return leaf++ == target; }
  template <class T>
  requires std::is_integral_v<T> || std::is_enum_v<T>
  void operator()(T& v) {
    if (hit()) Change{}(v);
  }
  void operator()(std::string& v) {
    if (hit()) v += "'", report_only = true;
  }
  void operator()(ir::seq::ChainMappings& m) {
    if (hit()) std::swap(m.time, m.t3), report_only = true;
  }
  void operator()(ir::TensorType& t) {
    if (hit()) Change{}(t.dtype), report_only = true;
  }
  void operator()(ir::seq::AddressTable& t) {
    if (!hit()) return;
    if (t.is_affine()) {
      t = ir::seq::AddressTable::affine(t.base() + 1, t.loops());
    } else {
      std::vector<ir::seq::CellAddress> cells = t.cells();
      cells.front().offset += 1;
      cells.front().state = ir::CellState::Live;
      t = ir::seq::AddressTable::explicit_cells(std::move(cells));
    }
  }
  void operator()(std::monostate) {}
  template <class... T>
  void operator()(std::variant<T...>& v) {
    if (hit()) {
      if (v.index() == 0)
        v.template emplace<1>();
      else
        v.template emplace<0>();
      return;
    }
    std::visit(*this, v);
  }
  template <class T>
  void operator()(std::vector<T>& v) {
    if (hit()) {
      v.emplace_back();
      return;
    }
    if (!v.empty()) (*this)(v.front());
  }
  template <class T, std::size_t N>
  void operator()(std::array<T, N>& v) {
    (*this)(v.front());
  }
  template <class T>
  void operator()(std::optional<T>& v) {
    if (hit()) {
      if (v)
        v.reset();
      else
        v.emplace();
      return;
    }
    if (v) (*this)(*v);
  }
  template <class T>
  requires ir::seq::HasFieldList<T>
  void operator()(T& x) { for_each_field(x, *this); }
};

/// Changes every leaf of `base` in turn: the fingerprint must change exactly for the leaves that
/// are not report-only. Returns {leaves that count, report-only leaves}.
template <class Program>
std::pair<std::size_t, std::size_t> check_every_leaf(const Program& base) {
  const std::uint64_t fp = ir::seq::fingerprint(base);
  CHECK(ir::seq::FieldEqual{}(base, Program(base)));
  std::size_t counted = 0, report_only = 0;
  for (std::size_t i = 0;; ++i) {
    Program p = base;
    ChangeLeaf change{i};
    change(p);
    if (change.leaf <= i) break; // every leaf changed once
    INFO("leaf " << i << (change.report_only ? " (report only)" : ""));
    // FieldEqual compares what the fingerprint hashes: equal exactly when the leaf is report-only.
    CHECK(ir::seq::FieldEqual{}(p, base) == change.report_only);
    CHECK(ir::seq::FieldEqual{}(base, p) == change.report_only);
    if (change.report_only) {
      CHECK(ir::seq::fingerprint(p) == fp);
      ++report_only;
    } else {
      CHECK(ir::seq::fingerprint(p) != fp);
      ++counted;
    }
  }
  return {counted, report_only};
}

/// The run program of a spec's first kernel (seeded inputs, as `tujit run`).
ir::seq::RunProgram run_program_of(const char* spec) {
  auto file = ir::load_spec((std::filesystem::path(TUJIT_SOURCE_DIR) / spec).string());
  REQUIRE(file.ok());
  const ir::Kernel& k = file->kernels.front();
  auto ops = ir::seq::find_run_operands(k);
  REQUIRE(ops.ok());
  run::RunRequest req;
  req.engine = run::Engine::Interp;
  auto out = run::run_kernel(*file, testing::checked(k), *ops, req);
  REQUIRE(out.ok());
  return std::move(out->program);
}

} // namespace

TEST_CASE("seq fingerprint: a run program's and a fetch program's are generated from every field",
          "[seq-fingerprint]") {
  SECTION("a chain fed by fetches, its TRF stored from DM (gemm_kernel)") {
    const ir::seq::RunProgram p = run_program_of("specs/derived/gemm_kernel.rs");
    REQUIRE_FALSE(p.fetches.empty());
    const auto [counted, report_only] = check_every_leaf(p);
    CHECK(counted >= 80);
    CHECK(report_only >= 8); // names, mappings, the fetches' tensor types
    for (const ir::seq::FetchProgram& f : p.fetches) {
      const auto [fc, fr] = check_every_leaf(f);
      CHECK(fc >= 20);
      CHECK(fr >= 6); // kernel_name, source, dm, fetched, collected, short_command_refusal
    }
  }
  SECTION("a chain and a Vector Engine pass (gemv_relu)") {
    const ir::seq::RunProgram p = run_program_of("specs/derived/gemv_relu.rs");
    REQUIRE(p.vector.has_value());
    REQUIRE_FALSE(p.vector->steps.empty());
    check_every_leaf(p);
  }
  SECTION("a data movement (store_pass)") {
    const ir::seq::RunProgram p = run_program_of("specs/store_pass.rs");
    REQUIRE(p.is_move());
    check_every_leaf(p);
  }
}

TEST_CASE("seq fingerprint: --ftz-results changes a run program's", "[seq-fingerprint]") {
  ir::seq::RunProgram p = run_program_of("specs/derived/gemm_kernel.rs");
  const std::uint64_t fp = ir::seq::fingerprint(p);
  p.contraction().chain.ftz_results = !p.contraction().chain.ftz_results;
  CHECK(ir::seq::fingerprint(p) != fp);
}

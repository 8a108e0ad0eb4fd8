// Sweep files of `tujit bench --sweep` (harness/bench/sweep_file.h, docs/cli.md §8): parsing, the
// cartesian expansion, placeholder substitution, sharding and the diagnostics of bad files.
#include "harness/bench/sweep_file.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

using namespace tujit;
using namespace tujit::bench;
namespace fs = std::filesystem;

namespace {

const char* kTwoParams = R"(
name = "t"
template_text = "fn k() { let a = {A}; let b = {B}; let c = {C}; }"
[params]
A = [1, 2, 3]
B = [{ label = "x", B = "p", C = "q" }, { B = "r", C = "s" }]
)";

std::string code_of(const Result<SweepSpec>& r) {
  return r ? std::string("ok") : r.diagnostics().front().code;
}

} // namespace

TEST_CASE("a sweep expands to the cartesian product, last parameter fastest", "[bench]") {
  auto spec = parse_sweep(kTwoParams, "t.toml");
  REQUIRE(spec);
  REQUIRE(point_count(*spec) == 6);
  const auto pts = expand_points(*spec);
  REQUIRE(pts.size() == 6);
  // Expected by hand: A ∈ {1,2,3} (slowest), B ∈ {x, r} (labels: explicit, else its own value).
  const std::vector<std::string> names = {"t[A=1,B=x]", "t[A=1,B=r]", "t[A=2,B=x]",
                                          "t[A=2,B=r]", "t[A=3,B=x]", "t[A=3,B=r]"};
  for (std::size_t i = 0; i < pts.size(); ++i) {
    CHECK(pts[i].index == i);
    CHECK(pts[i].name == names[i]);
  }
  // A table value sets several placeholders together; the kernel's own braces stay.
  CHECK(pts[3].spec_text == "fn k() { let a = 2; let b = r; let c = s; }");
  CHECK(pts[0].spec_text == "fn k() { let a = 1; let b = p; let c = q; }");
  CHECK(pts[3].params.at("A") == "2");
  CHECK(pts[3].params.at("B") == "r");
}

TEST_CASE("shards are disjoint and their union is every point", "[bench]") {
  for (std::uint64_t n = 1; n <= 5; ++n) {
    std::set<std::uint64_t> seen;
    for (std::uint64_t i = 0; i < n; ++i) {
      auto shard = parse_shard(std::to_string(i) + "/" + std::to_string(n));
      REQUIRE(shard);
      for (std::uint64_t p = 0; p < 7; ++p)
        if (in_shard(p, *shard)) CHECK(seen.insert(p).second); // no point in two shards
    }
    CHECK(seen.size() == 7);
  }
  for (const char* bad : {"4/4", "1", "a/b", "-1/3", "1/0", "1/2x", "/2"}) {
    INFO(bad);
    auto s = parse_shard(bad);
    REQUIRE(!s);
    CHECK(s.diagnostics().front().code == "E-BENCH-003");
  }
}

TEST_CASE("bad sweep files are diagnosed with their code", "[bench]") {
  CHECK(code_of(parse_sweep("name = \"x", "a.toml")) == "E-BENCH-001");
  // A placeholder the template does not use.
  CHECK(code_of(parse_sweep("template_text = \"{A}\"\n[params]\nA = [1]\nQ = [2]\n", "a.toml")) ==
        "E-BENCH-002");
  // Two templates, no template, no params, an empty range, an array value.
  CHECK(code_of(parse_sweep("template = \"f\"\ntemplate_text = \"{A}\"\n[params]\nA = [1]\n",
                            "a.toml")) == "E-BENCH-002");
  CHECK(code_of(parse_sweep("[params]\nA = [1]\n", "a.toml")) == "E-BENCH-002");
  CHECK(code_of(parse_sweep("template_text = \"{A}\"\n", "a.toml")) == "E-BENCH-002");
  CHECK(code_of(parse_sweep("template_text = \"{A}\"\n[params]\nA = []\n", "a.toml")) ==
        "E-BENCH-002");
  CHECK(code_of(parse_sweep("template_text = \"{A}\"\n[params]\nA = [[1]]\n", "a.toml")) ==
        "E-BENCH-002");
  // One placeholder set by two parameters.
  CHECK(code_of(parse_sweep("template_text = \"{A}{B}\"\n[params]\nA = [1]\nB = [{A = 2, B = 3}]\n",
                            "a.toml")) == "E-BENCH-002");
}

TEST_CASE("a template placeholder no parameter sets is an error naming it", "[bench]") {
  // It used to reach every point's kernel text verbatim: every point invalid, exit 0.
  auto r = parse_sweep("template_text = \"fn k() { {A} {TYPO} }\"\n[params]\nA = [1]\n", "a.toml");
  REQUIRE_FALSE(r.ok());
  CHECK(r.diagnostics().front().code == "E-BENCH-002");
  CHECK(r.diagnostics().front().message.find("`{TYPO}`") != std::string::npos);
  // The kernel's own braces, spaced or holding code, are not placeholders.
  CHECK(code_of(parse_sweep("template_text = \"fn k() { {A} }\"\n[params]\nA = [1]\n", "a.toml")) ==
        "ok");
}

TEST_CASE("the shipped bench/sweeps files parse and expand", "[bench]") {
  const fs::path dir = fs::path(TUJIT_SOURCE_DIR) / "bench" / "sweeps";
  // Point counts: the product of the range lengths of each file.
  const std::vector<std::pair<std::string, std::uint64_t>> files = {
      {"bmatmul_m_in_time.toml", 3 * 2 * 2},
      {"bmatmul_v_in_time.toml", 3 * 2 * 2},
      {"bmatmul_k_in_time.toml", 3 * 2},
      {"bmatmul_lanes.toml", 4 * 2},
      {"bmatmul_packsize.toml", 2 * 4}};
  for (const auto& [name, count] : files) {
    INFO(name);
    auto spec = load_sweep((dir / name).string());
    REQUIRE(spec);
    CHECK(point_count(*spec) == count);
    for (const auto& p : expand_points(*spec)) {
      CHECK(p.spec_text.find("fn bmatmul_") != std::string::npos);
      for (const auto& param : spec->params) // every placeholder is replaced
        for (const auto& c : param.choices)
          for (const auto& [ph, v] : c.values)
            CHECK(p.spec_text.find("{" + ph + "}") == std::string::npos);
    }
  }
}

// `tujit check PATH…` in CI (docs/ci.md): many files per call, `// tujit: expect` comments that
// make expected refusals pass, the paths a call expands to, and cycle budgets.
#include "harness/ci/directives.h"
#include "harness/ci/spec_paths.h"
#include "harness/cli/command.h"
#include "harness/report/error_catalog.h"
#include "ir/lang/kernel.h"
#include "tests/support/ci_support.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <regex>

using namespace tujit;
using namespace tujit::cli;
using tujit::testing::TempDir;
using tujit::testing::two_kernels;

namespace {

namespace fs = std::filesystem;
using Run = tujit::testing::CliRun;
const auto spec = &tujit::testing::source_path;
const tujit::testing::TujitCommand check{"check"};
const tujit::testing::TujitCommand cycles{"cycles"};
const auto text_of = &tujit::testing::read_text_file;

/// The 1-based line of the first `needle` in `text`.
std::size_t line_of(const std::string& text, const std::string& needle) {
  return tujit::testing::line_col_of(text, needle).first;
}

bool has_line(const std::string& out, const std::string& line) {
  return ("\n" + out).find("\n" + line + "\n") != std::string::npos;
}

} // namespace

TEST_CASE("tujit check specs/: every kernel, the invalid ones refused as expected", "[ci-check]") {
  Run r = check({spec("specs")});
  INFO(r.out);
  REQUIRE(r.status == kExitOk);
  const std::size_t kernels = tujit::testing::count_kernels(spec("specs"));
  const std::size_t invalid = tujit::testing::count_kernels(spec("specs/invalid"));
  REQUIRE(invalid >= 30);
  // A whole kernel of the reference that tujit does not simulate yet carries `// tujit: expect`
  // with the refusal's code (specs/README.md): refused as expected, and listed as such.
  std::size_t gaps = 0;
  for (const auto& e : fs::directory_iterator(spec("specs/kernels")))
    if (text_of(e.path()).find("\n// tujit: expect E-") != std::string::npos) ++gaps;
  CHECK(has_line(r.out, fmt::format("{} kernels: {} ok, {} refused as expected, 0 refused", kernels,
                                    kernels - invalid - gaps, invalid + gaps)));
  // Each invalid file: one line, refused with the code its comment names.
  for (const auto& e : fs::directory_iterator(spec("specs/invalid"))) {
    const std::string text = text_of(e.path());
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex(R"(// tujit: expect (E-[A-Z]+-[0-9]{3}))")));
    INFO(e.path());
    const std::string prefix = e.path().string() + ": ";
    const auto at = r.out.find(prefix);
    REQUIRE(at != std::string::npos);
    const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
    CHECK(line.ends_with(": refused as expected (" + m[1].str() + ")"));
  }
  // The diagnostics of the refusals are still shown, with file:line:col.
  const std::string f = spec("specs/invalid/spec12_20_padding_not_preserved.rs");
  CHECK(r.err.find(f + ":" + std::to_string(line_of(text_of(f), "contract_time::<")) + ":") !=
        std::string::npos);
}

TEST_CASE("every invalid spec expects the code docs/errors.md gives the rule it names",
          "[ci-check]") {
  // The first line names the reference's rule (`ToTrfError::LaneSize`); docs/errors.md lists the
  // code of each rule in its `rule` column. Front-end refusals name their code in the doc row.
  const auto catalog = report::parse_error_catalog(text_of(spec("docs/errors.md")));
  const std::map<std::string, std::string> family = {
      {"ToTrfError", "E-TRF-"},           {"ToVrfError", "E-VRF-"},
      {"StreamAdapterError", "E-OUTER-"}, {"ContractPacketError", "E-PACKET-"},
      {"ContractTimeError", "E-TIME-"},   {"ContractLaneError", "E-LANE-"}};
  std::size_t checked = 0;
  for (const auto& e : fs::directory_iterator(spec("specs/invalid"))) {
    const std::string text = text_of(e.path());
    INFO(e.path());
    std::smatch want, rule;
    REQUIRE(std::regex_search(text, want, std::regex(R"(// tujit: expect (E-[A-Z]+-[0-9]{3}))")));
    const auto entry = catalog.find(want[1]);
    REQUIRE(entry != catalog.end());
    const std::string first = text.substr(0, text.find('\n'));
    if (std::regex_search(first, rule, std::regex(R"(expect: (\w+)::(\w+))"))) {
      CHECK(entry->second.rule == rule[2].str());
      CHECK(want[1].str().starts_with(family.at(rule[1])));
    } else if (std::regex_search(first, rule, std::regex(R"(expect: (Trf\w+) \[PROP\])"))) {
      CHECK(entry->second.rule == rule[1].str());
    } else if (std::regex_search(first, rule,
                                 std::regex(R"(expect: hardware (\w+) (E-HW-[0-9]{3}))"))) {
      // A parameter's hardware limit names its rule and code.
      CHECK(entry->second.rule == rule[1].str());
      CHECK(want[1].str() == rule[2].str());
    } else {
      // Front-end refusals: the doc row names the file (spec12_26*) or the operation.
      const std::string stem = e.path().stem().string();
      CHECK((entry->second.example.find(stem.substr(0, 7)) != std::string::npos ||
             entry->second.example.find("fetch_zero_point_sub") != std::string::npos));
    }
    ++checked;
  }
  CHECK(checked >= 30);
}

TEST_CASE("tujit check: expectations that fail, and kernels of one file apart", "[ci-check]") {
  TempDir dir("ci_check_expect");
  SECTION("each kernel refused as its own comment says") {
    Run r = check({dir.file("k.rs", two_kernels("", "// tujit: expect E-TYPE-008"))});
    INFO(r.out << r.err);
    CHECK(r.status == kExitOk);
    CHECK(r.out.find(": first: ok (to_vrf)\n") != std::string::npos);
    CHECK(r.out.find(": second: refused as expected (E-TYPE-008)\n") != std::string::npos);
    CHECK(has_line(r.out, "2 kernels: 1 ok, 1 refused as expected, 0 refused"));
  }
  SECTION("an accepted kernel that should be refused; a refused one nobody expects") {
    const std::string text = two_kernels("// tujit: expect E-TIME-004 (padding)", "");
    const std::string f = dir.file("k.rs", text);
    Run r = check({f});
    INFO(r.out << r.err);
    CHECK(r.status == kExitUserError);
    CHECK(r.out.find(": first: accepted, but expected E-TIME-004\n") != std::string::npos);
    CHECK(r.out.find(": second: refused (E-TYPE-008)\n") != std::string::npos);
    CHECK(has_line(r.out, "2 kernels: 0 ok, 1 refused, 1 not as expected"));
    // E-CHECK-001 at the comment: line 2, column 1.
    CHECK(r.err.find(f + ":2:1: error[E-CHECK-001]: kernel `first` is accepted") !=
          std::string::npos);
  }
  SECTION("refused with another code") {
    std::string text = text_of(spec("specs/invalid/spec12_20_padding_not_preserved.rs"));
    text = std::regex_replace(text, std::regex("tujit: expect E-TIME-004"),
                              "tujit: expect E-TIME-001, E-TIME-004");
    const std::string f = dir.file("other.rs", text);
    Run r = check({f});
    INFO(r.out << r.err);
    CHECK(r.status == kExitUserError);
    CHECK(r.out.find("refused with E-TIME-004, but expected E-TIME-001, E-TIME-004") !=
          std::string::npos);
    CHECK(r.err.find(f + ":2:1: error[E-CHECK-002]") != std::string::npos);
    CHECK(r.err.find("note: expected but not reported: E-TIME-001") != std::string::npos);
  }
  SECTION("comments tujit cannot use") {
    for (const char* bad : {"// tujit: expcet E-TIME-004", "// tujit: expect E-TIME-04",
                            "// tujit: expect E-TIME-999", "// tujit: expect",
                            "// tujit: max-cycles many", "// tujit: max-cycles 0"}) {
      INFO(bad);
      const std::string f = dir.file("bad.rs", two_kernels(bad, ""));
      Run r = check({f, "--json"});
      CHECK(r.status == kExitUserError);
      const auto doc = r.json();
      CHECK(doc["kernels"][0]["passed"] == false);
      bool found = false;
      for (const auto& d : doc["diagnostics"])
        found = found || (d["code"] == "E-CHECK-003" && d["line"] == 2 && d["kernel"] == "first");
      CHECK(found);
    }
  }
  SECTION("a comment after the last kernel applies to none") {
    const std::string text = two_kernels("", "") + "// tujit: expect E-TYPE-008\n";
    Run r = check({dir.file("late.rs", text)});
    CHECK(r.status == kExitUserError);
    // Formatted: `":" + std::string` trips g++ 12's false -Wstringop-overflow at -O3.
    CHECK(r.err.find(fmt::format(
              ":{}:1: error[E-CHECK-003]: this `// tujit:` comment follows the last kernel",
              line_of(text, "// tujit: expect"))) != std::string::npos);
  }
}

TEST_CASE("tujit check --json: status, expected codes and the summary per kernel", "[ci-check]") {
  Run r = check({spec("specs/matmul.rs"), spec("specs/invalid/store.rs"), "--json"});
  REQUIRE(r.status == kExitOk);
  const auto doc = r.json();
  REQUIRE(doc["kernels"].size() == 2);
  CHECK(doc["kernels"][0]["status"] == "ok");
  CHECK(doc["kernels"][0]["stages"].size() == 4);
  CHECK(doc["kernels"][1]["status"] == "refused_as_expected");
  CHECK(doc["kernels"][1]["ok"] == false);
  CHECK(doc["kernels"][1]["passed"] == true);
  CHECK(doc["kernels"][1]["expected"] == nlohmann::json::array({"E-VRF-002"}));
  REQUIRE(doc["diagnostics"].size() == 1);
  CHECK(doc["diagnostics"][0]["code"] == "E-VRF-002");
  CHECK(doc["diagnostics"][0]["expected"] == true);
  CHECK(doc["summary"]["kernels"] == 2);
  CHECK(doc["summary"]["refused_as_expected"] == 1);
  CHECK(doc["summary"]["failed"] == 0);
  CHECK(doc["files"].size() == 2);
}

TEST_CASE("tujit check PATH: directories, globs, and paths that name nothing", "[ci-check]") {
  TempDir dir("ci_check_paths");
  const std::string ok = text_of(spec("specs/matmul.rs"));
  fs::create_directories(dir.path / "a" / "b");
  fs::create_directories(dir.path / ".hidden");
  fs::create_directories(dir.path / "empty");
  const std::string top = dir.file("top.rs", ok), nested = dir.file("a/b/deep.rs", ok),
                    mid = dir.file("a/mid.rs", ok);
  dir.file(".hidden/skip.rs", ok);
  dir.file("a/notes.txt", "not a kernel");
  const std::string root = dir.path.string();

  auto expand = [](std::vector<std::string> paths) { return ci::expand_spec_paths(paths); };
  auto all = expand({root});
  REQUIRE(all.ok());
  CHECK(*all == std::vector<std::string>{nested, mid, top}); // path order; hidden, .txt skipped
  auto star = expand({root + "/*.rs"});
  REQUIRE(star.ok());
  CHECK(*star == std::vector<std::string>{top});
  auto deep = expand({root + "/**/*.rs"});
  REQUIRE(deep.ok());
  CHECK(*deep == std::vector<std::string>{nested, mid, top});
  auto one = expand({root + "/a/?/d[a-e]ep.rs", top, top});
  REQUIRE(one.ok());
  CHECK(*one == std::vector<std::string>{nested, top}); // each file once
  for (const std::string& nothing :
       {root + "/missing.rs", root + "/empty", root + "/*.txt", root + "/z*/x.rs"}) {
    INFO(nothing);
    auto e = expand({nothing});
    REQUIRE_FALSE(e.ok());
    CHECK(e.diagnostics()[0].code == "E-CHECK-004");
    Run r = check({top, nothing});
    CHECK(r.status == kExitUsage);
    CHECK(r.err.find("E-CHECK-004") != std::string::npos);
  }
  Run r = check({root});
  CHECK(r.status == kExitOk);
  CHECK(has_line(r.out, "3 kernels: 3 ok, 0 refused"));
  // --kernel picks a kernel of one file only.
  CHECK(check({top, mid, "--kernel", "matmul"}).status == kExitUsage);
}

TEST_CASE("directives belong to the kernel they precede or lie in", "[ci-check]") {
  const std::string text =
      "// tujit: max-cycles 100\n" + two_kernels("", "") + "\n// tujit: expect E-TYPE-008\n";
  // The last comment follows both kernels: it is refused; the first belongs to `first`.
  const auto a = ir::analyze(SourceBuffer("d.rs", text));
  REQUIRE(a.file.kernels.size() == 2);
  const auto d = ci::read_directives(a.file.source, a.file.kernels);
  REQUIRE(d.kernels.size() == 2);
  CHECK(d.kernels[0].max_cycles == std::optional<std::uint64_t>(100));
  CHECK_FALSE(d.kernels[1].max_cycles.has_value());
  CHECK(d.kernels[1].expect.empty());
  REQUIRE(d.diagnostics.size() == 1);
  CHECK(d.diagnostics[0].code == "E-CHECK-003");

  const std::string inside = two_kernels("", "");
  std::string text2 = inside;
  // A comment inside the second kernel's body belongs to it.
  text2.insert(text2.rfind("x.to_vfr()"), "\n// tujit: expect E-TYPE-008, E-TYPE-008\n");
  const auto b = ir::analyze(SourceBuffer("e.rs", text2));
  const auto e = ci::read_directives(b.file.source, b.file.kernels);
  CHECK(e.kernels[0].expect.empty());
  CHECK(e.kernels[1].expect == std::vector<std::string>{"E-TYPE-008"});
  CHECK(e.diagnostics.empty());
}

TEST_CASE("cycle budgets: --max-cycles and the max-cycles comment", "[ci-check]") {
  const std::string file = spec("specs/bmatmul_m_in_time.rs");
  Run model = cycles({file, "--json"});
  REQUIRE(model.status == kExitOk);
  const auto total = model.json()["analytic"]["total"].get<std::uint64_t>();
  REQUIRE(total > 1);
  // The budget is a ceiling: exactly the model's cycles pass, one fewer fails.
  Run within = cycles({file, "--max-cycles", std::to_string(total), "--json"});
  CHECK(within.status == kExitOk);
  CHECK(within.json()["within_budget"] == true);
  Run over = cycles({file, "--max-cycles", std::to_string(total - 1)});
  CHECK(over.status == kExitUserError);
  CHECK(over.err.find(fmt::format("error[E-CYCLES-003]: kernel `bmatmul_m_in_time` needs {} "
                                  "cycles (analytic model), over its budget of {}",
                                  total, total - 1)) != std::string::npos);
  CHECK(over.out.find(fmt::format("budget: {} of {} cycles (OVER)", total, total - 1)) !=
        std::string::npos);
  CHECK(cycles({file, "--max-cycles", "0"}).status == kExitUsage);

  TempDir dir("ci_budget");
  // The spec's own budget comment replaced by one of N cycles.
  const std::string text =
      std::regex_replace(text_of(file), std::regex("// tujit: max-cycles [^\n]*\n"), "");
  const std::string fn = "fn bmatmul_m_in_time";
  auto with_budget = [&](std::uint64_t n) {
    std::string t = text;
    t.insert(t.find(fn), fmt::format("// tujit: max-cycles {}\n", n));
    return dir.file("budget.rs", t);
  };
  const std::size_t comment_line = line_of(text, fn);
  {
    const std::string f = with_budget(total - 1);
    Run c = check({f});
    CHECK(c.status == kExitUserError);
    CHECK(c.out.find(fmt::format(": bmatmul_m_in_time: over its cycle budget ({} > {} cycles)",
                                 total, total - 1)) != std::string::npos);
    CHECK(has_line(c.out, "1 kernel: 0 ok, 0 refused, 1 over budget"));
    CHECK(c.err.find(f + ":" + std::to_string(comment_line) + ":1: error[E-CYCLES-003]") !=
          std::string::npos);
    Run y = cycles({f}); // the comment holds for `tujit cycles` too
    CHECK(y.status == kExitUserError);
    CHECK(cycles({f, "--max-cycles", std::to_string(total)}).status == kExitOk); // flag wins
  }
  {
    const auto doc = check({with_budget(total), "--json"}).json();
    CHECK(doc["kernels"][0]["budget"]["max_cycles"] == total);
    CHECK(doc["kernels"][0]["budget"]["analytic_cycles"] == total);
    Run c = check({with_budget(total)});
    CHECK(c.status == kExitOk);
    CHECK(c.out.find(fmt::format(", {} cycles within budget {}", total, total)) !=
          std::string::npos);
  }
  {
    // A budget on a kernel with no contraction chain: its store is timed (8 flits, one per
    // cycle, docs/cycle-model.md §7).
    std::string t = text_of(spec("specs/store_vrf.rs"));
    t.insert(t.find("fn store_vrf"), "// tujit: max-cycles 10\n");
    Run c = check({dir.file("store.rs", t)});
    CHECK(c.status == kExitOk);
    CHECK(c.out.find(", 8 cycles within budget 10") != std::string::npos);
  }
  {
    // A budget on a kernel with nothing to time: a statement that ends at the fetch.
    std::string t = text_of(spec("tests/corpus/forms/fetch_only.rs"));
    t.insert(t.find("fn fetch_only"), "// tujit: max-cycles 10\n");
    Run c = check({dir.file("fetch_only.rs", t)});
    CHECK(c.status == kExitUserError);
    CHECK(c.err.find("error[E-CYCLES-001]") != std::string::npos);
  }
}

TEST_CASE("tujit check: a spec over the size limit is one refused test case", "[ci-check]") {
  TempDir dir("ci_check_big");
  dir.file("ok.rs", text_of(spec("specs/matmul.rs")));
  const fs::path big = dir.path / "big.rs";
  { std::ofstream(big) << "axes![A = 8];\n"; }
  fs::resize_file(big, std::uint64_t{1} << 30); // sparse: refused from its size, never read
  Run r = check({dir.path.string()});
  CHECK(r.status == kExitUserError);
  CHECK(r.out.find(big.string() + ": big.rs: refused (E-LIMIT-001)\n") != std::string::npos);
  CHECK(has_line(r.out, "2 kernels: 1 ok, 1 refused"));
}

// The CI report formats (docs/ci.md) checked by their real consumers: JUnit XML against a schema
// with xmllint (tests/report/junit.xsd), SARIF 2.1.0 against the OASIS JSON schema
// (tests/report/tools: @microsoft/jest-sarif's schema, ajv), GitHub workflow commands against
// what the Actions toolkit (@actions/core) writes for the same annotations. Each test also reads
// the report back for specific test cases, results and file:line:col positions.
#include "harness/cli/command.h"
#include "harness/report/error_catalog.h"
#include "harness/report/report.h"
#include "tests/support/ci_support.h"
#include "tests/support/cli_capture.h"
#include "tests/support/external_tool.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <set>

using namespace tujit;
using namespace tujit::cli;
using tujit::testing::run_tool;
using tujit::testing::shell_quote;
using tujit::testing::TempDir;
using tujit::testing::two_kernels;

namespace {

using Run = tujit::testing::CliRun;
const auto spec = &tujit::testing::source_path;
const tujit::testing::TujitCommand check{"check"};
const tujit::testing::TujitCommand cycles{"cycles"};

/// `text` written to the file NAME of `dir`, which must be a valid JUnit report; its path.
std::string junit_file(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string xml = dir.file(name, text);
  auto valid = tujit::testing::check_junit_schema(xml);
  INFO(valid.output);
  REQUIRE(valid.status == 0);
  return xml;
}

/// An XPath 1.0 expression over `file`, evaluated by xmllint.
std::string xpath(const std::string& file, const std::string& expr) {
  auto r = tujit::testing::xpath(file, expr);
  INFO(r.output);
  REQUIRE(r.status == 0);
  return r.output;
}

tujit::testing::ToolRun validate_sarif(const std::string& file) {
  return run_tool(tujit::testing::report_tool("validate_sarif.mjs") + " " + shell_quote(file));
}

/// A folder with one accepted kernel that should have been refused (line 2: its comment) and one
/// refused kernel nobody expects (`to_vfr`).
struct FailingSpec {
  TempDir dir{"ci_formats"};
  std::string text = two_kernels("// tujit: expect E-TIME-004", "");
  std::string file = dir.file("k.rs", text);
};

} // namespace

TEST_CASE(
    "check --format junit: schema-valid, one testcase per kernel, failures with file:line:col",
    "[ci-report]") {
  TempDir out("ci_junit");
  SECTION("specs/: every kernel passes, the invalid ones as expected") {
    Run r = check({spec("specs"), "--format", "junit"});
    REQUIRE(r.status == kExitOk);
    const std::string xml = junit_file(out, "specs.xml", r.out);
    const std::size_t kernels = tujit::testing::count_kernels(spec("specs"));
    CHECK(xpath(xml, "count(//testcase)") == std::to_string(kernels));
    CHECK(xpath(xml, "string(/testsuites/@tests)") == std::to_string(kernels));
    CHECK(xpath(xml, "count(//failure) + count(//error)") == "0");
    const std::string f = spec("specs/invalid/spec12_20_padding_not_preserved.rs");
    CHECK(xpath(xml, "string(//testcase[@classname='" + f + "']/@name)") ==
          "padding_not_preserved");
    const std::string out_text =
        xpath(xml, "string(//testcase[@classname='" + f + "']/system-out)");
    CHECK(out_text.find("refused as expected (E-TIME-004)") != std::string::npos);
    // The diagnostic points at OutTime, the type argument of contract_time.
    CHECK(out_text.find(tujit::testing::position_of(f, "m![A, B]>()") + ": error[E-TIME-004]") !=
          std::string::npos);
    // One suite per file.
    std::size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(spec("specs")))
      files += e.path().extension() == ".rs";
    CHECK(xpath(xml, "count(//testsuite)") == std::to_string(files));
  }
  SECTION("failing kernels") {
    FailingSpec s;
    Run r = check({s.file, "--format", "junit"});
    CHECK(r.status == kExitUserError);
    const std::string xml = junit_file(out, "fail.xml", r.out);
    CHECK(xpath(xml, "string(/testsuites/@failures)") == "2");
    CHECK(xpath(xml, "string(//testcase[@name='first']/failure/@message)")
              .starts_with(s.file + ":2:1: error[E-CHECK-001]: kernel `first` is accepted"));
    CHECK(xpath(xml, "string(//testcase[@name='first']/failure/@type)") == "E-CHECK-001");
    CHECK(xpath(xml, "string(//testcase[@name='second']/failure/@message)")
              .starts_with(tujit::testing::position_of(s.file, "to_vfr") + ": error[E-TYPE-008]"));
    CHECK(xpath(xml, "string(//testcase[@name='second']/@line)") ==
          std::to_string(tujit::testing::line_col_of(s.text, "fn second").first));
  }
  SECTION("any bytes in a spec still make a well-formed report") {
    // The malformed corpus: invalid UTF-8, stray control characters, unterminated literals.
    Run r = check({spec("tests/corpus/malformed"), "--format", "junit"});
    CHECK(r.status == kExitUserError);
    const std::string xml = junit_file(out, "malformed.xml", r.out);
    CHECK(xpath(xml, "count(//testcase)") ==
          std::to_string(tujit::testing::count_kernels(spec("tests/corpus/malformed"))));
  }
  SECTION("the schema check can fail") {
    Run r = check({spec("specs/matmul.rs"), "--format", "junit"});
    std::string broken = r.out;
    broken.replace(broken.find(" classname="), 11, " class=");
    CHECK(tujit::testing::check_junit_schema(out.file("broken.xml", broken)).status != 0);
  }
}

TEST_CASE(
    "check --format sarif: valid SARIF 2.1.0, rules from docs/errors.md, one result per finding",
    "[ci-report]") {
  FailingSpec s;
  const std::string expected = spec("specs/invalid/spec12_20_padding_not_preserved.rs");
  Run r = check({s.file, expected, "--format", "sarif"});
  CHECK(r.status == kExitUserError);
  TempDir out("ci_sarif");
  const std::string path = out.file("check.sarif", r.out);
  auto valid = validate_sarif(path);
  INFO(valid.output);
  REQUIRE(valid.status == 0);

  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["version"] == "2.1.0");
  const auto& run = doc["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "tujit");
  std::map<std::string, nlohmann::json> rules;
  for (const auto& rule : run["tool"]["driver"]["rules"]) rules[rule["id"]] = rule;
  CHECK(rules.size() == 3);
  // Rule help is docs/errors.md's row (read here with the catalog parser from the file itself).
  const auto docs =
      report::parse_error_catalog(tujit::testing::read_text_file(spec("docs/errors.md")));
  const auto& row = docs.at("E-TIME-004");
  REQUIRE(rules.count("E-TIME-004"));
  CHECK(rules["E-TIME-004"]["name"] == "PaddingNotPreserved");
  CHECK(rules["E-TIME-004"]["shortDescription"]["text"] == row.meaning);
  CHECK(rules["E-TIME-004"]["help"]["text"].get<std::string>().find(row.fix) != std::string::npos);
  CHECK(rules.count("E-CHECK-001") == 1);
  CHECK(rules.count("E-TYPE-008") == 1);

  std::map<std::string, nlohmann::json> results;
  for (const auto& res : run["results"]) results[res["ruleId"]] = res;
  REQUIRE(run["results"].size() == 3);
  // The expected refusal is reported, suppressed in source; the others are not.
  CHECK(results["E-TIME-004"]["suppressions"][0]["kind"] == "inSource");
  CHECK_FALSE(results["E-TYPE-008"].contains("suppressions"));
  const auto& region = results["E-TYPE-008"]["locations"][0]["physicalLocation"]["region"];
  const auto [line, col] = tujit::testing::line_col_of(s.text, "to_vfr");
  CHECK(region["startLine"] == line);
  CHECK(region["startColumn"] == col);
  CHECK(results["E-TYPE-008"]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "file://" + s.file);
  CHECK(results["E-CHECK-001"]["locations"][0]["physicalLocation"]["region"]["startLine"] == 2);
  CHECK(results["E-TYPE-008"]["ruleIndex"].get<std::size_t>() <
        run["tool"]["driver"]["rules"].size());

  // The validator rejects what is not SARIF.
  auto broken = doc;
  broken["runs"][0]["results"][0]["level"] = "fatal";
  CHECK(validate_sarif(out.file("broken.sarif", broken.dump())).status != 0);
}

TEST_CASE("every rule tujit can report has its help in docs/errors.md", "[ci-report]") {
  // The catalog compiled into tujit is the document in the tree, parsed into entries with a
  // meaning and a fix for every code the sources use (errors_doc_test checks that each is listed).
  const auto& built_in = report::error_catalog();
  const auto from_file =
      report::parse_error_catalog(tujit::testing::read_text_file(spec("docs/errors.md")));
  REQUIRE(built_in.size() == from_file.size());
  REQUIRE(built_in.size() >= 150);
  for (const auto& [code, e] : built_in) {
    INFO(code);
    CHECK(!e.meaning.empty());
    CHECK(!e.fix.empty());
    CHECK(from_file.at(code).fix == e.fix);
  }
  // A row whose cells hold `\|` keeps it inside the cell.
  const auto pipes = report::parse_error_catalog(
      "## S\n| code | rule | meaning | minimal failing example | fix |\n|---|---|---|---|---|\n"
      "| E-X-001 | R | `\\|P2\\| > 32` | ex | fix it |\n");
  REQUIRE(pipes.count("E-X-001"));
  CHECK(pipes.at("E-X-001").meaning == "`|P2| > 32`");
  CHECK(pipes.at("E-X-001").rule == "R");
  CHECK(pipes.at("E-X-001").fix == "fix it");
  CHECK(pipes.at("E-X-001").section == "S");
}

TEST_CASE("check --format github: the workflow commands the Actions toolkit writes",
          "[ci-report]") {
  FailingSpec s;
  const std::string expected = spec("specs/invalid/store.rs");
  const std::vector<std::string> paths = {s.file, expected};
  Run gh = check({s.file, expected, "--format", "github"});
  CHECK(gh.status == kExitUserError);
  const auto js = check({s.file, expected, "--json"}).json();
  // The annotations: every finding but the expected refusal, as the JSON report lists them.
  nlohmann::json annotations = nlohmann::json::array();
  for (const auto& d : js["diagnostics"]) {
    if (d["expected"] == true) continue;
    std::string message = d["message"];
    // Appended: `"\n" + std::string` trips g++ 12's false -Wstringop-overflow at -O3.
    for (const auto& n : d["notes"]) message.append("\n").append(n.get<std::string>());
    annotations.push_back({{"level", d["severity"] == "error" ? "error" : "warning"},
                           {"message", message},
                           {"title", d["code"]},
                           {"file", d["file"]},
                           {"line", d["line"]},
                           {"col", d["col"]}});
  }
  REQUIRE(annotations.size() == 2);
  TempDir out("ci_github");
  auto toolkit = run_tool(tujit::testing::report_tool("github_commands.mjs") + " " +
                          shell_quote(out.file("a.json", annotations.dump())));
  INFO(toolkit.output);
  REQUIRE(toolkit.status == 0);
  std::string commands;
  std::istringstream lines(gh.out);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with("::")) commands += line + "\n";
  CHECK(commands == toolkit.output);
  // Independently of the JSON: the unknown method's annotation at its position in the file.
  const auto [line, col] = tujit::testing::line_col_of(s.text, "to_vfr");
  CHECK(gh.out.find("::error title=E-TYPE-008,file=" + s.file + ",line=" + std::to_string(line) +
                    ",col=" + std::to_string(col) + "::unknown method `to_vfr`") !=
        std::string::npos);
  // Plain lines: each kernel and the summary; no annotation for the expected refusal.
  CHECK(gh.out.find(expected + ": store: refused as expected (E-VRF-002)\n") != std::string::npos);
  CHECK(gh.out.find("title=E-VRF-002") == std::string::npos);
  CHECK(gh.out.find("3 kernels: 0 ok, 1 refused as expected, 1 refused, 1 not as expected\n") !=
        std::string::npos);
}

TEST_CASE("cycles --format: a budget overrun in each CI format", "[ci-report]") {
  const std::string file = spec("specs/bmatmul_m_in_time.rs");
  TempDir out("ci_cycles_formats");
  Run junit = cycles({file, "--max-cycles", "1", "--format", "junit"});
  CHECK(junit.status == kExitUserError);
  const std::string xml = junit_file(out, "c.xml", junit.out);
  CHECK(xpath(xml, "string(//testcase/@name)") == "bmatmul_m_in_time");
  CHECK(xpath(xml, "string(//failure/@message)")
            .starts_with(tujit::testing::position_of(file, "bmatmul_m_in_time<") +
                         ": error[E-CYCLES-003]"));
  CHECK(xpath(xml, "string(//system-out)").find("budget: ") != std::string::npos);
  // The usual text goes to stderr, stdout holds the document only.
  CHECK(junit.err.find("kernel bmatmul_m_in_time") != std::string::npos);

  Run sarif = cycles({file, "--max-cycles", "1", "--format", "sarif"});
  REQUIRE(validate_sarif(out.file("c.sarif", sarif.out)).status == 0);
  CHECK(nlohmann::json::parse(sarif.out)["runs"][0]["results"][0]["ruleId"] == "E-CYCLES-003");

  Run ok = cycles({file, "--format", "github"});
  CHECK(ok.status == kExitOk);
  CHECK(ok.out == file + ": bmatmul_m_in_time: ok\n");
  CHECK(cycles({file, "--format", "yaml"}).status == kExitUsage);
  CHECK(cycles({file, "--format", "junit", "--json"}).status == kExitUsage);
}

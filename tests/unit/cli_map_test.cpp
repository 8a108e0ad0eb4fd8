// `tujit map` in process (docs/cli.md §9): the book example, JSON shape, carets under the offending
// column of an argument, exit statuses.
#include "harness/cli/command.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

using namespace tujit;

namespace {

using Run = testing::CliRun;

const testing::TujitCommand tujit_map{"map"};

// The column (0-based, within the quoted argument line) of the first caret in rendered output.
std::size_t caret_column(const std::string& rendered) {
  std::istringstream in(rendered);
  std::string line;
  while (std::getline(in, line)) {
    auto p = line.find('^');
    if (p != std::string::npos && line.find_first_not_of(" ^") == std::string::npos)
      return p - 2; // render() indents source and caret lines by two spaces
  }
  return std::string::npos;
}

} // namespace

TEST_CASE("tujit map: the book example in JSON", "[cli-map]") {
  Run r = tujit_map({"--axes", "A=8,B=512", "B / 64, B % 32, B / 32 % 2", "--at", "67", "--at", "0",
                     "--at", "512", "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["size"] == 512);
  CHECK(j["normal_form"].is_string());
  CHECK(j["expression"] == "B / 64, B % 32, B / 32 % 2");
  REQUIRE(j["axes"].size() == 2);
  CHECK(j["axes"][1]["name"] == "B");
  CHECK(j["axes"][1]["size"] == 512);
  REQUIRE(j["cells"].size() == 3);
  CHECK(j["cells"][0]["pos"] == 67);
  CHECK(j["cells"][0]["kind"] == "index");
  CHECK(j["cells"][0]["index"] == nlohmann::json({{"B", 97}}));
  CHECK(j["cells"][1]["kind"] == "index");
  CHECK(j["cells"][1]["index"] == nlohmann::json({{"B", 0}}));
  CHECK(j["cells"][2]["pos"] == 512);
  CHECK(j["cells"][2]["kind"] == "out_of_bounds");
  CHECK(r.err.empty());
}

TEST_CASE("tujit map: normal_form is the rendered canonical form (docs/mapping.md §4.6)",
          "[cli-map]") {
  auto normal_form = [](std::string axes, std::string m) {
    Run r = tujit_map({"--axes", axes, m, "--json"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(r.out)["normal_form"].get<std::string>();
  };
  CHECK(normal_form("B=512", "B / 64, B % 64") == "B");   // §3 / §5 stride-modulo identity
  CHECK(normal_form("A=8", "A # 16 / 4") == "A / 4 # 4"); // §4.6 example
  CHECK(normal_form("R=5,A=5", "R # 16 / 4, A") == "[R # 8] / 4 # 4, A"); // §4.6 example
  CHECK(normal_form("", "1") == "1");
}

TEST_CASE("tujit map: padding cells, kinds and overshoot", "[cli-map]") {
  Run r = tujit_map(
      {"--json", "--axes", "C=13, D=61", "C, D #{0} 64", "--at", "60", "--at", "61", "--at", "64"});
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["size"] == 13 * 64);
  CHECK(j["cells"][0]["index"] == nlohmann::json({{"C", 0}, {"D", 60}}));
  CHECK(j["cells"][1]["kind"] == "padding");
  CHECK(j["cells"][1]["padding"] == "zero");
  CHECK(j["cells"][2]["index"] == nlohmann::json({{"C", 1}, {"D", 0}}));
  r = tujit_map({"--json", "1 #{!} 4 # 8", "--at", "3", "--at", "5"});
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j["cells"][0]["padding"] == "bottom");
  CHECK(j["cells"][1]["padding"] == "top");
  CHECK(j["axes"].empty());
  r = tujit_map({"--json", "--axes", "A=4", "A, A", "--at", "15"});
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j["cells"][0]["index"] == nlohmann::json({{"A", 6}}));
  CHECK(j["cells"][0]["overshoot"] == "A");
}

TEST_CASE("tujit map: human-readable output", "[cli-map]") {
  Run r = tujit_map(
      {"--axes", "A=8,B=512", "B / 64, B % 32, B / 32 % 2", "--at", "67", "--at", "9999"});
  REQUIRE(r.status == 0);
  CHECK(r.out.find("size:        512\n") != std::string::npos);
  CHECK(r.out.find("normal form: ") != std::string::npos);
  CHECK(r.out.find("at 67: {B: 97}\n") != std::string::npos);
  CHECK(r.out.find("at 9999: out of bounds (SIZE 512)\n") != std::string::npos);
  r = tujit_map({"--axes", "R=5", "R # 16 / 4", "--at=2"});
  REQUIRE(r.status == 0);
  CHECK(r.out.find("at 2: padding (top)\n") != std::string::npos);
}

TEST_CASE("tujit map: a bad mapping exits 1 with the caret under its column", "[cli-map]") {
  Run r = tujit_map({"--axes", "A=8,B=512", "B / 64, B % 30"});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err.find("E-TYPE-303") != std::string::npos);
  CHECK(r.err.find("MAPPING:1:11:") != std::string::npos); // the `%` of `% 30`
  CHECK(caret_column(r.err) == 10);
  r = tujit_map({"--axes", "A=8", "A, Q"});
  CHECK(r.status == 1);
  CHECK(r.err.find("unknown axis `Q`") != std::string::npos);
  CHECK(caret_column(r.err) == 3);
  r = tujit_map({"--axes", "A=8", "A,,A", "--json"});
  CHECK(r.status == 1);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["ok"] == false);
  CHECK(j["diagnostics"][0]["code"] == "E-PARSE-101");
  CHECK(j["diagnostics"][0]["col"] == 3);
  CHECK(j["diagnostics"][0]["stage"] == "parse");
  CHECK(caret_column(r.err) == 2);
}

TEST_CASE("tujit map: bad axes exit 1 with the caret under their column", "[cli-map]") {
  Run r = tujit_map({"--axes", "A=8,A=4", "A"});
  CHECK(r.status == 1);
  CHECK(r.err.find("E-PARSE-110") != std::string::npos);
  CHECK(r.err.find("--axes:1:5:") != std::string::npos);
  CHECK(caret_column(r.err) == 4);
  r = tujit_map({"--axes", "A=8, b=2", "A"});
  CHECK(r.status == 1);
  CHECK(caret_column(r.err) == 5);
  r = tujit_map({"--axes", "A=0", "A"});
  CHECK(r.status == 1);
  CHECK(caret_column(r.err) == 2);
}

TEST_CASE("tujit map: usage errors exit 2, --help exits 0", "[cli-map]") {
  CHECK(tujit_map({"--axes", "A=8", "A", "--bogus"}).status == 2);
  CHECK(tujit_map({"--axes", "A=8"}).status == 2);           // no MAPPING
  CHECK(tujit_map({"--axes", "A=8", "A", "A"}).status == 2); // two MAPPINGs
  CHECK(tujit_map({"--axes", "A=8", "A", "--at", "-1"}).status == 2);
  CHECK(tujit_map({"--axes", "A=8", "A", "--at", "x"}).status == 2);
  CHECK(tujit_map({"--axes", "A=8", "A", "--at"}).status == 2);
  CHECK(tujit_map({"--axes", "A=8", "A", "--at", "18446744073709551616"}).status == 2);
  Run big = tujit_map({"--axes", "A=8", "A", "--at", "18446744073709551615", "--json"});
  REQUIRE(big.status == 0);
  CHECK(nlohmann::json::parse(big.out)["cells"][0]["kind"] == "out_of_bounds");
  Run h = tujit_map({"--help"});
  CHECK(h.status == 0);
  CHECK(h.out.find("--axes") != std::string::npos);
  CHECK(h.out.find("--at") != std::string::npos);
  CHECK(h.out.find("--json") != std::string::npos);
}

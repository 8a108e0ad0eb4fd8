// `tujit check --json` derived values and `tujit explain` in-process (docs/cli.md §3, §4).
#include "harness/cli/command.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

using namespace tujit::cli;
namespace fs = std::filesystem;

namespace {

using Run = tujit::testing::CliRun;
const auto cli = &tujit::testing::run_tujit;
const auto spec = &tujit::testing::source_path;

const nlohmann::json* stage(const nlohmann::json& kernel, const std::string& op) {
  for (const auto& s : kernel["stages"])
    if (s["op"] == op) return &s;
  return nullptr;
}

} // namespace

TEST_CASE("tujit check --json fills stages[].derived", "[kernel-check]") {
  // docs/contraction.md §11 ex 2 (bmatmul_m_in_time): PS 2, TB 1, LB 8, RS 32, PB 1, d 5, IT 1.
  auto r = cli({"check", spec("specs/bmatmul_m_in_time.rs"), "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.status == kExitOk);
  auto doc = nlohmann::json::parse(r.out);
  REQUIRE(doc["kernels"].size() == 1);
  const auto& k = doc["kernels"][0];
  CHECK(k["ok"] == true);
  const auto* outer = stage(k, "contract_outer");
  REQUIRE(outer);
  const auto& d = (*outer)["derived"];
  CHECK(d["pack_size"] == 2);
  CHECK(d["lane_broadcast"] == 8);
  CHECK(d["read_size"] == 32);
  CHECK(d["packet_broadcast_size"] == 1);
  // A mapping is its `m![…]` body text, as `tujit stage --json` and `tujit map` print it.
  REQUIRE(d["time_broadcast"].is_string());
  CHECK(d["time_broadcast"] == "1"); // docs/contraction.md §11 ex 2: TB 1
  CHECK((*stage(k, "contract_packet"))["derived"]["depth"] == 5);
  CHECK((*stage(k, "contract_time"))["derived"]["inner_time"] == 1);
  CHECK(doc["diagnostics"].empty());
}

TEST_CASE("tujit check --json reports verifier diagnostics with file:line:col", "[kernel-check]") {
  // docs/contraction.md §12 #1: a TRF of 3 lanes.
  const std::string file = spec("specs/invalid/invalid_size_3.rs");
  auto r = cli({"check", file, "--json"});
  INFO(r.out << r.err);
  // Refused with the code its `// tujit: expect E-TRF-001` comment names: a pass (docs/ci.md).
  CHECK(r.status == kExitOk);
  auto doc = nlohmann::json::parse(r.out);
  REQUIRE(!doc["diagnostics"].empty());
  const auto& d = doc["diagnostics"][0];
  CHECK(d["code"] == "E-TRF-001");
  CHECK(d["stage"] == "to_trf");
  CHECK(d["severity"] == "error");
  CHECK(d["file"] == file);
  CHECK(d["line"].get<int>() > 1);
  CHECK(d["col"].get<int>() > 0);
  CHECK(doc["kernels"][0]["ok"] == false);
  // Text mode: rendered with a caret on stderr.
  auto t = cli({"check", file});
  CHECK(t.status == kExitOk);
  CHECK(t.err.find("error[E-TRF-001]") != std::string::npos);
  CHECK(t.err.find("^") != std::string::npos);
  CHECK(t.out.find("invalid_size_3: refused as expected (E-TRF-001)") != std::string::npos);
}

TEST_CASE("tujit explain prints mappings and derived values per stage", "[kernel-check]") {
  auto r = cli({"explain", spec("specs/reduce_b.rs")});
  INFO(r.out << r.err);
  REQUIRE(r.status == kExitOk);
  for (const char* want : {"contract_outer", "contract_packet", "contract_time", "contract_lane",
                           "in:", "out:", "Time m![", "pack_size", "read_size", "inner_time"})
    CHECK(r.out.find(want) != std::string::npos);
  // Each stage names where its rules are written (docs/kernel-language.md §6's "rules" column).
  for (const char* want :
       {"contract_outer  (", "docs/contraction.md §5\n", "contract_packet  (",
        "docs/contraction.md §6\n", "contract_lane  (", "docs/contraction.md §8\n"})
    CHECK(r.out.find(want) != std::string::npos);
  // The derived table is aligned: every value of one stage starts in the same column.
  // docs/contraction.md §11 ex 8: InnerTime 8.
  CHECK(r.out.find("inner_time") != std::string::npos);
  bool found_it8 = false;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (line.find(" inner_time ") != std::string::npos && line.find(" 8") != std::string::npos)
      found_it8 = true;
  CHECK(found_it8);
  // The Sequencer IR program follows the stages (docs/cli.md §4).
  CHECK(r.out.find("Sequencer IR") != std::string::npos);
  CHECK(r.out.find("cycles       |OT|") != std::string::npos);
}

TEST_CASE("tujit explain --json is check's JSON plus the IR and the cycles", "[kernel-check]") {
  const std::string file = spec("specs/matmul.rs");
  auto e = cli({"explain", file, "--json"});
  auto c = cli({"check", file, "--json"});
  REQUIRE(e.status == kExitOk);
  auto ej = nlohmann::json::parse(e.out);
  for (auto& k : ej["kernels"]) {
    // docs/cli.md: the Sequencer IR program (its cycle nest covers |OT|) and the cycle summary.
    std::uint64_t cycles = 1;
    for (const auto& l : k["ir"]["cycle_nest"]) cycles *= l["size"].get<std::uint64_t>();
    CHECK(cycles > 1);
    CHECK(k["ir"]["text"].get<std::string>().find("program matmul") != std::string::npos);
    CHECK(k["cycles"]["analytic"]["total"].get<std::uint64_t>() >= cycles);
    CHECK(k["fetches"].empty());       // matmul fetches nothing from DM
    CHECK(k["vector_passes"].empty()); // and has no Vector Engine pass
    k.erase("ir");
    k.erase("cycles");
    k.erase("fetches");
    k.erase("vector_passes");
  }
  // check adds what CI reads (docs/ci.md): the files, each kernel's verdict, a summary.
  auto cj = nlohmann::json::parse(c.out);
  cj.erase("files");
  cj.erase("summary");
  for (auto& k : cj["kernels"])
    for (const char* key : {"file", "passed", "status", "summary", "expected"}) k.erase(key);
  CHECK(ej == cj);
  auto bad = cli({"explain", file, "--kernel", "nope"});
  CHECK(bad.status == kExitUsage);
  CHECK(bad.err.find("matmul") != std::string::npos);
  CHECK(cli({"explain"}).status == kExitUsage);
}

// `tujit tune` end to end, in process (docs/tune.md): its help, refusals and usage errors, the
// JSON document and a ranked kernel's spec read back by `tujit check` and `tujit cycles`, --emit,
// --shard / --merge, --csv and --plot, and --run-top on both engines.
#include "tests/support/cli_capture.h"
#include "tests/support/text_file.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>

using namespace tujit;
using testing::TempDir;

namespace {

const testing::TujitCommand tune_cli{"tune"};

// A small problem: a 32 × 64 by 8 × 64 i8 matmul (about ten thousand candidates).
const std::vector<std::string> kSmall = {"--einsum", "mk,nk->mn", "--sizes",   "M=32,N=8,K=64",
                                         "--dtype",  "i8",        "--threads", "2"};

std::vector<std::string> small(std::vector<std::string> more) {
  std::vector<std::string> args = kSmall;
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

} // namespace

TEST_CASE("tujit tune --help documents every option", "[tune-cli]") {
  const auto r = tune_cli({"--help"});
  CHECK(r.status == 0);
  for (const char* opt : {"--einsum", "--sizes", "--dtype", "--top", "--budget", "--threads",
                          "--shard", "--merge", "--json", "--csv", "--plot", "--emit", "--run-top"})
    CHECK(r.out.find(opt) != std::string::npos);
}

TEST_CASE("tujit tune refuses what the Tensor Unit cannot compute, and usage errors",
          "[tune-cli]") {
  const auto einsum =
      tune_cli({"--einsum", "vmk,vnj->vmn", "--sizes", "V=2,M=2,N=2,K=2,J=2", "--dtype", "bf16"});
  CHECK(einsum.status == 1);
  CHECK(einsum.err.find("E-TUNE-002") != std::string::npos);
  const auto pair =
      tune_cli({"--einsum", "mk,nk->mn", "--sizes", "M=2,N=2,K=2", "--dtype", "i4,i8"});
  CHECK(pair.status == 1);
  CHECK(pair.err.find("E-OUTER-001") != std::string::npos);
  const auto nothing = tune_cli(
      {"--einsum", "mk,nk->mn", "--sizes", "M=1,N=1,K=1048576", "--dtype", "bf16", "--json"});
  CHECK(nothing.status == 1);
  CHECK(nothing.err.find("E-TUNE-005") != std::string::npos);
  CHECK(nothing.json()["refused"]["E-HW-009"].get<int>() > 0);
  CHECK(tune_cli({"--sizes", "M=2"}).status == 2);
  CHECK(tune_cli(small({"--top", "2", "--run-top", "3"})).status == 2);
  CHECK(tune_cli(small({"--budget", "0"})).status == 2);
  CHECK(tune_cli(small({"--shard", "2/2"})).status == 2);
  CHECK(tune_cli(small({"--threads", "-1"})).status == 2);
  CHECK(tune_cli(small({"--max-bytes", "lots"})).status == 2);
}

TEST_CASE("tujit tune refuses a problem or a ranked kernel over --max-bytes", "[tune-cli]") {
  // M=32,N=8,K=64 i8: stream 32·64 B + TRF 8·64 B + i32 output 32·8·4 B = 3584 B; every kernel
  // holds at least these when run, so a smaller limit refuses the problem before any search.
  const auto problem = tune_cli(small({"--max-bytes", "3583", "--json"}));
  CHECK(problem.status == 1);
  CHECK(problem.err.find("E-LIMIT-002") != std::string::npos);
  CHECK(problem.err.find("(3584 bytes)") != std::string::npos);
  CHECK(problem.json()["ok"] == false); // the failure document: nothing was searched
  CHECK(problem.json()["diagnostics"][0]["code"] == "E-LIMIT-002");
  // At 3584 B the tensors fit, but no kernel runs in them (its address streams and tables count
  // too): the ranked kernel is refused as `tujit run` refuses it.
  const auto ranked = tune_cli(small({"--max-bytes", "3584", "--top", "1"}));
  CHECK(ranked.status == 1);
  CHECK(ranked.err.find("E-LIMIT-002") != std::string::npos);
  CHECK(ranked.err.find("which the search ranked") != std::string::npos);
}

TEST_CASE("tujit tune checks its output paths before searching", "[tune-cli]") {
  TempDir dir("tune_cli_outputs");
  // One path for two outputs, and a directory even with --force: exit 2, nothing searched.
  const auto twice = tune_cli(small({"--csv", dir.file("x"), "--emit", dir.file("x")}));
  CHECK(twice.status == 2);
  CHECK(twice.err.find("both name") != std::string::npos);
  CHECK(!std::filesystem::exists(dir.file("x")));
  const auto directory = tune_cli(small({"--emit", dir.path.string(), "--force"}));
  CHECK(directory.status == 2);
  CHECK(directory.err.find("E-IO-003") != std::string::npos);
  CHECK(directory.out.empty());
  // A --merge input that is no regular file.
  const auto merge = tune_cli({"--merge", dir.path.string()});
  CHECK(merge.status == 2);
  CHECK(merge.err.find("E-IO-005") != std::string::npos);
}

TEST_CASE("tujit tune --json ranks kernels whose spec `tujit check` and `tujit cycles` accept",
          "[tune-cli]") {
  TempDir dir("tune_cli_json");
  const auto r = tune_cli(small(
      {"--top", "3", "--json", "--emit", dir.file("best.rs"), "--csv", dir.file("best.csv")}));
  REQUIRE(r.status == 0);
  const auto j = r.json();
  CHECK(j["searched"].get<std::uint64_t>() == j["space"].get<std::uint64_t>());
  CHECK(j["valid"].get<std::uint64_t>() >= 100);
  CHECK(j["seconds"].get<double>() > 0);
  REQUIRE(j["best"].size() == 3);
  std::uint64_t previous = 0;
  for (const auto& b : j["best"]) {
    CHECK(b["cycles"].get<std::uint64_t>() >= previous);
    previous = b["cycles"].get<std::uint64_t>();
    CHECK(b["trace_cycles"].get<std::uint64_t>() > 0);
  }
  const auto& best = j["best"][0];
  CHECK(best["rank"] == 1);
  // --emit wrote rank 1's spec; the front end, the checker and the cycle model read it back.
  CHECK(testing::read_text_file(dir.file("best.rs")) == best["spec"].get<std::string>());
  CHECK(testing::run_tujit({"check", dir.file("best.rs")}).status == 0);
  const auto cycles = testing::run_tujit({"cycles", dir.file("best.rs"), "--json"});
  REQUIRE(cycles.status == 0);
  CHECK(cycles.json()["analytic"]["total"] == best["cycles"]);
  CHECK(cycles.json()["trace"]["total"] == best["trace_cycles"]);
  // One CSV row per ranked kernel and Pareto point, after the header.
  const std::string csv = testing::read_text_file(dir.file("best.csv"));
  CHECK(std::count(csv.begin(), csv.end(), '\n') ==
        static_cast<long>(1 + j["best"].size() + j["pareto"].size()));
  CHECK(csv.rfind("status,rank,index,cycles", 0) == 0);
  // Existing outputs are not overwritten without --force.
  const auto again = tune_cli(small({"--emit", dir.file("best.rs")}));
  CHECK(again.status == 2);
  CHECK(again.err.find("E-IO-002") != std::string::npos);
}

TEST_CASE("tujit tune --shard splits the search and --merge joins it", "[tune-cli]") {
  TempDir dir("tune_cli_shard");
  const auto whole = tune_cli(small({"--top", "4", "--json"}));
  REQUIRE(whole.status == 0);
  std::vector<std::string> merge = {"--merge"};
  for (int s = 0; s < 2; ++s) {
    const auto part =
        tune_cli(small({"--top", "4", "--json", "--shard", std::to_string(s) + "/2"}));
    REQUIRE(part.status == 0);
    // Formatted: `"s" + std::string` trips g++ 12's false -Wstringop-overflow at -O3.
    merge.push_back(dir.file(fmt::format("s{}.json", s), part.out));
  }
  merge.insert(merge.end(), {"--json", "--plot", dir.file("front.svg")});
  const auto merged = tune_cli(merge);
  REQUIRE(merged.status == 0);
  const auto m = merged.json(), w = whole.json();
  CHECK(m["searched"] == w["searched"]);
  CHECK(m["valid"] == w["valid"]);
  CHECK(m["complete"] == true);
  REQUIRE(m["best"].size() == w["best"].size());
  for (std::size_t i = 0; i < m["best"].size(); ++i) {
    CHECK(m["best"][i]["index"] == w["best"][i]["index"]);
    CHECK(m["best"][i]["cycles"] == w["best"][i]["cycles"]);
  }
  CHECK(m["pareto"].size() == w["pareto"].size());
  // install-deps installs gnuplot-nox: a missing gnuplot is a broken setup, not a skip.
  CHECK(testing::read_text_file(dir.file("front.svg")).find("<svg") != std::string::npos);
  // A shard given twice is refused.
  const auto twice = tune_cli({"--merge", dir.file("s0.json"), dir.file("s0.json")});
  CHECK(twice.status == 2);
  CHECK(twice.err.find("E-TUNE-006") != std::string::npos);
}

TEST_CASE("tujit tune --run-top runs the best kernels on both engines and traces them",
          "[tune-cli]") {
  const auto r = tune_cli(small({"--top", "2", "--run-top", "2", "--json"}));
  REQUIRE(r.status == 0);
  const auto j = r.json();
  REQUIRE(j["runs"].size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& run = j["runs"][i];
    CHECK(run["rank"] == i + 1);
    CHECK(run["engines_bit_exact"] == true);
    CHECK(run["oracle_ok"] == true);
    CHECK(run["analytic_cycles"] == j["best"][i]["cycles"]);
    CHECK(run["trace_cycles"] == j["best"][i]["trace_cycles"]);
  }
}

// `tujit seq` in process (docs/cli.md §10): the documented example's JSON, the per-term walk, a
// merged configuration, refusals (exit 1, stage `fetch`, the configuration still shown when only
// the engine check failed), carets into the offending option, usage errors (exit 2).
#include "harness/cli/command.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace tujit;

namespace {

using Run = testing::CliRun;

const testing::TujitCommand tujit_seq{"seq"};

nlohmann::json pairs(std::vector<std::pair<int, int>> l) {
  nlohmann::json a = nlohmann::json::array();
  for (auto [n, s] : l) a.push_back({n, s});
  return a;
}

} // namespace

TEST_CASE("tujit seq: the docs/cli.md example", "[cli-seq]") {
  Run r = tujit_seq({"--axes", "A=8,B=512", "--dtype", "bf16", "--buf", "A, B", "--time",
                     "A, B / 32", "--packet", "B % 32", "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["entries"] == pairs({{8, 512}, {16, 32}, {32, 1}}));
  CHECK(j["packet_size"] == 32);
  CHECK(j["contiguous_run"] == 4096);
  CHECK(j["max_access_size"] == 32);
  CHECK(j["ok"] == true);
  CHECK(j["sequencer"] == "[8:512, 16:32, 32:1] : 32");
  CHECK(j["read_size"] == 16); // bf16: 32 B per read
  CHECK(j["reads_per_packet"] == 2);
  CHECK(j["cycles"] == 256);
  REQUIRE(j["terms"].size() == 3);
  CHECK(j["terms"][0]["term"] == "A");
  CHECK(j["terms"][0]["side"] == "time");
  CHECK(j["terms"][2]["side"] == "packet");
  CHECK(j["terms"][2]["entries"] == pairs({{32, 1}}));
}

TEST_CASE("tujit seq: S6 merges 9 raw entries to 6", "[cli-seq]") {
  Run r = tujit_seq({"--axes", "N=8,C=8,H=8,W=32", "--dtype", "i8", "--buf", "N, C, H, W", "--time",
                     "W / 16, H % 2, H / 2, C / 2, C % 2, N / 2, N % 2, W / 8 % 2", "--packet",
                     "W % 8", "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["raw_entries"].size() == 9);
  CHECK(j["merged"] == true);
  CHECK(j["entries"] == pairs({{2, 16}, {2, 32}, {4, 64}, {8, 256}, {8, 2048}, {16, 1}}));
  CHECK(j["max_access_size"] == 8);
}

TEST_CASE("tujit seq: human output", "[cli-seq]") {
  Run r = tujit_seq({"--axes", "A=8,B=8,C=8", "--dtype", "i8", "--buf", "A, B, C # 32", "--time",
                     "B, A", "--packet", "C # 16"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("sequencer:       [8:32, 8:256, 16:1] : 16") != std::string::npos);
  CHECK(r.out.find("max_access_size: 16") != std::string::npos);
  CHECK(r.out.find("Buf after") != std::string::npos);
}

TEST_CASE("tujit seq: an incompatible decomposition exits 1, stage fetch", "[cli-seq]") {
  Run r = tujit_seq({"--axes", "A=15", "--dtype", "i8", "--buf", "A % 5, A / 5", "--time", "1",
                     "--packet", "A % 3, A / 3", "--json"});
  CHECK(r.status == 1);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["ok"] == false);
  REQUIRE(j["diagnostics"].size() == 1);
  CHECK(j["diagnostics"][0]["code"] == "E-FETCH-010");
  CHECK(j["diagnostics"][0]["stage"] == "fetch");
  CHECK(j["diagnostics"][0]["rule"] == "IncompatibleDecomposition");
  CHECK(r.err.find("axis A") != std::string::npos);
}

TEST_CASE("tujit seq: the book's read_splitting over-reads top padding past the buffer",
          "[cli-seq]") {
  Run r = tujit_seq({"--axes", "A=8,B=8,C=4", "--dtype", "i8", "--buf", "A, B, C # 8", "--time",
                     "A % 2, B % 4, A / 2, B / 4", "--packet", "C # 32", "--json"});
  CHECK(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["entries"] == pairs({{2, 64}, {4, 8}, {4, 128}, {2, 32}, {32, 1}}));
  CHECK(j["sequencer"] == "[2:64, 4:8, 4:128, 2:32, 32:1] : 32");
  CHECK(j["footprint"] == 536);
  CHECK(j["live_footprint"] == 508);
  CHECK(j["over_read"] == 24);
  CHECK(j["buffer_size"] == 512);
  CHECK(j["read_bytes"] == 32);
}

TEST_CASE("tujit seq: the book's tiling_write drops the stream's padded positions", "[cli-seq]") {
  Run r = tujit_seq({"--axes", "A=8,B=512,C=3", "--dtype", "i8", "--buf", "A, B, C # 8", "--time",
                     "A % 2, B % 4, A / 2, B / 4", "--packet", "C # 32", "--mode", "write"});
  CHECK(r.status == 0);
  CHECK(r.out.find("sequencer:       [2:4096, 4:8, 4:8192, 128:32, 32:1] : 32") !=
        std::string::npos);
  CHECK(r.out.find("written:         12288 of 131072 stream positions") != std::string::npos);
}

TEST_CASE("tujit seq: write mode (S7)", "[cli-seq]") {
  Run r = tujit_seq({"--axes", "A=4,B=8", "--dtype", "i8", "--buf", "A, B # 16", "--time", "1",
                     "--packet", "A, B", "--mode", "write", "--json"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["entries"] == pairs({{4, 16}, {8, 1}}));
  CHECK(j["packet_size"] == 32);
  CHECK(j["contiguous_run"] == 8);
  CHECK(j["max_access_size"] == 8);
  CHECK(j.count("read_size") == 0);
}

TEST_CASE("tujit seq: a bad mapping points into its option", "[cli-seq]") {
  Run r = tujit_seq({"--axes", "A=8", "--buf", "A", "--time", "A / 3", "--packet", "1", "--json"});
  CHECK(r.status == 1);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["diagnostics"][0]["file"] == "--time");
  CHECK(r.err.find("--time") != std::string::npos);
}

TEST_CASE("tujit seq: usage errors exit 2", "[cli-seq]") {
  CHECK(tujit_seq({"--axes", "A=8", "--time", "A", "--packet", "1"}).status == 2); // no --buf
  CHECK(tujit_seq({"--axes", "A=8", "--buf", "A", "--time", "A", "--packet", "1", "--dtype", "q7"})
            .status == 2);
  CHECK(tujit_seq(
            {"--axes", "A=8", "--buf", "A", "--time", "A", "--packet", "1", "--mode", "sideways"})
            .status == 2);
  CHECK(tujit_seq({"--bogus"}).status == 2);
  Run help = tujit_seq({"--help"});
  CHECK(help.status == 0);
  CHECK(help.out.find("--packet") != std::string::npos);
}

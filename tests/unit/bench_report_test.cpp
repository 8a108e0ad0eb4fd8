// Reports of `tujit bench` (harness/bench/bench_report.h, docs/cli.md §8): ranking, statistics, the
// CSV and JSON contents, and --merge of shard documents.
#include "harness/bench/bench_report.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tujit;
using namespace tujit::bench;
namespace fs = std::filesystem;

namespace {

KernelResult kernel(std::uint64_t point, std::uint64_t trace, std::uint64_t analytic) {
  KernelResult k;
  k.label = "s[P=" + std::to_string(point) + "]";
  k.kernel = "k";
  k.source = "s.toml";
  k.point = point;
  k.params = {{"P", std::to_string(point)}};
  k.cycles_trace = trace;
  k.cycles_analytic = analytic;
  k.gemm = {2, 3, 4, 5};
  k.jit_macs_per_s = {1e9, 2e9, 3e9};
  k.run_macs_per_s = {5e8, 6e8, 7e8};
  k.interp_macs_per_s = {1e7, 2e7, 3e7};
  k.sgemm_macs_per_s = {4e9, 8e9, 9e9};
  k.fma_peak_macs_per_s = 16e9;
  return k;
}

BenchReport sweep_report(std::uint64_t shard, std::uint64_t shards) {
  BenchReport r;
  r.sweep = SweepInfo{"s", "s.toml", 6, shard, shards};
  for (std::uint64_t p = 0; p < 6; ++p) {
    if (p % shards != shard) continue;
    if (p == 4) {
      r.invalid.push_back({4, "s[P=4]", {{"P", "4"}}, "E-LANE-003", "contract_lane", "bad lane"});
      continue;
    }
    r.kernels.push_back(kernel(p, 100 - 10 * p, 50));
  }
  rank_kernels(r.kernels);
  return r;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir =
      fs::temp_directory_path() / ("tujit_bench_report_test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep)
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

} // namespace

TEST_CASE("spread_of gives min, median and max", "[bench]") {
  const Spread a = spread_of({5, 1, 3});
  CHECK(a.min == 1);
  CHECK(a.median == 3);
  CHECK(a.max == 5);
  const Spread b = spread_of({4, 1, 2, 3});
  CHECK(b.median == 2.5);
  CHECK(spread_of({}).median == 0);
}

TEST_CASE("kernels are ranked by trace cycles, then analytic cycles", "[bench]") {
  std::vector<KernelResult> ks = {kernel(0, 300, 10), kernel(1, 100, 90), kernel(2, 100, 80),
                                  kernel(3, 200, 5)};
  rank_kernels(ks);
  // By hand: (100, 80) < (100, 90) < (200, 5) < (300, 10).
  REQUIRE(ks.size() == 4);
  CHECK(*ks[0].point == 2);
  CHECK(*ks[1].point == 1);
  CHECK(*ks[2].point == 3);
  CHECK(*ks[3].point == 0);
  for (std::size_t i = 0; i < ks.size(); ++i) CHECK(ks[i].rank == i + 1);
}

TEST_CASE("ratios compare medians", "[bench]") {
  const Ratios q = ratios_of(kernel(0, 1, 1));
  CHECK(q.jit_vs_interp == Approx(100.0)); // 2e9 / 2e7
  CHECK(q.jit_vs_sgemm == Approx(0.25));   // 2e9 / 8e9
  CHECK(q.jit_vs_fma_peak == Approx(0.125));
  CHECK(q.sgemm_vs_fma_peak == Approx(0.5));
}

TEST_CASE("the CSV has one row per kernel and per invalid point", "[bench]") {
  const BenchReport r = sweep_report(0, 1);
  const auto lines = split(report_csv(r), '\n');
  REQUIRE(lines.size() == 1 + 5 + 1 + 1); // header, 5 kernels, 1 invalid, final newline
  CHECK(lines.back().empty());
  const auto header = split(lines[0], ',');
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    INFO(lines[i]);
    CHECK(split(lines[i], ',').size() == header.size());
  }
  // Rank 1 is point 5 (fewest trace cycles: 100 - 50).
  const auto first = split(lines[1], ',');
  CHECK(first[0] == "1");
  CHECK(first[1] == "s[P=5]");
  CHECK(first[6] == "ok");
  const auto col = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  CHECK(first[col("cycles_trace")] == "50");
  CHECK(first[col("jit_vs_interp")] == "100");
  CHECK(first[col("run_macs_per_s_median")] == "600000000");
  const auto bad = split(lines[6], ',');
  CHECK(bad[col("status")] == "invalid");
  CHECK(bad[col("code")] == "E-LANE-003");
  CHECK(bad[col("point")] == "4");
}

TEST_CASE("the JSON keeps every field and reads back", "[bench]") {
  const BenchReport r = sweep_report(0, 1);
  const auto doc = report_json(r, {{"context", {{"num_cpus", 2}}}, {"benchmarks", {1, 2}}});
  CHECK(doc["context"]["num_cpus"] == 2);
  CHECK(doc["benchmarks"].size() == 2);
  CHECK(doc["tujit"]["format"] == kBenchFormat);
  CHECK(doc["tujit"]["kernels"].size() == 5);
  CHECK(doc["tujit"]["invalid"][0]["code"] == "E-LANE-003");
  CHECK(doc["tujit"]["kernels"][0]["ratios"]["jit_vs_sgemm"] == 0.25);
  auto back = report_from_json(nlohmann::json::parse(doc.dump()), "x.json");
  REQUIRE(back);
  REQUIRE(back->kernels.size() == 5);
  CHECK(back->kernels[0].label == r.kernels[0].label);
  CHECK(back->kernels[0].gemm.macs() == 120);
  CHECK(back->kernels[0].jit_macs_per_s.max == 3e9);
  CHECK(back->kernels[0].run_macs_per_s.median == 6e8);
  CHECK(back->invalid.size() == 1);
  CHECK(back->sweep->total_points == 6);
}

TEST_CASE("bench: --merge joins disjoint shards and refuses overlaps and other sweeps", "[bench]") {
  std::vector<std::string> paths;
  for (std::uint64_t s = 0; s < 3; ++s)
    paths.push_back(write_temp(fmt::format("shard{}.json", s),
                               report_json(sweep_report(s, 3), nlohmann::json::object()).dump()));
  BenchReport merged;
  std::vector<std::string> notes;
  auto doc = merge_reports(paths, &merged, &notes);
  REQUIRE(doc);
  CHECK(notes.empty());
  CHECK(merged.kernels.size() == 5);
  CHECK(merged.invalid.size() == 1);
  // Re-ranked over all shards: trace cycles 100 - 10 p, so point 5 first, point 0 last.
  CHECK(*merged.kernels.front().point == 5);
  CHECK(*merged.kernels.back().point == 0);
  CHECK(merged.kernels.back().rank == 5);

  // A missing shard is noted, not hidden.
  notes.clear();
  REQUIRE(merge_reports({paths[0], paths[1]}, &merged, &notes));
  CHECK(notes.size() == 2); // points 2 and 5 are in shard 2
  // The same shard twice.
  auto twice = merge_reports({paths[0], paths[0]}, &merged, &notes);
  REQUIRE(!twice);
  CHECK(twice.diagnostics().front().code == "E-BENCH-004");
  // Another sweep.
  BenchReport other = sweep_report(1, 3);
  other.sweep->name = "other";
  const auto p = write_temp("other.json", report_json(other, nlohmann::json::object()).dump());
  auto mixed = merge_reports({paths[0], p}, &merged, &notes);
  REQUIRE(!mixed);
  CHECK(mixed.diagnostics().front().code == "E-BENCH-004");
  // Not a bench document.
  const auto q = write_temp("plain.json", "{\"benchmarks\": []}");
  auto plain = merge_reports({q}, &merged, &notes);
  REQUIRE(!plain);
  CHECK(plain.diagnostics().front().code == "E-BENCH-004");
}

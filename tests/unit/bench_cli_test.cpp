// `tujit bench` end to end, in process (docs/cli.md §8): a tiny sweep with one invalid
// point, sharded and merged; a spec file with its JSON checked against an independent count of
// the GEMM; output refusal without --force; --plot. One repetition and a minimal time keep it
// fast.
#include "tests/support/cli_capture.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tujit;
using namespace tujit::cli;
namespace fs = std::filesystem;

extern char** environ;

namespace {

const testing::TujitCommand tujit_cli{"bench"};

const std::vector<std::string> kFast = {"--repetitions", "1", "--min-time", "0.001"};

std::vector<std::string> with_fast(std::vector<std::string> args) {
  args.insert(args.end(), kFast.begin(), kFast.end());
  return args;
}

fs::path scratch_dir() {
  const fs::path dir =
      fs::temp_directory_path() / ("tujit_bench_cli_test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The M-in-Time matmul with M and the lane count swept; N = 4 and N = `second_n`. The default
// 16 asks for more lanes than the Tensor Unit has (8), so those points must be reported invalid
// (contract_outer: E-OUTER-002).
fs::path tiny_sweep(const fs::path& dir, const std::string& name = "tiny",
                    const std::string& m_values = "8, 16", const std::string& second_n = "16") {
  const fs::path src = fs::path(TUJIT_SOURCE_DIR) / "bench" / "sweeps" / "bmatmul_lanes.rs.in";
  if (!fs::exists(dir / "t.rs.in")) fs::copy_file(src, dir / "t.rs.in");
  std::ofstream(dir / (name + ".toml")) << "name = \"" << name << R"("
template = "t.rs.in"
[params]
M = [)" << m_values << R"(]
N = [{ N = 4, outp = "N # 8" }, { N = )" << second_n
                                        << R"(, outp = "N" }]
K = [32]
mode = ["Interleaved"]
dtype = [{ label = "bf16", dtype = "bf16", acc = "f32", fe = 16, op = 32 }]
)";
  return dir / (name + ".toml");
}

} // namespace

TEST_CASE("bench --sweep ranks valid points and lists invalid ones with their code", "[bench]") {
  const fs::path dir = scratch_dir();
  const fs::path sweep = tiny_sweep(dir);
  const auto r =
      tujit_cli(with_fast({"--sweep", sweep.string(), "--json", (dir / "a.json").string(), "--csv",
                           (dir / "a.csv").string()}));
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto doc = nlohmann::json::parse(read_text(dir / "a.json"));
  const auto& t = doc["tujit"];
  REQUIRE(t["kernels"].size() == 2); // N = 4 with M = 8, 16
  REQUIRE(t["invalid"].size() == 2); // N = 16 with M = 8, 16
  for (const auto& p : t["invalid"]) {
    CHECK(p["name"].get<std::string>().find("N=16") != std::string::npos);
    CHECK(p["code"] == "E-OUTER-002");
    CHECK(!p["message"].get<std::string>().empty());
  }
  // Ranked by modelled cycles: M = 8 walks half the packets of M = 16.
  CHECK(t["kernels"][0]["params"]["M"] == "8");
  CHECK(t["kernels"][0]["rank"] == 1);
  CHECK(t["kernels"][0]["cycles"]["trace"].get<std::uint64_t>() <
        t["kernels"][1]["cycles"]["trace"].get<std::uint64_t>());
  for (const auto& k : t["kernels"]) {
    // 32 batches (V) × M × N=4 × K=32, counted independently of the engines.
    const std::uint64_t m = std::stoull(k["params"]["M"].get<std::string>());
    CHECK(k["simulated_macs"] == 32 * m * 4 * 32);
    CHECK(k["gemm"]["macs"] == 32 * m * 4 * 32);
    CHECK(k["engines_bit_exact"] == true);
    CHECK(k["macs_per_s"]["jit"]["median"].get<double>() > 0);
    CHECK(k["macs_per_s"]["run"]["median"].get<double>() > 0);
    CHECK(k["macs_per_s"]["interp"]["median"].get<double>() > 0);
    CHECK(k["macs_per_s"]["sgemm"]["median"].get<double>() > 0);
    CHECK(k["compile_ms"]["warm_cache_hit"] == true);
    CHECK(k["peak_rss_mib"].get<double>() > 0);
  }
  CHECK(t["baselines"]["fma_peak_macs_per_s"].get<double>() > 0);
  // Google Benchmark's own runs: fma peak + (jit, run, interp, sgemm) per valid point.
  CHECK(doc["benchmarks"].size() == 1 + 4 * 2);
  // CSV: header + 2 kernels + 2 invalid points.
  const std::string csv = read_text(dir / "a.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 5);
  CHECK(csv.find(",invalid,") != std::string::npos);
  CHECK(r.out.find("invalid point(s)") != std::string::npos);
}

TEST_CASE("bench --shard slices and --merge joins them", "[bench]") {
  const fs::path dir = scratch_dir();
  const fs::path sweep = tiny_sweep(dir);
  for (int s = 0; s < 2; ++s) {
    // Formatted, not `"s" + std::string`: g++ 12 at -O3 reports a false -Wstringop-overflow there.
    const fs::path json = dir / fmt::format("s{}.json", s);
    const auto r = tujit_cli(with_fast(
        {"--sweep", sweep.string(), "--shard", std::to_string(s) + "/2", "--json", json.string()}));
    INFO(r.err);
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(read_text(json));
    // Points 0..3 (M slowest, N fastest): shard s holds points s and s + 2, i.e. N = 4 (s = 0)
    // or N = 16 (s = 1) for both M.
    CHECK(doc["tujit"]["kernels"].size() == (s == 0 ? 2u : 0u));
    CHECK(doc["tujit"]["invalid"].size() == (s == 0 ? 0u : 2u));
  }
  const auto m = tujit_cli({"--merge", (dir / "s0.json").string(), (dir / "s1.json").string(),
                            "--json", (dir / "m.json").string()});
  INFO(m.err);
  REQUIRE(m.status == 0);
  const auto doc = nlohmann::json::parse(read_text(dir / "m.json"));
  CHECK(doc["tujit"]["kernels"].size() == 2);
  CHECK(doc["tujit"]["invalid"].size() == 2);
  CHECK(doc["tujit"]["shards_merged"].size() == 2);
  CHECK(m.err.find("note") == std::string::npos); // every point covered
  const auto bad = tujit_cli({"--sweep", sweep.string(), "--shard", "2/2"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("E-BENCH-003") != std::string::npos);
}

TEST_CASE("bench FILE reports the kernel's GEMM and refuses to overwrite without --force",
          "[bench]") {
  const fs::path dir = scratch_dir();
  const std::string spec = (fs::path(TUJIT_SOURCE_DIR) / "specs" / "bmatmul_m_in_time.rs").string();
  const std::string json = (dir / "b.json").string();
  auto r = tujit_cli(with_fast({spec, "--json", json}));
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto doc = nlohmann::json::parse(read_text(json));
  const auto& k = doc["tujit"]["kernels"][0];
  // axes![V = 32, M = 32, N = 8, K = 32]: batch V, m M, n N, k K (spec file, by hand).
  CHECK(k["gemm"]["batch"] == 32);
  CHECK(k["gemm"]["m"] == 32);
  CHECK(k["gemm"]["n"] == 8);
  CHECK(k["gemm"]["k"] == 32);
  CHECK(k["simulated_macs"] == 32 * 32 * 8 * 32);
  CHECK(k["kernel"] == "bmatmul_m_in_time");
  CHECK(doc["tujit"]["sweep"].is_null());

  // The file exists now: refused before measuring, contents untouched.
  const std::string before = read_text(json);
  r = tujit_cli(with_fast({spec, "--json", json}));
  CHECK(r.status == 2);
  CHECK(r.err.find("E-IO-002") != std::string::npos);
  CHECK(r.err.find("--force") != std::string::npos);
  CHECK(read_text(json) == before);
  r = tujit_cli(with_fast({spec, "--json", json, "--force"}));
  CHECK(r.status == 0);
  CHECK(nlohmann::json::parse(read_text(json))["tujit"]["kernels"].size() == 1);
  // No temporary files left next to the output.
  for (const auto& e : fs::directory_iterator(dir))
    CHECK(e.path().filename().string().find(".tujit-") == std::string::npos);

  // A kernel that is no contraction chain cannot be benchmarked.
  r = tujit_cli(with_fast({(fs::path(TUJIT_SOURCE_DIR) / "specs" / "store_vrf.rs").string()}));
  CHECK(r.status == 1);
  CHECK(r.err.find("E-BENCH-005") != std::string::npos);
}

TEST_CASE("bench --plot draws an SVG with gnuplot", "[bench]") {
  const fs::path dir = scratch_dir();
  const fs::path sweep = tiny_sweep(dir);
  const fs::path svg = dir / "p.svg";
  const auto r = tujit_cli(with_fast({"--sweep", sweep.string(), "--plot", svg.string()}));
  INFO(r.err);
  // install-deps installs gnuplot-nox: a missing gnuplot is a broken setup, not a skip.
  if (r.err.find("E-BENCH-008") != std::string::npos)
    FAIL("gnuplot is needed for --plot: run scripts/install-deps.sh (gnuplot-nox)");
  REQUIRE(r.status == 0);
  const std::string text = read_text(svg);
  CHECK(text.find("<svg") != std::string::npos);
  CHECK(text.find("simulation speed against problem size") != std::string::npos);
  CHECK(text.find("ranking by modelled cycles") != std::string::npos);
  CHECK(text.find("analytic = trace") != std::string::npos);
  // Bars are labelled by the parameters that differ between the valid points (only M here).
  CHECK(text.find("M=16") != std::string::npos);
  // Refused without --force.
  const auto again = tujit_cli(with_fast({"--sweep", sweep.string(), "--plot", svg.string()}));
  CHECK(again.status == 2);
}

TEST_CASE("bench --sweep: SIGINT keeps the points done so far in whole outputs", "[bench]") {
  const fs::path dir = scratch_dir();
  // 16 points, all valid (N = 8 fills the lanes exactly).
  const fs::path sweep = tiny_sweep(dir, "long", "8, 16, 32, 64, 128, 256, 512, 1024", "8");
  const std::string json = (dir / "a.json").string(), csv = (dir / "a.csv").string();
  std::vector<std::string> args = {TUJIT_BINARY, "bench", "--sweep", (dir / "long.toml").string(),
                                   "--json",     json,    "--csv",   csv};
  args.insert(args.end(), kFast.begin(), kFast.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, (dir / "out.txt").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, (dir / "err.txt").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  REQUIRE(posix_spawn(&pid, TUJIT_BINARY, &actions, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&actions);
  // The JSON document is open (its temporary exists) from the start of the sweep: interrupt
  // the sweep then, long before its 16 points are done.
  const auto temporary_exists = [&] {
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().filename().string().starts_with(".a.json.tujit-")) return true;
    return false;
  };
  for (int i = 0; i < 3000 && !temporary_exists(); ++i) ::usleep(10000);
  REQUIRE(temporary_exists());
  ::kill(pid, SIGINT);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  INFO(read_text(dir / "err.txt"));
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 128 + SIGINT);
  const auto doc = nlohmann::json::parse(read_text(json)); // a whole document
  const auto& t = doc["tujit"];
  CHECK(t["interrupted_by"] == "SIGINT");
  CHECK(t["kernels"].size() + t["invalid"].size() < 16);
  CHECK(doc["benchmarks"].size() == 1 + 4 * t["kernels"].size());
  const std::string rows = read_text(csv);
  CHECK(static_cast<std::size_t>(std::count(rows.begin(), rows.end(), '\n')) ==
        1 + t["kernels"].size() + t["invalid"].size());
  CHECK(read_text(dir / "out.txt").find("INTERRUPTED by SIGINT") != std::string::npos);
  for (const auto& e : fs::directory_iterator(dir))
    CHECK(e.path().filename().string().find(".tujit-") == std::string::npos);
}

TEST_CASE("bench: a kernel over --max-bytes is refused, and in a sweep it is an invalid point",
          "[bench]") {
  const fs::path dir = scratch_dir();
  const fs::path sweep = tiny_sweep(dir);
  const auto r = tujit_cli(with_fast(
      {"--sweep", sweep.string(), "--max-bytes", "64K", "--json", (dir / "a.json").string()}));
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto t = nlohmann::json::parse(read_text(dir / "a.json"))["tujit"];
  CHECK(t["kernels"].empty());
  std::size_t limited = 0;
  for (const auto& p : t["invalid"]) limited += p["code"] == "E-LIMIT-002";
  CHECK(limited == 2); // the two points the verifiers accept
}

TEST_CASE("bench FILE times a Vector Engine pass in elements per second", "[bench][vector]") {
  // constant_add_kernel: HBM → DM, fetch, a Vector Engine AddFxp pass over A = 2048 i32 elements,
  // commit, DM → HBM (the spec file, by hand): the bench times the pass on both engines.
  const fs::path dir = scratch_dir();
  const std::string spec =
      (fs::path(TUJIT_SOURCE_DIR) / "specs" / "kernels" / "constant_add_kernel.rs").string();
  const std::string json = (dir / "ve.json").string();
  const auto r = tujit_cli(with_fast({spec, "--json", json}));
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const auto doc = nlohmann::json::parse(read_text(json));
  const auto& k = doc["tujit"]["kernels"][0];
  CHECK(k["kernel"] == "constant_add_kernel");
  CHECK(k["work"] == "element");
  CHECK(k["simulated_macs"] == 2048);
  CHECK(k["interp_macs"] == 2048);
  CHECK(k["engines_bit_exact"] == true);
  CHECK(k["gemm"]["macs"] == 0);
  CHECK(k["macs_per_s"]["jit"]["median"].get<double>() > 0);
  CHECK(k["macs_per_s"]["interp"]["median"].get<double>() > 0);
  CHECK(k["macs_per_s"]["sgemm"]["median"] == 0); // no GEMM to compare with
  CHECK(k["ratios"]["jit_vs_fma_peak"] == 0);
  CHECK(k["cycles"]["trace"].get<std::uint64_t>() > 0);
  // The text report marks the row and says what its rates count.
  CHECK(r.out.find("constant_add_kernel*") != std::string::npos);
  CHECK(r.out.find("the rates count output elements of the Vector Engine pass") !=
        std::string::npos);
}

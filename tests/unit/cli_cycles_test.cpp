// `tujit cycles FILE [--kernel NAME] [--json] [--timeline PATH.svg]` in-process (docs/cli.md §7,
// docs/cycle-model.md).
#include "harness/cli/command.h"
#include "tests/support/cli_capture.h"
#include "tests/unit/cycles_test_support.h"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace tujit;
using namespace tujit::cli;
namespace fs = std::filesystem;

namespace {

using Run = testing::CliRun;
const auto tujit_cli = &testing::run_tujit;
const auto spec = &testing::source_path;

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("tujit_cli_cycles_test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path p = dir / name;
  fs::remove(p);
  return p;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Sets an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

private:
  const char* name_;
  std::optional<std::string> old_;
};

} // namespace

TEST_CASE("tujit cycles --json: both models side by side", "[cli-cycles]") {
  auto r = tujit_cli({"cycles", spec("specs/bmatmul_m_in_time.rs"), "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.status == kExitOk);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["kernel"] == "bmatmul_m_in_time");
  // docs/contraction.md §11 ex 2: 64 stream flits → 32 packets → 32 output flits; bf16 tree 5.
  const auto& a = doc["analytic"];
  CHECK(a["total"] == 70);
  CHECK(a["stages"]["fetch"] == 64);
  CHECK(a["stages"]["contract_outer"] == 32);
  CHECK(a["stages"]["contract_lane"] == 32);
  CHECK(a["bottleneck"] == "fetch");
  CHECK(a["mac_utilization"] == 1.0); // 8 lanes, PackSize 2, every cell and step live
  CHECK(a["latency"]["tree"] == 5);
  const auto& t = doc["trace"];
  CHECK(t["total"] == 70);
  CHECK(t["stages"]["fetch"]["busy"] == 64);
  CHECK(t["stages"]["contract_outer"]["busy"] == 32);
  CHECK(t["stages"]["contract_lane"]["busy"] == 32);
  CHECK(t["stages"]["contract_outer"]["stall"] == 32); // every second cycle waits for a flit
  CHECK(t["trf_cache_hits"] == 31);                    // one 64 B row, broadcast over M
  CHECK(t["trf_cache_misses"] == 1);
  CHECK(t["trf_bank_conflicts"] == 0); // no store in this kernel
  CHECK(doc["agreement"] == 1.0);
  CHECK(doc["slices"] == 32); // Cluster [V / 16] × Slice [V % 16 # 256]: 2 × 16 live
  CHECK(doc["simulated_slices"] == 1);
}

TEST_CASE("tujit cycles prints a table for a person", "[cli-cycles]") {
  auto r = tujit_cli({"cycles", spec("specs/reduce_b.rs")});
  INFO(r.out << r.err);
  REQUIRE(r.status == kExitOk);
  CHECK(r.out.find("kernel reduce_b") != std::string::npos);
  CHECK(r.out.find("one slice traced") != std::string::npos);
  CHECK(r.out.find("contract_outer") != std::string::npos);
  CHECK(r.out.find("bottleneck") != std::string::npos);
  CHECK(r.out.find("InnerTime 8") != std::string::npos); // docs/contraction.md §11 ex 8
}

TEST_CASE("tujit cycles shows the concurrent TRF store of a kernel that stores", "[cli-cycles]") {
  auto r = tujit_cli({"cycles", spec("specs/derived/gemm_kernel.rs"), "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.status == kExitOk);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["analytic"]["stages"].contains("trf_store"));
  CHECK(doc["trace"]["stages"].contains("trf_store"));
  CHECK(doc["trace"]["trf_bank_conflicts"].get<std::uint64_t>() > 0); // wide reads that miss
}

TEST_CASE("tujit cycles refuses a kernel without a contraction chain", "[cli-cycles]") {
  auto r = tujit_cli({"cycles", spec("specs/store_vrf.rs")});
  CHECK(r.status == kExitUserError);
  CHECK(r.err.find("E-CYCLES-001") != std::string::npos);
  auto j = tujit_cli({"cycles", spec("specs/store_vrf.rs"), "--json"});
  CHECK(j.status == kExitUserError);
  const auto doc = nlohmann::json::parse(j.out);
  CHECK(doc["diagnostics"][0]["code"] == "E-CYCLES-001");
}

TEST_CASE("tujit cycles usage errors", "[cli-cycles]") {
  CHECK(tujit_cli({"cycles"}).status == kExitUsage);
  CHECK(tujit_cli({"cycles", spec("specs/matmul.rs"), "--kernel", "nope"}).status == kExitUsage);
  CHECK(tujit_cli({"cycles", spec("specs/no_such_file.rs")}).status == kExitUsage);
  auto h = tujit_cli({"cycles", "--help"});
  CHECK(h.status == kExitOk);
  CHECK(h.out.find("--timeline") != std::string::npos);
  CHECK(tujit_cli({"--help"}).out.find("cycles") != std::string::npos);
}

TEST_CASE("tujit cycles --timeline draws an SVG with gnuplot", "[cli-cycles]") {
  const fs::path svg = scratch("gemm.svg");
  auto r = tujit_cli({"cycles", spec("specs/derived/gemm_kernel.rs"), "--timeline", svg.string()});
  INFO(r.out << r.err);
  REQUIRE(r.status == kExitOk);
  REQUIRE(fs::exists(svg));
  const std::string text = read_text(svg);
  CHECK(text.find("<svg") != std::string::npos);
  CHECK(text.find("contract_outer") != std::string::npos);
  CHECK(text.find("bottleneck") != std::string::npos);
  // Nothing left behind next to the output.
  for (const auto& e : fs::directory_iterator(svg.parent_path()))
    CHECK(e.path().filename().string().find(".tujit-") == std::string::npos);
}

TEST_CASE("tujit cycles --timeline without gnuplot is a clear error", "[cli-cycles]") {
  const fs::path svg = scratch("missing.svg");
  ScopedEnv env("TUJIT_GNUPLOT", "/nonexistent/gnuplot");
  auto r = tujit_cli({"cycles", spec("specs/matmul.rs"), "--timeline", svg.string()});
  CHECK(r.status == kExitUsage);
  CHECK(r.err.find("E-CYCLES-002") != std::string::npos);
  CHECK(r.err.find("gnuplot") != std::string::npos);
  CHECK(!fs::exists(svg));
}

TEST_CASE("tujit cycles --timeline into a missing directory", "[cli-cycles]") {
  const fs::path svg = scratch("no_such_dir") / "t.svg";
  auto r = tujit_cli({"cycles", spec("specs/matmul.rs"), "--timeline", svg.string()});
  CHECK(r.status == kExitUsage);
  CHECK(!fs::exists(svg));
}

TEST_CASE("the trace costs at most 10% of a run of the bmatmul kernels", "[cycles]") {
  // The trace model's cost goal (docs/cycle-model.md §3): ≤ 10% of the JIT's run time: `tujit
  // run`'s default engine, its "run" time.
  for (const char* f : {"specs/bmatmul_m_in_time.rs", "specs/bmatmul_k_in_time.rs"}) {
    INFO(f);
    auto r = tujit_cli({"run", spec(f), "--json"});
    INFO(r.out << r.err);
    REQUIRE(r.status == kExitOk);
    const double run_ms = nlohmann::json::parse(r.out)["time_ms"]["run"].get<double>();
    const auto l = cycles_test::lower_spec_file(f);
    double best_ms = 1e9;
    for (int i = 0; i < 5; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto t = cycles::trace_cycles(l.program, l.options);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      CHECK(t.total == 70);
      best_ms = std::min(best_ms, ms);
    }
    INFO("trace " << best_ms << " ms, run " << run_ms << " ms");
    CHECK(best_ms <= 0.1 * run_ms);
  }
}

// `tujit run --expect OUT.npy [--rtol/--atol]` and `--save-inputs DIR` (docs/ci.md): golden
// outputs compared bit for bit or within a tolerance, differences named by logical coordinates,
// and inputs saved so a failure can be reproduced outside tujit.
#include "harness/cli/command.h"
#include "runtime/io/output_file.h"
#include "runtime/npy/npy.h"
#include "tests/support/ci_support.h"
#include "tests/support/cli_capture.h"
#include "tests/support/external_tool.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>

using namespace tujit;
using namespace tujit::cli;
using tujit::testing::TempDir;

namespace {

using Run = tujit::testing::CliRun;
const auto spec = &tujit::testing::source_path;
const tujit::testing::TujitCommand run{"run"};
const std::string kKernel = spec("specs/bmatmul_m_in_time.rs");

runtime::NpyArray load(const std::string& path) {
  auto a = runtime::read_npy_file(path);
  REQUIRE(a.ok());
  return *a;
}

void save(const std::string& path, const runtime::NpyArray& a) {
  const auto bytes = runtime::serialize_npy(a);
  std::filesystem::remove(path);
  REQUIRE_FALSE(runtime::io::write_file(path, bytes, true).has_value());
}

float get(const runtime::NpyArray& a, std::uint64_t i) {
  float f;
  std::memcpy(&f, a.data.data() + 4 * i, 4);
  return f;
}

void set(runtime::NpyArray& a, std::uint64_t i, float f) {
  std::memcpy(a.data.data() + 4 * i, &f, 4);
}

/// The golden output of bmatmul_m_in_time on seed 3 (interpreter), its axes and shape.
struct Golden {
  TempDir dir{"ci_run_expect"};
  std::string path = dir.file("golden.npy");
  std::vector<std::string> axes;
  std::vector<std::uint64_t> shape;
  Golden() {
    Run r = run({kKernel, "--engine", "interp", "--seed", "3", "--output", path, "--json"});
    REQUIRE(r.status == kExitOk);
    const auto doc = r.json();
    axes = doc["output"]["axes"].get<std::vector<std::string>>();
    shape = doc["output"]["shape"].get<std::vector<std::uint64_t>>();
    REQUIRE(shape.size() == 3);
  }
  std::uint64_t cells() const { return shape[0] * shape[1] * shape[2]; }
  /// The C-order index of (a, b, c) and its logical coordinates as tujit writes them.
  std::uint64_t index(std::uint64_t a, std::uint64_t b, std::uint64_t c) const {
    return (a * shape[1] + b) * shape[2] + c;
  }
  std::string at(std::uint64_t a, std::uint64_t b, std::uint64_t c) const {
    return fmt::format("{}={}, {}={}, {}={}", axes[0], a, axes[1], b, axes[2], c);
  }
  Run expect(const std::string& file, std::vector<std::string> more = {}) const {
    std::vector<std::string> args = {kKernel, "--engine", "interp", "--seed",
                                     "3",     "--expect", file};
    args.insert(args.end(), more.begin(), more.end());
    return run(args);
  }
};

} // namespace

TEST_CASE("tujit run --expect: the same output passes bit for bit", "[ci-run]") {
  Golden g;
  Run r = g.expect(g.path);
  INFO(r.out << r.err);
  CHECK(r.status == kExitOk);
  CHECK(r.out.find(fmt::format("expect {}: bit-exact ({} cells)", g.path, g.cells())) !=
        std::string::npos);
  // The JIT computes the same bits.
  CHECK(run({kKernel, "--seed", "3", "--expect", g.path}).status == kExitOk);
  // Stored as float64, every value is still the same: a value comparison, not bytes.
  runtime::NpyArray f8 = load(g.path);
  runtime::NpyArray wide{runtime::NpyDtype::F8, f8.shape, {}};
  for (std::uint64_t i = 0; i < f8.elements(); ++i) {
    const double d = get(f8, i);
    const auto* p = reinterpret_cast<const std::uint8_t*>(&d);
    wide.data.insert(wide.data.end(), p, p + 8);
  }
  save(g.dir.file("wide.npy"), wide);
  CHECK(g.expect(g.dir.file("wide.npy")).status == kExitOk);
}

TEST_CASE("tujit run --expect: a changed cell is named by its logical coordinates", "[ci-run]") {
  Golden g;
  runtime::NpyArray a = load(g.path);
  const std::uint64_t i = g.index(1, 3, 5);
  const float was = get(a, i);
  set(a, i, was + 1.0f);
  const std::string changed = g.dir.file("changed.npy");
  save(changed, a);
  Run r = g.expect(changed);
  INFO(r.out << r.err);
  CHECK(r.status == kExitUserError);
  const std::string head =
      fmt::format("{}: error[E-EXPECT-001]: the output of kernel `bmatmul_m_in_time` differs "
                  "from '{}' in 1 of {} cells, first at [{}]",
                  tujit::testing::position_of(kKernel, "bmatmul_m_in_time<"), changed, g.cells(),
                  g.at(1, 3, 5));
  CHECK(r.err.find(head) != std::string::npos);
  CHECK(r.err.find(fmt::format("note: [{}]: got {}, expected {} (|diff| 1)", g.at(1, 3, 5), was,
                               was + 1.0f)) != std::string::npos);
  CHECK(r.out.find("1 of " + std::to_string(g.cells()) + " cells differ") != std::string::npos);

  Run j = g.expect(changed, {"--json"});
  CHECK(j.status == kExitUserError);
  const auto e = j.json()["expect"];
  CHECK(e["ok"] == false);
  CHECK(e["mismatches"] == 1);
  CHECK(e["first_differences"][0]["at"] == g.at(1, 3, 5));
  CHECK(e["max_abs_diff"] == 1.0);

  // Every differing cell is counted; the first few are listed in logical order.
  for (std::uint64_t k = 0; k < 12; ++k) set(a, g.index(0, 0, 0) + k, get(a, k) + 2.0f);
  save(changed, a);
  Run many = g.expect(changed, {"--json"});
  const auto m = many.json()["expect"];
  CHECK(m["mismatches"] == 13);
  CHECK(m["first_differences"].size() == 8);
  CHECK(m["first_differences"][0]["at"] == g.at(0, 0, 0));
}

TEST_CASE("tujit run --expect --rtol/--atol: oracle-style tolerances", "[ci-run]") {
  Golden g;
  runtime::NpyArray a = load(g.path);
  // A cell whose value is far from zero, moved by 0.1 % of it.
  std::uint64_t i = 0;
  while (std::fabs(get(a, i)) < 1.0f) ++i;
  REQUIRE(i < a.elements());
  const float was = get(a, i);
  set(a, i, was * 1.001f);
  const std::string near = g.dir.file("near.npy");
  save(near, a);
  CHECK(g.expect(near).status == kExitUserError); // not bit-exact
  CHECK(g.expect(near, {"--rtol", "1e-2"}).status == kExitOk);
  CHECK(g.expect(near, {"--rtol", "1e-5"}).status == kExitUserError);
  const double diff = std::fabs(static_cast<double>(was * 1.001f) - was);
  CHECK(g.expect(near, {"--atol", std::to_string(diff * 1.5)}).status == kExitOk);
  Run tight = g.expect(near, {"--atol", std::to_string(diff * 0.5)});
  CHECK(tight.status == kExitUserError);
  CHECK(tight.out.find("within rtol 0, atol") != std::string::npos);
}

TEST_CASE("tujit run --expect: wrong shapes, missing files and bad options", "[ci-run]") {
  Golden g;
  runtime::NpyArray a = load(g.path);
  a.shape = {g.shape[0] * g.shape[1], g.shape[2]}; // the same cells, another shape
  const std::string flat = g.dir.file("flat.npy");
  save(flat, a);
  Run shape = g.expect(flat);
  CHECK(shape.status == kExitUserError);
  CHECK(shape.err.find("error[E-EXPECT-002]") != std::string::npos);
  CHECK(g.expect(g.dir.file("missing.npy")).status == kExitUsage);
  CHECK(run({kKernel, "--rtol", "0.1"}).status == kExitUsage);
  CHECK(g.expect(g.path, {"--atol", "-1"}).status == kExitUsage);
  CHECK(g.expect(g.path, {"--rtol", "nan"}).status == kExitUsage);
}

TEST_CASE("tujit run --expect --format junit: the mismatch as a failed testcase", "[ci-run]") {
  Golden g;
  runtime::NpyArray a = load(g.path);
  set(a, 0, get(a, 0) + 4.0f);
  const std::string changed = g.dir.file("c.npy");
  save(changed, a);
  Run r = g.expect(changed, {"--format", "junit"});
  CHECK(r.status == kExitUserError);
  const std::string xml = g.dir.file("run.xml", r.out);
  auto valid = tujit::testing::check_junit_schema(xml);
  INFO(valid.output);
  REQUIRE(valid.status == 0);
  auto msg =
      tujit::testing::xpath(xml, "string(//testcase[@name='bmatmul_m_in_time']/failure/@message)");
  CHECK(msg.output.starts_with(tujit::testing::position_of(kKernel, "bmatmul_m_in_time<") +
                               ": error[E-EXPECT-001]"));
  auto out = tujit::testing::xpath(xml, "string(//system-out)");
  CHECK(out.output.find("sha256") != std::string::npos);
}

TEST_CASE("tujit run --save-inputs: the inputs reproduce the run", "[ci-run]") {
  TempDir dir("ci_save_inputs");
  const std::string saved = (dir.path / "inputs").string();
  for (const std::string& kernel : {kKernel, spec("specs/derived/i8_contract.rs")}) {
    INFO(kernel);
    Run first = run({kernel, "--engine", "interp", "--seed", "11", "--save-inputs", saved,
                     "--force", "--json"});
    INFO(first.err);
    REQUIRE(first.status == kExitOk);
    const auto doc = first.json();
    REQUIRE(doc["saved_inputs"].size() == 2);
    std::vector<std::string> args = {kernel, "--engine", "interp"};
    for (const auto& in : doc["saved_inputs"]) {
      const std::string path = in["path"];
      CHECK(path ==
            (std::filesystem::path(saved) / (in["name"].get<std::string>() + ".npy")).string());
      CHECK(load(path).shape == in["shape"].get<std::vector<std::uint64_t>>());
      args.push_back("--input");
      args.push_back(in["name"].get<std::string>() + "=" + path);
    }
    // Another seed: the inputs come from the files, so the output is the same.
    args.insert(args.end(), {"--seed", "99", "--json"});
    Run again = run(args);
    INFO(again.err);
    REQUIRE(again.status == kExitOk);
    CHECK(again.json()["output"]["sha256"] == doc["output"]["sha256"]);
    Run other = run({kernel, "--engine", "interp", "--seed", "99", "--json"});
    CHECK(other.json()["output"]["sha256"] != doc["output"]["sha256"]);
  }
  // Existing files are kept unless --force.
  Run refused = run({kKernel, "--seed", "11", "--save-inputs", saved});
  CHECK(refused.status == kExitUsage);
  CHECK(refused.err.find("E-IO-002") != std::string::npos);
  Run not_dir = run({kKernel, "--save-inputs", dir.file("a_file", "x")});
  CHECK(not_dir.status == kExitUsage);
}

TEST_CASE("tujit run --save-inputs: raw codes, read back bit for bit (docs/cli.md §6.1)",
          "[ci-run]") {
  TempDir dir("ci_save_raw");
  // Each operand type with the array type its raw codes are saved as.
  const std::vector<std::pair<std::string, runtime::NpyDtype>> kernels = {
      {"specs/derived/bf16_contract.rs", runtime::NpyDtype::U2},
      {"specs/derived/f8e4m3_contract.rs", runtime::NpyDtype::U1},
      {"specs/derived/f8e5m2_contract.rs", runtime::NpyDtype::U1},
      {"specs/derived/i4_contract.rs", runtime::NpyDtype::I1}};
  for (const auto& [path, dtype] : kernels) {
    INFO(path);
    const std::string kernel = spec(path);
    const std::string first_dir = (dir.path / "first").string();
    const std::string second_dir = (dir.path / "second").string();
    Run first = run({kernel, "--engine", "interp", "--seed", "5", "--save-inputs", first_dir,
                     "--force", "--json"});
    INFO(first.err);
    REQUIRE(first.status == kExitOk);
    const auto doc = first.json();
    REQUIRE(doc["saved_inputs"].size() == 2);
    std::vector<std::string> args = {kernel, "--engine", "interp", "--seed", "77"};
    for (const auto& in : doc["saved_inputs"]) {
      CHECK(load(in["path"]).dtype == dtype);
      args.push_back("--input");
      args.push_back(in["name"].get<std::string>() + "=" + in["path"].get<std::string>());
    }
    // The saved files as inputs, saved again: the same bytes (every code survived the trip), and
    // the same output.
    args.insert(args.end(), {"--save-inputs", second_dir, "--force", "--json"});
    Run again = run(args);
    INFO(again.err);
    REQUIRE(again.status == kExitOk);
    CHECK(again.json()["output"]["sha256"] == doc["output"]["sha256"]);
    for (const auto& in : doc["saved_inputs"]) {
      const std::string name = in["name"].get<std::string>() + ".npy";
      const runtime::NpyArray a = load(in["path"].get<std::string>());
      const runtime::NpyArray b = load((std::filesystem::path(second_dir) / name).string());
      CHECK(b.dtype == a.dtype);
      CHECK(b.shape == a.shape);
      CHECK(b.data == a.data);
    }
  }
}

// `tujit check` in-process (docs/cli.md §3): JSON shape, exit codes, --kernel.
#include "harness/cli/command.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace tujit::cli;
using tujit::testing::TempDir;

namespace {

using Run = tujit::testing::CliRun;
const auto spec = &tujit::testing::source_path;

const tujit::testing::TujitCommand check{"check"};

const char* kTwoKernels = R"(axes![A = 8];
fn first<'l, const T: Tu>(x: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![1], m![A]>)
    -> VrfTensor<i32, m![1], m![1 # 2], m![1 # 256], m![A]> { x.to_vrf() }
fn second<'l, const T: Tu>(x: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![1], m![A]>)
    -> VrfTensor<i32, m![1], m![1 # 2], m![1 # 256], m![A]> { x.to_vfr() }
)";

} // namespace

TEST_CASE("tujit check: a valid spec, text and JSON", "[cli-check]") {
  Run text = check({spec("specs/matmul.rs")});
  CHECK(text.status == kExitOk);
  CHECK(text.err.empty());
  CHECK(text.out.find("matmul: ok") != std::string::npos);

  Run json = check({spec("specs/matmul.rs"), "--json"});
  REQUIRE(json.status == kExitOk);
  auto doc = nlohmann::json::parse(json.out);
  REQUIRE(doc["kernels"].size() == 1);
  const auto& k = doc["kernels"][0];
  CHECK(k["name"] == "matmul");
  CHECK(k["ok"] == true);
  REQUIRE(k["stages"].size() == 4);
  CHECK(k["stages"][0]["op"] == "contract_outer");
  CHECK(k["stages"][0]["derived"].is_object());
  CHECK(k["stages"][3]["op"] == "contract_lane");
  CHECK(doc["diagnostics"].is_array());
  CHECK(doc["diagnostics"].empty());
}

TEST_CASE("tujit check: an invalid spec gives diagnostics and exit 1", "[cli-check]") {
  const std::string file = spec("tests/corpus/malformed/t09_unknown_method.rs");
  Run text = check({file});
  CHECK(text.status == kExitUserError);
  // file:line:col: error[CODE]: message, the source line and a caret (line 15 of the file).
  CHECK(text.err.find(file + ":15:10: error[E-TYPE-008]: unknown method `contract_foo`") !=
        std::string::npos);
  CHECK(text.err.find("^^^^^^^^^^^^") != std::string::npos);

  Run json = check({"--json", file});
  CHECK(json.status == kExitUserError);
  auto doc = nlohmann::json::parse(json.out);
  REQUIRE(doc["diagnostics"].size() >= 1);
  const auto& d = doc["diagnostics"][0];
  CHECK(d["severity"] == "error");
  CHECK(d["code"] == "E-TYPE-008");
  CHECK(d["stage"] == "type");
  CHECK(d["file"] == file);
  CHECK(d["line"] == 15);
  CHECK(d["col"] == 10);
  CHECK(d["message"].get<std::string>().find("contract_foo") != std::string::npos);
  REQUIRE(doc["kernels"].size() == 1);
  CHECK(doc["kernels"][0]["ok"] == false);
}

TEST_CASE("tujit check: several kernels and --kernel", "[cli-check]") {
  TempDir dir("cli_check");
  const std::string f = dir.file("two.rs", kTwoKernels);
  Run all = check({f, "--json"});
  CHECK(all.status == kExitUserError);
  auto doc = nlohmann::json::parse(all.out);
  REQUIRE(doc["kernels"].size() == 2);
  CHECK(doc["kernels"][0]["name"] == "first");
  CHECK(doc["kernels"][0]["ok"] == true);
  CHECK(doc["kernels"][1]["name"] == "second");
  CHECK(doc["kernels"][1]["ok"] == false);

  Run one = check({f, "--json", "--kernel", "first"});
  CHECK(one.status == kExitOk); // the other kernel's error is not this kernel's
  auto d1 = nlohmann::json::parse(one.out);
  REQUIRE(d1["kernels"].size() == 1);
  CHECK(d1["kernels"][0]["name"] == "first");
  CHECK(d1["kernels"][0]["stages"][0]["op"] == "to_vrf");
  CHECK(d1["diagnostics"].empty());

  Run two = check({f, "--kernel=second"});
  CHECK(two.status == kExitUserError);

  Run none = check({f, "--kernel", "third"});
  CHECK(none.status == kExitUsage);
  CHECK(none.err.find("first, second") != std::string::npos);
}

TEST_CASE("tujit check: usage and I/O errors exit 2", "[cli-check]") {
  CHECK(check({}).status == kExitUsage);
  CHECK(check({"/nonexistent/kernel.rs"}).status == kExitUsage);
  CHECK(check({spec("specs/matmul.rs"), "--bogus"}).status == kExitUsage);
  Run help = check({"--help"});
  CHECK(help.status == kExitOk);
  CHECK(help.out.find("--kernel") != std::string::npos);
}

// The book's driver code around a snippet (ir/lang/driver.h): its chains are typed like a kernel
// body and verified by the same stage verifiers; a driver that builds the wrong input, or an
// input the hardware refuses, is refused with the kernel.
#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"
#include "tests/support/text_file.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace tujit;

namespace {

std::string lane_interleaved_text() {
  return testing::read_text_file(std::filesystem::path(TUJIT_SOURCE_DIR) / "specs" /
                                 "lane_interleaved.rs");
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

ir::SpecAnalysis analyze(const std::string& text) {
  return ir::analyze(SourceBuffer("driver_test.rs", text));
}

bool has_code(const Diagnostics& ds, const std::string& code) {
  for (const auto& d : ds)
    if (d.code == code) return true;
  return false;
}

// The offset where the driver code starts (after the kernel's closing brace).
std::uint32_t driver_offset(const std::string& text) {
  return static_cast<std::uint32_t>(text.find("// Driver code"));
}

} // namespace

TEST_CASE("the driver's chain around a snippet is typed and verified", "[lang][kernel-check]") {
  // specs/lane_interleaved.rs: the Lane Folder alone; its driver builds the ContractTime input by
  // contract_outer → contract_packet → contract_time (furiosa-opt
  // docs/src/computing-tensors/contraction-engine/lane-folder.md).
  const std::string text = lane_interleaved_text();
  auto a = analyze(text);
  REQUIRE(!has_errors(a.diagnostics));
  REQUIRE(a.file.kernels.size() == 1);
  const ir::Kernel& k = a.file.kernels.front();
  REQUIRE(k.driver.size() == 3);
  CHECK(k.driver[0].op == ir::StageOp::ContractOuter);
  CHECK(k.driver[1].op == ir::StageOp::ContractPacket);
  CHECK(k.driver[2].op == ir::StageOp::ContractTime);
  CHECK(k.driver[2].bound_to == "i");
  CHECK(k.driver[0].trf_name == "b");
  const auto kc = ir::verify::check_kernel(a.file, k);
  REQUIRE(kc.driver_stages.size() == 3);
  for (const auto& s : kc.driver_stages) CHECK(s.ok());
  CHECK(!kc.driver_stages[0].derived.empty()); // the Outer stage's PackSize, ReadSize, …
  CHECK(kc.ok());
}

TEST_CASE("a wrong driver is refused", "[lang][kernel-check]") {
  const std::string text = lane_interleaved_text();
  const std::uint32_t driver = driver_offset(text);
  SECTION("a mapping that cannot split P (the front end)") {
    const std::string bad =
        replaced(text, ".contract_packet::<m![P]>()", ".contract_packet::<m![P % 3]>()");
    auto a = analyze(bad);
    REQUIRE(has_code(a.diagnostics, "E-TYPE-303"));
    for (const auto& d : a.diagnostics)
      if (d.code == "E-TYPE-303") CHECK(d.span->offset > driver);
  }
  SECTION("a value of another type than the kernel's parameter") {
    std::string bad =
        replaced(text, ".contract_packet::<m![P]>()", ".contract_packet::<m![P / 2]>()");
    bad = replaced(bad, "m![N], m![M], m![P]> = a", "m![N], m![M], m![P / 2]> = a");
    auto a = analyze(bad);
    REQUIRE(has_code(a.diagnostics, "E-TYPE-023"));
    for (const auto& d : a.diagnostics)
      if (d.code == "E-TYPE-023") CHECK(d.message.find("Packet") != std::string::npos);
  }
  SECTION("a chain the Outer stage's verifier refuses (the same rules as a kernel's)") {
    // A TRF Element that holds P in another order than OutPacket: the same ContractTime type, but
    // the replicated packet cells would need different TRF data (E-OUTER-010).
    std::string bad = replaced(text, "m![N], m![P]> = TrfTensor::new();",
                               "m![N], m![P % 2, P / 2]> = TrfTensor::new();");
    bad = replaced(bad, ".contract_outer::<m![M], m![P], m![N], m![P], _>(&b)",
                   ".contract_outer::<m![M], m![P], m![N], m![P % 2, P / 2], _>(&b)");
    auto a = analyze(bad);
    REQUIRE(!has_errors(a.diagnostics)); // it types: the verifier is what refuses it
    const auto kc = ir::verify::check_kernel(a.file, a.file.kernels.front());
    CHECK_FALSE(kc.ok());
    const auto all = kc.all_diagnostics();
    REQUIRE(has_code(all, "E-OUTER-010"));
    for (const auto& d : all)
      if (d.code == "E-OUTER-010") CHECK(d.span->offset > driver);
    CHECK(kc.stages.front().ok()); // the kernel's own contract_lane is fine
  }
  SECTION("a call with the wrong number of arguments") {
    auto a = analyze(replaced(text, "lane_interleaved(i);", "lane_interleaved(i, i);"));
    CHECK(has_code(a.diagnostics, "E-TYPE-023"));
  }
}

TEST_CASE("driver code tujit cannot read stays ignored", "[lang]") {
  // Statements outside the kernel language (closures, macros) in driver code are not errors.
  const std::string text = lane_interleaved_text() +
                           "let f = |x: u32| x + 1;\nlet v = vec![1, 2, 3];\nlet n: u32 = 3;\n";
  auto a = analyze(text);
  CHECK(!has_errors(a.diagnostics));
  REQUIRE(a.file.kernels.size() == 1);
  CHECK(a.file.kernels.front().driver.size() == 3);
}

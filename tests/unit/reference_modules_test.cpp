// The reference's Switch Engine assertion fixtures as the reference writes them, in modules
// (tests/data/reference/src/, copied from furiosa-opt-examples with only a header comment added):
// switch_assertions.rs holds the 18 valid twins in seven `pub mod` blocks, and
// negative/switch_assertions.rs the 27 kernels that must be refused, its axes imported from the
// first file by `pub use crate::switch_assertions::{A, B, C, D, E, G};`
// (docs/kernel-language.md §1.2).
//
// Which kernels are valid: furiosa-opt-examples tests/switch_assertions_tests.rs launches each of
// the 18. Which rule each negative kernel breaks: the negative file's header (each states the
// switch or collect mapping the compiler must refuse, named by the kernel) with the reference's
// switch error taxonomy (furiosa-opt-lower-types src/switch.rs: ZeroDimension, SliceNotDivisible,
// TimeNotDivisible, OutputMismatch of the OutSlice or OutTime frame, BroadcastNotNew) and the
// collect rules (PacketMismatch, TimeMismatch). The reference's snapshot of the exact diagnostics
// (`snapshot.toml`, which negative/mod.rs describes) is not public; the table below is worked from
// those rules, kernel by kernel, not read from tujit.
//
// Every kernel of both files ends with `result.view().to_hbm_view(&mut ctx.tdma,
// output.view_mut())`: the DMA write of its result into the output parameter `output: &mut
// HbmTensor<…>` (docs/kernel-language.md §6). The files are read and run as written.
#include "tests/support/cli_capture.h"
#include "tests/support/text_file.h"

#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>

using namespace tujit;
namespace fs = std::filesystem;

namespace {

const fs::path kSrc = fs::path(TUJIT_SOURCE_DIR) / "tests/data/reference/src";

// furiosa-opt-examples tests/switch_assertions_tests.rs: one launch per kernel, in file order.
const std::vector<std::string> kValid = {
    "alignment::aligned_fetch_packet_i8",
    "alignment::aligned_fetch_packet_bf16",
    "packet::packet_padding_unchanged",
    "packet::packet_padding_added_in_switch",
    "packet::packet_nested_padding",
    "packet::packet_restructuring",
    "packet::valid_padding",
    "slice::valid_matching_slice_sizes",
    "broadcast1::valid_basic",
    "broadcast1::valid_degenerate",
    "broadcast01::valid_only_slice1",
    "broadcast01::valid_with_time0",
    "broadcast01::valid_broadcast_with_padding",
    "transpose::valid_single_axis",
    "transpose::valid_three_axes",
    "transpose::valid_split_inner",
    "inter_transpose::valid",
    "inter_transpose::valid_degenerate",
};

struct Refusal {
  std::string kernel;
  std::string code;
  const char* why;
};

// Each negative kernel and the rule it breaks, in file order.
const std::vector<Refusal> kRefused = {
    {"packet::packet_mismatch", "E-COLLECT-002",
     "PacketMismatch: Packet2 `A # 32` is not the fetched packet's flit, B (32 i8)"},
    {"packet::collect_time_mismatch", "E-COLLECT-003",
     "TimeMismatch: bf16 B = 32 is two flits, so Time2 must be A, B / 16, not A"},
    {"broadcast1::invalid_slice1_zero", "E-SWITCH-001", "ZeroDimension: slice1 0"},
    {"broadcast1::invalid_slice_size", "E-SWITCH-004",
     "SliceNotDivisible: 256 slices do not split at 3 x 64 (slice2 is what is left, so the "
     "split comes before any size is checked for a power of two)"},
    {"broadcast1::invalid_slice2_mismatch", "E-SWITCH-006",
     "OutSlice: slice2 of C is C / 64, the kernel puts D % 4 there"},
    {"broadcast1::invalid_broadcast_axes_not_new", "E-SWITCH-008",
     "BroadcastNotNew: the slice1 slot carries C / 64, an axis of InSlice"},
    {"broadcast1::invalid_slice0_mismatch", "E-SWITCH-006",
     "OutSlice: slice0 is C % 64, the kernel puts D % 64 there"},
    {"broadcast1::invalid_out_time", "E-SWITCH-007",
     "OutTime: slice1 (C / 64) moves after InTime A, the kernel writes E % 4"},
    {"broadcast01::invalid_slice0_zero", "E-SWITCH-001", "ZeroDimension: slice0 0"},
    {"broadcast01::invalid_slice_size", "E-SWITCH-004",
     "SliceNotDivisible: 256 slices do not split at 3 x 2"},
    {"broadcast01::invalid_time_size", "E-SWITCH-007",
     "OutTime: time0 2 splits A, so OutTime is A / 2, C / 2 % 2, A % 2, C % 2"},
    {"broadcast01::invalid_slice2_mismatch", "E-SWITCH-006",
     "OutSlice: slice2 is C / 4, the kernel writes C / 8"},
    {"broadcast01::invalid_slice_axes_in_broadcast", "E-SWITCH-008",
     "BroadcastNotNew: the broadcast slot carries C % 4, of InSlice"},
    {"broadcast01::invalid_time_axes_in_broadcast", "E-SWITCH-008",
     "BroadcastNotNew: the broadcast slot carries A % 4, of InTime"},
    {"broadcast01::invalid_out_time", "E-SWITCH-007",
     "OutTime: slice1 moves as C / 2 % 2, the kernel writes C / 2"},
    {"transpose::invalid_time_size", "E-SWITCH-007", "OutTime: a transpose keeps InTime A, not D"},
    {"transpose::invalid_time_mapping", "E-SWITCH-007",
     "OutTime: a transpose keeps InTime A, not E % 8"},
    {"transpose::invalid_transpose_placement", "E-SWITCH-006",
     "OutSlice: the transpose of C / 128, C / 8 % 16, C % 8 is C / 128, C % 8, C / 8 % 16"},
    {"inter_transpose::invalid_time0", "E-SWITCH-001", "ZeroDimension: time0 0"},
    {"inter_transpose::invalid_dims", "E-SWITCH-004",
     "SliceNotDivisible: 256 slices do not split at 3 x 2"},
    {"inter_transpose::invalid_time0_size", "E-SWITCH-005",
     "TimeNotDivisible: InTime A (8) does not split at slice1 x time0 = 4 x 3"},
    // These two fetch B twice (`fetch::<m![A, B / 8], m![B]>`, `fetch::<m![B], m![B]>`): the
    // sequencer reads each fragment of a buffer axis once (FragmentReadTwice, furiosa-opt
    // docs/src/moving-tensors/sequencer.md), so the fetch is refused before the switch. Their
    // switch, fed by a fetch that reads each element once, is OutSlice (E-SWITCH-006):
    // tests/unit/verify_switch_test.cpp.
    {"inter_transpose::invalid_slice2_mismatch", "E-FETCH-011",
     "FragmentReadTwice: B / 8 of Time, then B of Packet"},
    {"inter_transpose::invalid_slice0_mismatch", "E-FETCH-011",
     "FragmentReadTwice: B of Time, then B of Packet"},
    {"inter_transpose::invalid_time1_mismatch", "E-SWITCH-006",
     "OutSlice: time1 (A / 2 % 2) moves into the slice, the kernel puts D % 2 there"},
    {"inter_transpose::invalid_time2_mismatch", "E-SWITCH-007",
     "OutTime: time2 is A / 4, the kernel writes A / 2"},
    {"inter_transpose::invalid_time0_mismatch", "E-SWITCH-007",
     "OutTime: slice1 (C / 16 % 2) moves innermost, the kernel writes A / 2 % 2, D % 2"},
    {"inter_transpose::invalid_slice1_mismatch", "E-SWITCH-007",
     "OutTime: slice1 (C / 16 % 2) moves innermost, the kernel writes D % 2"},
};

ir::SpecAnalysis analyze_file(const fs::path& p) {
  return ir::analyze(SourceBuffer(p.string(), testing::read_text_file(p)));
}

std::vector<std::string> names(const ir::SpecAnalysis& a) {
  std::vector<std::string> out;
  for (const auto& k : a.file.kernels) out.push_back(k.name);
  return out;
}

/// No diagnostic of the front end: the modules, the import and every kernel's DMA write into its
/// output parameter type.
void check_front_end_accepts(const ir::SpecAnalysis& a) {
  for (const auto& d : a.diagnostics) {
    INFO(d.code << " " << d.message);
    CHECK(d.severity != Severity::Error);
  }
  for (const auto& k : a.file.kernels) {
    INFO(k.name);
    CHECK(k.ok);
    // The body's last statement writes `output`, which is the kernel's result.
    REQUIRE(!k.stages.empty());
    CHECK(k.stages.back().op == ir::StageOp::ToHbm);
    CHECK(k.stages.back().target == "output");
    REQUIRE(k.returned);
    CHECK(k.returned->kind == ir::TensorKind::Hbm);
  }
}

} // namespace

TEST_CASE("reference switch fixtures: the valid twins, module by module, as written",
          "[lang][modules][switch]") {
  const ir::SpecAnalysis a = analyze_file(kSrc / "switch_assertions.rs");
  CHECK(names(a) == kValid);
  check_front_end_accepts(a);
  for (const auto& k : a.file.kernels) {
    INFO(k.name);
    const auto check = ir::verify::check_kernel(a.file, k);
    for (const auto& d : check.all_diagnostics()) UNSCOPED_INFO(d.code << " " << d.message);
    CHECK(check.ok());
  }
}

TEST_CASE("reference switch fixtures: the negative file imports its axes from the valid one",
          "[lang][modules][switch]") {
  const ir::SpecAnalysis a = analyze_file(kSrc / "negative" / "switch_assertions.rs");
  std::vector<std::string> expected;
  for (const auto& r : kRefused) expected.push_back(r.kernel);
  CHECK(names(a) == expected);
  // A, B, C, D, E, G come from switch_assertions.rs (F, which no fixture names, does not).
  for (const char* axis : {"A", "B", "C", "D", "E", "G"}) CHECK(a.file.axes.find(axis) != nullptr);
  CHECK(a.file.axes.find("F") == nullptr);
  CHECK(a.file.axes.find("C")->size == 256);
  check_front_end_accepts(a); // the verifiers refuse them
}

TEST_CASE("reference switch fixtures: each negative kernel is refused with its rule",
          "[lang][modules][switch]") {
  const ir::SpecAnalysis a = analyze_file(kSrc / "negative" / "switch_assertions.rs");
  REQUIRE(a.file.kernels.size() == kRefused.size());
  for (std::size_t i = 0; i < kRefused.size(); ++i) {
    const ir::Kernel& k = a.file.kernels[i];
    INFO(k.name << ": " << kRefused[i].why);
    REQUIRE(k.name == kRefused[i].kernel);
    const Diagnostics found = ir::verify::check_kernel(a.file, k).all_diagnostics();
    const auto first = std::find_if(found.begin(), found.end(), [](const Diagnostic& d) {
      return d.severity == Severity::Error;
    });
    REQUIRE(first != found.end());
    CHECK(first->code == kRefused[i].code);
  }
}

TEST_CASE("reference switch fixtures: tujit check and run name kernels by module path",
          "[lang][modules][switch][cli-check]") {
  const std::string valid = (kSrc / "switch_assertions.rs").string();
  const testing::TujitCommand check{"check"}, run{"run"};
  const auto doc = check({valid, "--kernel", "packet::valid_padding", "--json"});
  CHECK(doc.status == 0);
  const auto j = doc.json();
  REQUIRE(j["kernels"].size() == 1);
  CHECK(j["kernels"][0]["name"] == "packet::valid_padding");
  // The last segment alone picks a kernel when no other has it; two kernels named
  // `valid_degenerate` need their module.
  CHECK(check({valid, "--kernel", "valid_padding", "--json"}).json()["kernels"][0]["name"] ==
        "packet::valid_padding");
  const auto both = check({valid, "--kernel", "valid_degenerate"});
  CHECK(both.status == 2);
  CHECK(both.err.find("names 2 kernels") != std::string::npos);
  // `tujit run --verify` on each valid twin as written: both engines and the oracle agree on
  // what the kernel writes into `output`.
  for (const std::string& k : kValid) {
    INFO(k);
    const auto r = run({valid, "--kernel", k, "--verify"});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("jit vs interp: bit-exact") != std::string::npos);
    CHECK(r.out.find("oracle: ok (max abs err 0, 0 mismatches)") != std::string::npos);
  }
}

// Shared by the cycle-model tests: load a spec (file or text), lower its chain, build small
// contraction kernels inline.
#pragma once

#include "harness/cycles/cycle_model.h"
#include "harness/cycles/cycle_report.h"
#include "harness/cycles/kernel_cycles.h"
#include "ir/lang/kernel.h"
#include "ir/seq/lower_contraction.h"
#include "tests/support/checked.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <string>

namespace tujit::cycles_test {

struct Lowered {
  ir::seq::ContractionProgram program;
  cycles::CycleOptions options;
};

inline std::string spec_path(const std::string& rel) {
  return (std::filesystem::path(TUJIT_SOURCE_DIR) / rel).string();
}

/// Every command of the one kernel of `file` timed and scheduled; the diagnostics are shown when
/// the file or the models refuse it.
inline cycles::KernelCycles time_kernel_file(const Result<ir::SpecFile>& file) {
  if (!file)
    for (const auto& d : file.diagnostics()) UNSCOPED_INFO(d.code << ": " << d.message);
  REQUIRE(file);
  REQUIRE(file->kernels.size() == 1);
  auto k = cycles::kernel_cycles(testing::checked(file->kernels.front()));
  if (!k)
    for (const auto& d : k.diagnostics()) UNSCOPED_INFO(d.code << ": " << d.message);
  REQUIRE(k);
  return *k;
}

inline cycles::KernelCycles time_text(const std::string& text) {
  INFO(text);
  return time_kernel_file(ir::analyze_spec(SourceBuffer("cycles_test.rs", text)));
}

/// The first kernel of `file` that lowers, with the options the kernel implies.
inline std::optional<Lowered> lower_file(const ir::SpecFile& file) {
  for (const auto& k : file.kernels) {
    auto p = ir::seq::lower_contraction(testing::checked(k));
    if (p) return Lowered{*p, cycles::cycle_options_for(testing::checked(k))};
  }
  return std::nullopt;
}

inline Lowered lower_spec_file(const std::string& rel) {
  auto file = ir::load_spec(spec_path(rel));
  INFO(rel);
  REQUIRE(file);
  auto l = lower_file(*file);
  REQUIRE(l);
  return *l;
}

inline Lowered lower_text(const std::string& text) {
  auto file = ir::analyze_spec(SourceBuffer("cycles_test.rs", text));
  INFO(text);
  if (!file) {
    for (const auto& d : file.diagnostics()) UNSCOPED_INFO(d.code << ": " << d.message);
  }
  REQUIRE(file);
  auto l = lower_file(*file);
  REQUIRE(l);
  return *l;
}

/// A one-packet contraction over K (PackSize `ps` flits of `d`), M in Time, `lanes` TRF lanes
/// (N), and a TRF-only axis B broadcast in time when b > 1 (docs/contraction.md §11 ex 2, 4, 17).
inline std::string chain_kernel(const std::string& d, int lanes, int ps, int m, int b,
                                const std::string& mode = "Interleaved") {
  const bool i8 = d == "i8";
  const int fe = i8 ? 32 : 16;
  const int k = fe * ps;
  const std::string acc = i8 ? "i32" : "f32";
  std::string axes = fmt::format("M = {}, K = {}", m, k);
  if (lanes > 1) axes += fmt::format(", N = {}", lanes);
  if (b > 1) axes += fmt::format(", B = {}", b);
  const std::string lane = lanes > 1 ? "N" : "1";
  const std::string element = b > 1 ? "B, K" : "K";
  const std::string ot = b > 1 ? "M, B" : "M";
  std::string t3 = ot, p3;
  if (mode == "Sequential") {
    if (lanes > 1) t3 += ", N";
    p3 = "1 # 8";
  } else {
    p3 = lanes == 8 ? "N" : (lanes > 1 ? "N # 8" : "1 # 8");
  }
  return fmt::format(
      R"(axes![{axes}];
fn kern<'l, const T: Tu>(
    input: CollectTensor<'l, T, {d}, m![1], m![1 # 2], m![1 # 256], m![M, K / {fe}], m![K % {fe}]>,
    trf: &TrfTensor<{d}, m![1], m![1 # 2], m![1 # 256], m![{lane}], m![{element}]>,
) -> ContractTensor<'l, T, {acc}, m![1], m![1 # 2], m![1 # 256], m![{t3}], m![{p3}]> {{
    input
         .contract_outer::<m![{ot}], m![K], _, _, _>(trf)
         .contract_packet::<m![1]>()
         .contract_time::<m![{ot}]>()
         .contract_lane::<m![{t3}], m![{p3}]>(LaneMode::{mode})
}}
)",
      fmt::arg("axes", axes), fmt::arg("d", d), fmt::arg("fe", fe), fmt::arg("lane", lane),
      fmt::arg("element", element), fmt::arg("acc", acc), fmt::arg("t3", t3), fmt::arg("p3", p3),
      fmt::arg("ot", ot), fmt::arg("mode", mode));
}

/// One stage's row of a trace.
inline const cycles::StageTrace& stage(const cycles::TraceCycles& t, cycles::Stage s) {
  return t.stages[static_cast<std::size_t>(s)];
}

} // namespace tujit::cycles_test

// The reference's example files as it writes them (tests/data/reference/src/, from
// furiosa-opt-examples/src/): every `#[device]` kernel of its Switch Engine and transpose examples
// runs with --verify, the engines bit for bit and the oracle agreeing.
#include "tests/support/saved_run.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace tujit;

namespace {

const std::string kDir = "tests/data/reference/src/";

void runs_verified(const std::string& file, const std::string& kernel) {
  testing::require_runs_verified(kDir + file, kernel);
}

} // namespace

TEST_CASE("reference kernels: every kernel of switch_engine.rs runs with --verify",
          "[reference][switch]") {
  // The file's seven `#[device]` functions, by name.
  for (const char* k : {"custom_broadcast", "custom_broadcast_ring2", "custom_broadcast_ring8",
                        "custom_broadcast_multi", "custom_broadcast_moved_axis",
                        "custom_broadcast_transpose", "custom_broadcast_split_tile"})
    runs_verified("switch_engine.rs", k);
  // No other kernel in the file goes unrun.
  const testing::CliRun listed =
      testing::run_tujit({"check", testing::source_path(kDir + "switch_engine.rs")});
  CHECK(listed.out.find("7 kernels: 7 ok") != std::string::npos);
}

TEST_CASE("reference kernels: transpose.rs, two HBM → HBM transfers, hands on its input",
          "[reference][dma]") {
  // A transfer moves the tensor unchanged (docs/dma.md §1): the result, [C, A, B] in HBM, is the
  // input's logical tensor, written in the axes' declaration order [A, B, C] like every output.
  testing::TempDir dir("reference_transpose");
  auto arrays = testing::run_saved(kDir + "transpose.rs", dir, "11");
  REQUIRE(arrays.count("input") == 1);
  REQUIRE(arrays.count("out") == 1);
  const runtime::NpyArray& in = arrays.at("input");
  const runtime::NpyArray& out = arrays.at("out");
  CHECK(in.shape == std::vector<std::uint64_t>{8, 16, 32});
  CHECK(out.shape == in.shape);
  CHECK(out.dtype == in.dtype);
  CHECK(testing::npy_values<std::uint32_t>(out) == testing::npy_values<std::uint32_t>(in));
}

TEST_CASE("reference kernels: a kernel of transfers that broadcasts is refused, not run short",
          "[reference][dma]") {
  // HBM [A] copied along B by DMA (docs/dma.md §1, a broadcast): the run would hand on the
  // parameter without its copies, so it refuses with E-RUN-110 instead.
  testing::TempDir dir("reference_broadcast");
  const std::string spec = dir.file("bcast.rs", R"(use furiosa_opt_std::prelude::*;
type Chip = m![1];
axes![A = 64, B = 4];
#[device(chip = 1)]
pub fn bcast(ctx: &mut Context, input: &HbmTensor<f32, Chip, m![A]>) -> HbmTensor<f32, Chip, m![B, A]> {
    input.to_hbm(&mut ctx.tdma)
}
)");
  const testing::CliRun checked = testing::run_tujit({"check", spec});
  INFO(checked.out << checked.err);
  REQUIRE(checked.status == 0); // a valid kernel
  const testing::CliRun r = testing::run_tujit({"run", spec});
  INFO(r.out << r.err);
  CHECK(r.status != 0);
  CHECK(r.err.find("E-RUN-110") != std::string::npos);
  CHECK(r.err.find("broadcasts `input`") != std::string::npos);
}

TEST_CASE("reference kernels: binary_add.rs adds its two inputs through a called fn's views",
          "[reference][vector]") {
  // binary_add_2048 calls binary_add_kernel with `lhs.view()`, `rhs.view()` (HbmTensorView) and
  // `result.view_mut()` of a `ResultDmTensor::new()`; the callee's pair-mode pass commits into
  // that view (`commit_view`), and the kernel returns the DM tensor moved to HBM
  // (docs/kernel-language.md §6, docs/vector-engine.md §3.5). Each output is lhs + rhs, widened
  // from i8 to i32.
  testing::TempDir dir("reference_binary_add");
  auto arrays = testing::run_saved(kDir + "binary_add.rs", dir, "5");
  REQUIRE(arrays.count("lhs") == 1);
  REQUIRE(arrays.count("rhs") == 1);
  REQUIRE(arrays.count("out") == 1);
  CHECK(arrays.size() == 3); // the built-inside result is not an input
  const auto lhs = testing::npy_values<std::int8_t>(arrays.at("lhs"));
  const auto rhs = testing::npy_values<std::int8_t>(arrays.at("rhs"));
  const auto out = testing::npy_values<std::int32_t>(arrays.at("out"));
  REQUIRE(lhs.size() == 2048);
  REQUIRE(out.size() == lhs.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < out.size(); ++i)
    wrong += out[i] == std::int32_t{lhs[i]} + std::int32_t{rhs[i]} ? 0 : 1;
  CHECK(wrong == 0);
}

// `use super::*` (docs/kernel-language.md §1.1): a kernel file sees its parent module's axes, type
// aliases and consts, found where Rust lays the module out; its own items shadow the parent's; a
// missing parent is a warning, and a name only the parent would define is then unknown.
#include "tests/support/cli_capture.h"

#include "ir/lang/kernel.h"
#include "ir/lang/parent_module.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <string>

using namespace tujit;

namespace {

// The parent module of the reference's examples: axes and aliases, mod items, a kernel of its own.
const char* kParent = R"(use furiosa_opt_std::prelude::*;
type Chip = m![1];
type Cluster = m![1 # 2];
axes![A = 512, B = 256];
const W: usize = 4;
mod normal;
pub use normal::*;

#[device(chip = 1)]
pub fn parent_kernel(ctx: &mut Context, input: &HbmTensor<i32, Chip, m![B]>) -> HbmTensor<i32, Chip, m![B]> {
    let d = input.to_dm::<Cluster, m![B / 2], m![B % 2]>(&mut ctx.tdma);
    d.to_hbm(&mut ctx.tdma)
}
)";

// A child kernel naming Chip, Cluster and A, all from the parent.
const char* kChildBody = R"(
#[device(chip = 1)]
pub fn child(ctx: &mut Context, input: &HbmTensor<i32, Chip, m![A]>) -> HbmTensor<i32, Chip, m![A]> {
    let d = input.to_dm::<Cluster, m![A / 2], m![A % 2]>(&mut ctx.tdma);
    d.to_hbm(&mut ctx.tdma)
}
)";

std::string child_text() {
  return fmt::format("use super::*;\n{}", kChildBody);
}

/// The child with the parent's header written into it: what the import must be equivalent to.
std::string inlined_text() {
  return fmt::format("type Chip = m![1];\ntype Cluster = m![1 # 2];\naxes![A = 512, B = 256];\n{}",
                     kChildBody);
}

void check_same_kernel(const ir::SpecFile& a, const ir::SpecFile& b) {
  REQUIRE(a.kernels.size() == 1);
  REQUIRE(b.kernels.size() == 1);
  const ir::Kernel& x = a.kernels.front();
  const ir::Kernel& y = b.kernels.front();
  REQUIRE(x.stages.size() == y.stages.size());
  for (std::size_t i = 0; i < x.stages.size(); ++i) {
    CHECK(ir::compare_types(x.stages[i].input, y.stages[i].input).empty());
    CHECK(ir::compare_types(x.stages[i].output, y.stages[i].output).empty());
  }
  REQUIRE(x.params.size() == y.params.size());
  CHECK(ir::to_string(*x.params[1].tensor) == ir::to_string(*y.params[1].tensor));
}

} // namespace

TEST_CASE("use super: D/x.rs sees D.rs's axes and aliases, as if written in the file",
          "[lang][use-super]") {
  testing::TempDir dir("use_super");
  std::filesystem::create_directories(dir.path / "vector_engine");
  dir.file("vector_engine.rs", kParent);
  const std::string child = dir.file("vector_engine/normal.rs", child_text());
  auto imported = ir::load_spec(child);
  if (!imported)
    for (const auto& d : imported.diagnostics()) UNSCOPED_INFO(d.code << " " << d.message);
  REQUIRE(imported.ok());
  CHECK(imported->warnings.empty());
  // Only the child's kernel: the parent's kernels stay in their own file.
  REQUIRE(imported->kernels.size() == 1);
  CHECK(imported->kernels.front().name == "child");
  auto written = ir::analyze_spec(SourceBuffer("inlined.rs", inlined_text()));
  REQUIRE(written.ok());
  check_same_kernel(*imported, *written);
  CHECK(ir::lang::parent_module_file(child) == dir.path / "vector_engine.rs");
}

TEST_CASE("use super: D/mod.rs is the parent of D/x.rs, and mod.rs looks one directory up",
          "[lang][use-super]") {
  testing::TempDir dir("use_super_mod");
  std::filesystem::create_directories(dir.path / "src" / "negative");
  const std::string lib = dir.file("src/lib.rs", "type Chip = m![1];\n");
  const std::string mod = dir.file("src/negative/mod.rs", "use super::*;\naxes![A = 512];\n");
  const std::string x = dir.file("src/negative/x.rs", "use super::*;\n");
  CHECK(ir::lang::parent_module_file(x) == std::filesystem::path(mod));
  CHECK(ir::lang::parent_module_file(mod) == std::filesystem::path(lib));
  // Two levels: Chip from lib.rs (through mod.rs's own import), A from mod.rs, Cluster its own.
  dir.file("src/negative/x.rs",
           fmt::format("use super::*;\ntype Cluster = m![1 # 2];\n{}", kChildBody));
  auto spec = ir::load_spec(x);
  if (!spec)
    for (const auto& d : spec.diagnostics()) UNSCOPED_INFO(d.code << " " << d.message);
  REQUIRE(spec.ok());
  auto written = ir::analyze_spec(SourceBuffer("inlined.rs", inlined_text()));
  REQUIRE(written.ok());
  check_same_kernel(*spec, *written);
}

TEST_CASE("use super: the file's own items shadow the parent's", "[lang][use-super]") {
  testing::TempDir dir("use_super_shadow");
  std::filesystem::create_directories(dir.path / "m");
  dir.file("m.rs", "type Chip = m![1];\ntype Cluster = m![1 # 2];\naxes![A = 64, B = 8];\n");
  // The child's A is 512 and its Cluster m![1 # 2] again; B stays the parent's.
  const std::string child = dir.file(
      "m/c.rs",
      fmt::format("use super::*;\naxes![A = 512];\ntype Cluster = m![1 # 2];\n{}", kChildBody));
  auto spec = ir::load_spec(child);
  if (!spec)
    for (const auto& d : spec.diagnostics()) UNSCOPED_INFO(d.code << " " << d.message);
  REQUIRE(spec.ok());
  auto written = ir::analyze_spec(SourceBuffer("inlined.rs", inlined_text()));
  REQUIRE(written.ok());
  check_same_kernel(*spec, *written);
  const ir::Axis* b = spec->axes.find("B");
  REQUIRE(b != nullptr);
  CHECK(b->size == 8);
}

TEST_CASE("use super: no parent module is a warning, and what only it would define is unknown",
          "[lang][use-super]") {
  testing::TempDir dir("use_super_none");
  const std::string child = dir.file("lonely.rs", child_text());
  const ir::SpecAnalysis a = ir::analyze(SourceBuffer(child, child_text()));
  bool warned = false, unknown = false;
  for (const auto& d : a.diagnostics) {
    if (d.code == "E-PARSE-207") warned = d.severity == Severity::Warning;
    if (d.severity == Severity::Error && (d.code == "E-TYPE-003" || d.code == "E-PARSE-107"))
      unknown = true;
  }
  CHECK(warned);
  CHECK(unknown);
}

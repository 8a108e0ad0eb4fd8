// `mod` blocks and `use` imports (docs/kernel-language.md §1.2): the parser's module table, the
// names each module sees (Rust's rules: a module sees what it defines and what it imports; its
// own item shadows a glob import), kernels named by their module path, imports between files of
// a crate, and each diagnostic of the import rules (E-PARSE-209 … 213). A kernel that imports its
// names is compared with the same kernel written with those names in place.
#include "tests/support/cli_capture.h"
#include "tests/support/text_file.h"

#include "ir/lang/kernel.h"
#include "ir/lang/kernel_pick.h"
#include "ir/lang/module_files.h"
#include "ir/lang/parser.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <string>

using namespace tujit;
namespace fs = std::filesystem;

namespace {

// A kernel over axes A, B and the aliases Chip, Cluster, Slice (defined by whoever includes it).
const char* kKernel = R"(
    #[device(chip = 1)]
    pub fn k(ctx: &mut Context, input: &HbmTensor<i8, Chip, m![A, B]>) -> HbmTensor<i8, Chip, m![A, B / { W }, B % { W }]> {
        let d = input.to_dm::<Cluster, Slice, m![A, B / { W }, B % { W }]>(&mut ctx.tdma);
        d.to_hbm(&mut ctx.tdma)
    }
)";

const char* kHeader = "axes![A = 8, B = 32];\ntype Chip = m![1];\ntype Cluster = m![1 # 2];\n"
                      "type Slice = m![1 # 256];\nconst W: usize = 4;\n";

ir::SpecAnalysis analyze_text(const std::string& text, const std::string& name = "t.rs") {
  return ir::analyze(SourceBuffer(name, text));
}

/// The diagnostics with `code`.
std::vector<Diagnostic> with_code(const ir::SpecAnalysis& a, std::string_view code) {
  std::vector<Diagnostic> out;
  for (const auto& d : a.diagnostics)
    if (d.code == code) out.push_back(d);
  return out;
}

std::string dump(const ir::SpecAnalysis& a) {
  std::string out;
  for (const auto& d : a.diagnostics) {
    const auto [line, col] = d.span ? a.file.source.line_col(d.span->offset)
                                    : std::pair<std::uint32_t, std::uint32_t>{0, 0};
    out += fmt::format("{} {}:{} {}\n", d.code, line, col, d.message);
  }
  return out;
}

/// Line and column of `d` in `a`'s file.
std::pair<std::uint32_t, std::uint32_t> at(const ir::SpecAnalysis& a, const Diagnostic& d) {
  REQUIRE(d.span);
  return a.file.source.line_col(d.span->offset);
}

/// The one kernel `name` of `a`, with every stage's input and output compared to `ref`'s `k`.
void check_same_as(const ir::SpecAnalysis& a, const std::string& name, const ir::Kernel& ref) {
  INFO(dump(a));
  const ir::Kernel* k = nullptr;
  for (const auto& x : a.file.kernels)
    if (x.name == name) k = &x;
  REQUIRE(k != nullptr);
  CHECK(k->ok);
  REQUIRE(k->stages.size() == ref.stages.size());
  for (std::size_t i = 0; i < ref.stages.size(); ++i) {
    CHECK(ir::to_string(k->stages[i].input) == ir::to_string(ref.stages[i].input));
    CHECK(ir::to_string(k->stages[i].output) == ir::to_string(ref.stages[i].output));
  }
}

/// The kernel `k` written with the header in place: what every import below must equal.
ir::Kernel reference_kernel() {
  static const ir::SpecAnalysis a = analyze_text(std::string(kHeader) + kKernel);
  INFO(dump(a));
  REQUIRE(!has_errors(a.diagnostics));
  REQUIRE(a.file.kernels.size() == 1);
  return a.file.kernels.front();
}

} // namespace

TEST_CASE("modules: the parser's module table and use trees", "[lang][modules]") {
  const SourceBuffer src("t.rs", R"(use furiosa_opt_std::prelude::*;
pub mod a {
    use super::*;
    pub(crate) mod b { pub use crate::a::{self as here, X, c::{Y as Z, *}}; }
    mod file_module;
    pub struct S;
    pub enum E { One }
}
#[cfg(test)]
mod tests { fn t() {} }
fn f() { mod local {} use crate::a::X; }
)");
  Diagnostics diags;
  const auto tokens = ir::lex(src, diags);
  const ir::lang::ParsedFile p = ir::lang::parse_file(tokens, diags);
  CHECK(diags.empty());
  const auto& ast = p.ast;
  // The file, a, a::b, a::file_module; not the #[cfg(test)] module, nor one inside a fn body.
  REQUIRE(ast.modules.size() == 4);
  CHECK(ast.modules[1].name == "a");
  CHECK(ast.modules[1].parent == 0);
  CHECK(ast.modules[2].name == "b");
  CHECK(ast.modules[2].parent == 1);
  CHECK(ast.modules[3].name == "file_module");
  CHECK_FALSE(ast.modules[3].has_body);
  REQUIRE(ast.fns.size() == 1);
  CHECK(ast.fns[0].name == "f");
  CHECK(ast.fns[0].module == 0);
  // prelude::*, super::*, then self as here, X, Y as Z, c::* (the use inside f is not an item).
  REQUIRE(ast.uses.size() == 6);
  CHECK(ast.uses[0].glob());
  CHECK(ast.uses[0].path == std::vector<std::string>{"furiosa_opt_std", "prelude"});
  CHECK(ast.uses[1].path == std::vector<std::string>{"super"});
  CHECK(ast.uses[1].module == 1);
  CHECK(ast.uses[2].name == "self");
  CHECK(ast.uses[2].bound == "here");
  CHECK(ast.uses[2].module == 2);
  CHECK(ast.uses[3].name == "X");
  CHECK(ast.uses[3].path == std::vector<std::string>{"crate", "a"});
  CHECK(ast.uses[4].name == "Y");
  CHECK(ast.uses[4].bound == "Z");
  CHECK(ast.uses[4].path == std::vector<std::string>{"crate", "a", "c"});
  CHECK(ast.uses[5].glob());
  REQUIRE(ast.others.size() == 2);
  CHECK(ast.others[0].name == "S");
  CHECK(ast.others[0].what == "struct");
  CHECK(ast.others[1].what == "enum");
}

TEST_CASE("modules: a malformed use is a syntax error", "[lang][modules]") {
  const ir::SpecAnalysis a = analyze_text(std::string(kHeader) + "use crate::{A B};\n" + kKernel);
  const auto errors = with_code(a, "E-PARSE-203");
  REQUIRE(errors.size() == 1);
  CHECK(at(a, errors.front()) == std::make_pair(6u, 15u));
}

TEST_CASE("modules: kernels are named by their module path", "[lang][modules]") {
  const std::string text = fmt::format(
      "{}\nmod packet {{\n    use super::*;\n{}\n    pub mod deep {{\n        use super::*;\n{}\n"
      "    }}\n}}\n{}",
      kHeader, kKernel, kKernel, kKernel);
  const ir::SpecAnalysis a = analyze_text(text);
  INFO(dump(a));
  CHECK(!has_errors(a.diagnostics));
  REQUIRE(a.file.kernels.size() == 3);
  CHECK(a.file.kernels[0].name == "k");
  CHECK(a.file.kernels[1].name == "packet::k");
  CHECK(a.file.kernels[2].name == "packet::deep::k");
  const ir::Kernel ref = reference_kernel();
  for (const char* name : {"k", "packet::k", "packet::deep::k"}) check_same_as(a, name, ref);
}

TEST_CASE("modules: --kernel picks by path, or by name when one kernel has it", "[lang][modules]") {
  std::vector<ir::Kernel> ks(3);
  ks[0].name = "k";
  ks[1].name = "packet::k";
  ks[2].name = "packet::only";
  CHECK(ir::pick_kernel(ks, "k").index == std::optional<std::size_t>(0)); // exact wins
  CHECK(ir::pick_kernel(ks, "packet::k").index == std::optional<std::size_t>(1));
  CHECK(ir::pick_kernel(ks, "only").index == std::optional<std::size_t>(2));
  CHECK_FALSE(ir::pick_kernel(ks, "nothing").index);
  ks[0].name = "broadcast1::k";
  const ir::KernelPick two = ir::pick_kernel(ks, "k");
  CHECK_FALSE(two.index);
  CHECK(two.matches == std::vector<std::string>{"broadcast1::k", "packet::k"});
  CHECK(ir::kernel_pick_error(ks, two, "k", "f.rs") ==
        "'k' names 2 kernels in 'f.rs': broadcast1::k, packet::k; give its module path");
  CHECK(ir::pick_kernel(ks, "ket::k").index == std::nullopt); // whole segments only
}

TEST_CASE("modules: a module sees only what it defines and imports", "[lang][modules]") {
  const ir::Kernel ref = reference_kernel();
  SECTION("use super::* brings the parent's axes, aliases and consts") {
    const auto a =
        analyze_text(fmt::format("{}mod m {{\n    use super::*;\n{}}}\n", kHeader, kKernel));
    check_same_as(a, "m::k", ref);
  }
  SECTION("without an import the parent's names are unknown, as in Rust") {
    const auto a = analyze_text(fmt::format("{}mod m {{\n{}}}\n", kHeader, kKernel));
    CHECK(!with_code(a, "E-TYPE-003").empty());  // Chip
    CHECK(!with_code(a, "E-PARSE-107").empty()); // A
  }
  SECTION("named imports from a sibling module, by crate, super and self paths") {
    const auto a = analyze_text(fmt::format(
        "mod defs {{\n    axes![A = 8, B = 32];\n    pub type Chip = m![1];\n    pub type Cl = "
        "m![1 # 2];\n    pub mod inner {{ pub type Slice = m![1 # 256]; pub const W: usize = 4; "
        "}}\n}}\nmod m {{\n    use crate::defs::{{A, B, Chip}};\n    use super::defs::Cl as "
        "Cluster;\n    use super::defs::inner::{{self, W}};\n    use self::inner2::Slice;\n    "
        "mod inner2 {{ pub use crate::defs::inner::Slice; }}\n{}}}\n",
        kKernel));
    check_same_as(a, "m::k", ref);
  }
  SECTION("the module's own item shadows what a glob imports") {
    // The parent's Slice is not the kernel's: m defines its own.
    const auto a = analyze_text(fmt::format(
        "axes![A = 8, B = 32];\ntype Chip = m![1];\ntype Cluster = m![1 # 2];\ntype Slice = "
        "m![1 # 4];\nconst W: usize = 4;\nmod m {{\n    use super::*;\n    type Slice = m![1 # "
        "256];\n{}}}\n",
        kKernel));
    check_same_as(a, "m::k", ref);
  }
  SECTION("two modules glob-importing each other") {
    const auto a = analyze_text(fmt::format(
        "axes![A = 8, B = 32];\ntype Chip = m![1];\nuse m::*;\nmod m {{\n    use super::*;\n    "
        "pub type Cluster = m![1 # 2];\n    pub type Slice = m![1 # 256];\n    pub const W: usize "
        "= 4;\n}}\n{}",
        kKernel));
    check_same_as(a, "k", ref);
  }
  SECTION("a kernel fn of another module, called with its own module's names") {
    // `copy` names Cl, which only its own module defines: its body is typed with lib's names.
    const auto a = analyze_text(R"(
mod lib {
    axes![B = 32];
    pub type Chip = m![1];
    type Cl = m![1 # 2];
    pub fn copy(ctx: &mut Context, input: &HbmTensor<i8, Chip, m![B]>) -> HbmTensor<i8, Chip, m![B]> {
        let d = input.to_dm::<Cl, m![1 # 256], m![B]>(&mut ctx.tdma);
        d.to_hbm(&mut ctx.tdma)
    }
}
mod user {
    use crate::lib::{copy as dup, Chip, B};
    pub fn k(ctx: &mut Context, input: &HbmTensor<i8, Chip, m![B]>) -> HbmTensor<i8, Chip, m![B]> {
        dup(ctx, input)
    }
}
)");
    INFO(dump(a));
    CHECK(!has_errors(a.diagnostics));
    REQUIRE(a.file.kernels.size() == 2);
    CHECK(a.file.kernels[0].name == "lib::copy");
    CHECK(a.file.kernels[1].name == "user::k");
    const ir::Kernel& k = a.file.kernels[1];
    REQUIRE(k.stages.size() == 2); // copy's to_dm and to_hbm, typed at the call
    CHECK(ir::stage_name(k.stages[0]) == "to_dm");
    CHECK(ir::to_string(k.stages[1].output) == ir::to_string(a.file.kernels[0].stages[1].output));
  }
}

TEST_CASE("modules: the import diagnostics", "[lang][modules]") {
  SECTION("E-PARSE-209: no file for the module, with the paths tried") {
    const auto a = analyze_text(std::string("use crate::nowhere::{A};\n") + kHeader + kKernel);
    const auto e = with_code(a, "E-PARSE-209");
    REQUIRE(e.size() == 1);
    CHECK(at(a, e.front()) == std::make_pair(1u, 5u));
    CHECK(e.front().message == "no file for module `crate::nowhere`");
    REQUIRE(!e.front().notes.empty());
    CHECK(e.front().notes.front() == "tried nowhere.rs, nowhere/mod.rs");
  }
  SECTION("E-PARSE-209: a path through a module this file lacks") {
    const auto a = analyze_text(std::string(kHeader) + "mod m { use self::gone::X; }\n" + kKernel);
    CHECK(with_code(a, "E-PARSE-209").size() == 1);
  }
  SECTION("E-PARSE-210: the module has no such item") {
    const auto a = analyze_text(std::string(kHeader) +
                                "mod m { pub type Q = m![1]; }\nuse m::{Q, Nope};\n" + kKernel);
    const auto e = with_code(a, "E-PARSE-210");
    REQUIRE(e.size() == 1);
    CHECK(at(a, e.front()) == std::make_pair(7u, 12u));
    CHECK(e.front().message == "`m` has no item `Nope`");
  }
  SECTION("E-PARSE-211: a chain of imports that comes back") {
    const auto a = analyze_text(std::string(kHeader) +
                                "mod a { pub use super::b::X; }\nmod b { pub use super::a::X; }\n"
                                "use a::X;\n" +
                                kKernel);
    const auto e = with_code(a, "E-PARSE-211");
    CHECK(e.size() == 3);
    CHECK(with_code(a, "E-PARSE-210").empty());
  }
  SECTION("E-PARSE-211: a module importing from itself") {
    const auto a = analyze_text(std::string(kHeader) + "use self::*;\n" + kKernel);
    CHECK(with_code(a, "E-PARSE-211").size() == 1);
  }
  SECTION("E-PARSE-212: a struct, a non-kernel fn, a renamed axis: warned, nothing bound") {
    const auto a = analyze_text(std::string(kHeader) +
                                "mod m { pub struct S; pub fn f() -> usize { 1 } axes![Q = 2]; "
                                "}\nuse m::{S, f, Q as R};\n" +
                                kKernel);
    INFO(dump(a));
    const auto w = with_code(a, "E-PARSE-212");
    REQUIRE(w.size() == 3);
    for (const auto& d : w) CHECK(d.severity == Severity::Warning);
    CHECK(w[0].message == "`S` is not imported: it is a `struct`, outside the kernel language");
    CHECK(!has_errors(a.diagnostics));
  }
  SECTION("E-PARSE-213: a module defined twice; a name both defined and imported") {
    const auto twice = analyze_text(std::string(kHeader) + "mod m {}\nmod m {}\n" + kKernel);
    const auto e = with_code(twice, "E-PARSE-213");
    REQUIRE(e.size() == 1);
    CHECK(at(twice, e.front()) == std::make_pair(7u, 5u));
    const auto both = analyze_text(std::string(kHeader) +
                                   "mod m { pub type Chip = m![1]; }\nuse m::Chip;\n" + kKernel);
    CHECK(with_code(both, "E-PARSE-213").size() == 1);
  }
  SECTION("E-TYPE-001: two modules giving one axis two sizes") {
    const auto a = analyze_text(std::string(kHeader) + "mod m { axes![A = 16]; }\n" + kKernel);
    CHECK(with_code(a, "E-TYPE-001").size() == 1);
  }
}

TEST_CASE("modules: files of a crate import each other by crate path", "[lang][modules]") {
  testing::TempDir dir("modules_crate");
  fs::create_directories(dir.path / "src" / "neg");
  dir.file("src/lib.rs", "pub mod defs;\npub mod neg;\n");
  dir.file("src/defs.rs",
           "use furiosa_opt_std::prelude::*;\naxes![A = 8, B = 32, Z = 4];\npub type Chip = "
           "m![1];\npub type Cluster = m![1 # 2];\npub type Wide = m![Z];\npub mod "
           "layout { pub type Slice = m![1 # 256]; }\npub const W: usize = 4;\npub struct S;\n");
  const std::string child = dir.file(
      "src/neg/mod.rs", fmt::format("use crate::defs::{{A, B, Chip, Cluster, W, Wide}};\nuse "
                                    "crate::defs::layout::Slice;\n{}",
                                    kKernel));
  SECTION("as if the names were written in the file") {
    auto spec = ir::load_spec(child);
    if (!spec)
      for (const auto& d : spec.diagnostics()) UNSCOPED_INFO(d.code << " " << d.message);
    REQUIRE(spec.ok());
    REQUIRE(spec->kernels.size() == 1);
    CHECK(spec->warnings.empty());
    const ir::Kernel ref = reference_kernel();
    const auto a = ir::analyze(SourceBuffer(child, testing::read_text_file(child)));
    check_same_as(a, "k", ref);
    // The other file's alias brings its axis into this file's table (tujit run reads it).
    const ir::Axis* z = spec->axes.find("Z");
    REQUIRE(z != nullptr);
    CHECK(z->size == 4);
  }
  SECTION("crate_location: the crate's source directory and the file's module") {
    const ir::lang::CrateLocation where = ir::lang::crate_location(child);
    CHECK_FALSE(where.standalone);
    CHECK(ir::lang::same_file(where.src, dir.path / "src"));
    CHECK(where.module_path == std::vector<std::string>{"neg"});
    CHECK(ir::lang::crate_location(dir.path / "src" / "lib.rs").module_path.empty());
  }
  SECTION("a missing file lists the paths tried") {
    const std::string x = dir.file("src/neg/x.rs", std::string("use crate::gone::A;\n") + kKernel);
    const auto a = ir::analyze(SourceBuffer(x, testing::read_text_file(x)));
    const auto e = with_code(a, "E-PARSE-209");
    REQUIRE(e.size() == 1);
    const std::string src = (dir.path / "src").string();
    CHECK(e.front().notes.front() == fmt::format("tried {}/gone.rs, {}/gone/mod.rs", src, src));
  }
  SECTION("a file with errors is named at the use") {
    dir.file("src/defs.rs", "axes![A = 8];\naxes![A = 9];\npub type Chip = m![1];\n");
    const auto a = ir::analyze(SourceBuffer(child, testing::read_text_file(child)));
    std::vector<Diagnostic> e;
    for (const auto& d : with_code(a, "E-PARSE-209"))
      if (d.message.find("which has errors") != std::string::npos) e.push_back(d);
    REQUIRE(e.size() == 1); // once for the file, though two `use`s read it
    REQUIRE(e.front().notes.size() == 2);
    CHECK(e.front().notes[0].find("2:7: error[E-TYPE-001]") != std::string::npos);
  }
  SECTION("a kernel fn of another file is not imported") {
    dir.file("src/defs.rs", std::string(kHeader) + kKernel);
    const std::string x =
        dir.file("src/neg/x.rs", "use crate::defs::{A, B, Chip, k};\nfn local() {}\n");
    const auto a = ir::analyze(SourceBuffer(x, testing::read_text_file(x)));
    const auto w = with_code(a, "E-PARSE-212");
    REQUIRE(w.size() == 1);
    CHECK(w.front().message == "`k` is not imported: it is a fn of another file");
  }
  SECTION("a file importing itself") {
    const std::string x =
        dir.file("src/neg/x.rs", std::string("use crate::neg::x::{A};\n") + kHeader + kKernel);
    const auto ok = ir::analyze(SourceBuffer(x, testing::read_text_file(x)));
    // crate::neg::x is this file's own top level: A is its own (E-PARSE-211: from itself).
    CHECK(with_code(ok, "E-PARSE-211").size() == 1);
    const std::string alone =
        dir.file("alone.rs", std::string("use crate::alone::A;\n") + kHeader + kKernel);
    const auto a = ir::analyze(SourceBuffer(alone, testing::read_text_file(alone)));
    const auto e = with_code(a, "E-PARSE-211");
    REQUIRE(e.size() == 1);
    CHECK(e.front().message == "`crate::alone` is this file itself");
  }
}

TEST_CASE("modules: a kernel two modules deep runs as the same kernel at the top level",
          "[lang][modules][cli-run]") {
  // specs/kernels/gemm_kernel.rs with its kernel moved into `mod tiles { mod inner { … } }`.
  const std::string top =
      testing::read_text_file(testing::source_path("specs/kernels/gemm_kernel.rs"));
  const std::size_t at = top.find("#[device(chip = 1)]");
  REQUIRE(at != std::string::npos);
  const std::string nested = top.substr(0, at) + "pub mod tiles {\n    use super::*;\n" +
                             "    pub mod inner {\n        use super::*;\n" + top.substr(at) +
                             "    }\n}\n";
  testing::TempDir dir("modules_run");
  const std::string file = dir.file("gemm_mod.rs", nested);
  const testing::TujitCommand run{"run"};
  const auto a = run({testing::source_path("specs/kernels/gemm_kernel.rs"), "--json"});
  const auto b = run({file, "--kernel", "gemm_kernel", "--json"});
  INFO(b.err);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  CHECK(b.json()["kernel"] == "tiles::inner::gemm_kernel");
  CHECK(b.json()["output"]["sha256"] == a.json()["output"]["sha256"]);
}

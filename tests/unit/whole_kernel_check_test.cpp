// Whole kernels (docs/kernels.md) through the front end and the kernel checker: the reference's
// starter kernels of specs/kernels/ verify as written, and their DMA, cast, trim and commit stages
// derive the values docs/dma.md and docs/output-path.md give, worked out by hand below from the
// kernels' mappings (each expected value's derivation is in its comment).
#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace tujit;
using namespace tujit::ir;
namespace fs = std::filesystem;

namespace {

SpecFile load(const std::string& name) {
  auto f = load_spec((fs::path(TUJIT_SOURCE_DIR) / "specs" / "kernels" / name).string());
  if (!f) {
    std::string why;
    for (const auto& d : f.diagnostics()) why += d.code + " " + d.message + "\n";
    FAIL(name << " does not load:\n" << why);
  }
  return std::move(*f);
}

/// The derived values of the `nth` stage of `op` in the file's only kernel (which must verify).
verify::DerivedTable derived(const SpecFile& file, std::string_view op, std::size_t nth = 0) {
  REQUIRE(file.kernels.size() == 1);
  const Kernel& k = file.kernels.front();
  const verify::KernelCheck check = verify::check_kernel(file, k);
  std::string why;
  for (const auto& d : check.all_diagnostics()) why += d.code + " " + d.message + "\n";
  INFO(why);
  REQUIRE(check.ok());
  for (std::size_t i = 0; i < k.stages.size(); ++i) {
    if (to_string(k.stages[i].op) != op) continue;
    if (nth-- == 0) return check.stages[i].derived;
  }
  FAIL("no stage " << op);
  return {};
}

std::uint64_t num(const verify::DerivedTable& t, const std::string& key) {
  INFO(key);
  REQUIRE(t.count(key) == 1);
  REQUIRE(std::holds_alternative<std::uint64_t>(t.at(key)));
  return std::get<std::uint64_t>(t.at(key));
}

std::string word(const verify::DerivedTable& t, const std::string& key) {
  INFO(key);
  REQUIRE(t.count(key) == 1);
  REQUIRE(std::holds_alternative<std::string>(t.at(key)));
  return std::get<std::string>(t.at(key));
}

} // namespace

TEST_CASE("every starter kernel of specs/kernels/ verifies as written", "[whole_kernel]") {
  for (const auto& e : fs::directory_iterator(fs::path(TUJIT_SOURCE_DIR) / "specs" / "kernels")) {
    if (e.path().extension() != ".rs") continue;
    CAPTURE(e.path().filename().string());
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    std::smatch gap;
    const std::string body = text.str();
    if (std::regex_search(body, gap, std::regex(R"(\n// tujit: expect (E-[A-Z]+-\d{3}))"))) {
      // A kernel tujit does not simulate yet (specs/README.md): refused with the code it names.
      auto refused = load_spec(e.path().string());
      REQUIRE(!refused);
      CHECK(refused.diagnostics().front().code == gap[1].str());
      continue;
    }
    const SpecFile f = load(e.path().filename().string());
    REQUIRE(!f.kernels.empty()); // fetch_table_lookup.rs holds the reference's five
    for (const Kernel& k : f.kernels) {
      CAPTURE(k.name);
      REQUIRE(k.returned);
      CHECK(k.returned->kind == TensorKind::Hbm);
      const verify::KernelCheck check = verify::check_kernel(f, k);
      std::string why;
      for (const auto& d : check.all_diagnostics()) why += d.code + " " + d.message + "\n";
      INFO(why);
      CHECK(check.ok());
      // Every DMA stage runs in the DMA context; no other stage does.
      for (const Stage& s : k.stages) CHECK((s.context == ContextKind::Tdma) == is_dma(s.op));
    }
  }
}

TEST_CASE("fetch_commit_simple: the DMA packets, the commit and the relayout to [B, A]",
          "[whole_kernel]") {
  const SpecFile f = load("fetch_commit_simple.rs");
  // HBM m![A, B] (i8) into DM Element m![A / 8 % 2, A % 8, B]: both layouts run B then the low
  // 16 of A innermost, 8 · 16 = 128 elements = 128 bytes per run. The DM tensor holds all
  // 4096 · 8 = 32768 elements (256 slices × 128 of one cluster): 256 packets of 128 B, one
  // 256-byte request each, over the 8 DMNs of cluster 0 (32 slices each), served by 4 engines.
  const auto to_dm = derived(f, "to_dm");
  CHECK(word(to_dm, "route") == "HBM → DM");
  CHECK(num(to_dm, "run_elements") == 128);
  CHECK(num(to_dm, "run_bytes") == 128);
  CHECK(num(to_dm, "elements") == 32768);
  CHECK(num(to_dm, "packets") == 256);
  CHECK(num(to_dm, "requests") == 256);
  CHECK(num(to_dm, "dmns") == 8);
  CHECK(num(to_dm, "engines") == 4);
  CHECK(num(to_dm, "partial_hbm_writes") == 0);
  CHECK(word(to_dm, "broadcast").empty());
  // commit_trim m![B] of the i32 packet m![B]: 8 · 4 = 32 bytes, nothing trimmed.
  const auto trim = derived(f, "commit_trim");
  CHECK(num(trim, "valid_size") == 8);
  CHECK(num(trim, "valid_bytes") == 32);
  CHECK(num(trim, "trimmed") == 0);
  // The commit writes Time [A / 8 % 2, A % 8] × Packet [B] into Element [A / 8 % 2, A % 8, B]
  // in order: every packet is contiguous, write_size = gcd(8, 8) = 8, one write per packet, 16
  // packets per slice, 128 positions written.
  const auto commit = derived(f, "commit");
  CHECK(num(commit, "valid_size") == 8);
  CHECK(num(commit, "write_size") == 8);
  CHECK(num(commit, "writes_per_packet") == 1);
  CHECK(num(commit, "cycles") == 16);
  CHECK(num(commit, "written") == 128);
  // DM Element innermost B against HBM m![B, A] innermost A: no common run, one i32 (4 bytes)
  // per packet, 32768 of them, each writing part of a 256-byte HBM block.
  const auto to_hbm = derived(f, "to_hbm");
  CHECK(word(to_hbm, "route") == "DM → HBM");
  CHECK(num(to_hbm, "run_elements") == 1);
  CHECK(num(to_hbm, "run_bytes") == 4);
  CHECK(num(to_hbm, "elements") == 32768);
  CHECK(num(to_hbm, "packets") == 32768);
  CHECK(num(to_hbm, "partial_hbm_writes") == 32768);
  CHECK(num(to_hbm, "engines") == 4);
}

TEST_CASE("gemv_kernel: a broadcast transfer, the cast, a partial trim and a 2-byte result",
          "[whole_kernel]") {
  const SpecFile f = load("gemv_kernel.rs");
  // The matrix m![I, J] (bf16) into Slice m![I], Element m![J]: a row of 2048 bf16 = 4096 bytes
  // per run, one packet of 16 requests per slice, 256 slices.
  const auto matrix = derived(f, "to_dm", 0);
  CHECK(num(matrix, "run_elements") == 2048);
  CHECK(num(matrix, "packet_bytes") == 4096);
  CHECK(num(matrix, "elements") == 256 * 2048);
  CHECK(num(matrix, "packets") == 256);
  CHECK(num(matrix, "requests") == 256 * 16);
  CHECK(word(matrix, "broadcast").empty());
  // The vector m![J] into the same layout: the DM tensor names I, the HBM tensor does not, so
  // every slice holds a copy (a broadcast along I): as many elements and packets as the matrix.
  const auto vector = derived(f, "to_dm", 1);
  CHECK(word(vector, "broadcast") == "I");
  CHECK(num(vector, "elements") == 256 * 2048);
  CHECK(num(vector, "packets") == 256);
  // cast::<bf16, m![1 # 16]> of the f32 packet m![1 # 8]: one live element, 32 bytes in and out.
  const auto cast = derived(f, "cast");
  CHECK(num(cast, "elements") == 1);
  CHECK(num(cast, "in_bytes") == 32);
  CHECK(num(cast, "out_bytes") == 32);
  // commit_trim m![1 # 4]: 4 bf16 = 8 bytes kept of 16.
  const auto trim = derived(f, "commit_trim");
  CHECK(num(trim, "valid_size") == 4);
  CHECK(num(trim, "valid_bytes") == 8);
  CHECK(num(trim, "trimmed") == 12);
  // One packet per slice into Element m![1 # 4], contiguous: one write, one live element.
  const auto commit = derived(f, "commit");
  CHECK(num(commit, "write_size") == 4);
  CHECK(num(commit, "cycles") == 1);
  CHECK(num(commit, "written") == 1);
  // DM m![1 # 4] per slice into HBM m![I]: one bf16 (2 bytes) per packet, 256 packets.
  const auto to_hbm = derived(f, "to_hbm");
  CHECK(num(to_hbm, "run_bytes") == 2);
  CHECK(num(to_hbm, "packets") == 256);
  CHECK(num(to_hbm, "partial_hbm_writes") == 256);
}

TEST_CASE("gemm_kernel: b is copied to every I / 32 row of slices", "[whole_kernel]") {
  const SpecFile f = load("gemm_kernel.rs");
  // a m![I, K] into Slice m![I / 32, J / 32], Element m![I % 32, K]: a tile of 32 · 64 bf16 =
  // 4096 bytes per slice, copied to the 16 J / 32 slices of its I / 32 row (J a broadcast).
  const auto a = derived(f, "to_dm", 0);
  CHECK(word(a, "broadcast") == "J");
  CHECK(num(a, "run_bytes") == 4096);
  CHECK(num(a, "elements") == 256 * 32 * 64);
  // b m![J, K] likewise along I.
  const auto b = derived(f, "to_dm", 1);
  CHECK(word(b, "broadcast") == "I");
  CHECK(num(b, "elements") == 256 * 32 * 64);
}

TEST_CASE("a DMA transfer takes the DMA context and a commit cast the main one", "[whole_kernel]") {
  const auto first_error = [](const std::string& body) {
    const std::string src = "use furiosa_opt_std::prelude::*;\naxes![A = 2048];\n"
                            "type Slice = m![A / 8 # 256];\n" +
                            body;
    const SpecAnalysis a = analyze(SourceBuffer("k.rs", src));
    for (const auto& d : a.diagnostics)
      if (d.severity == Severity::Error) return d.code;
    const verify::KernelCheck c = verify::check_kernel(a.file, a.file.kernels.at(0));
    for (const auto& d : c.all_diagnostics())
      if (d.severity == Severity::Error) return d.code;
    return std::string("none");
  };
  const std::string sig = "fn k(ctx: &mut Context, x: &HbmTensor<f32, m![1], m![A]>) -> "
                          "HbmTensor<bf16, m![1], m![A]> {\n";
  const std::string load = "  let d = x.to_dm::<m![1 # 2], Slice, m![A % 8]>(&mut ctx.tdma);\n";
  const std::string tail = "  o.to_hbm(&mut ctx.tdma)\n}\n";
  const auto chain = [&](const char* context, const char* cast) {
    return std::string("  let o: DmTensor<bf16, m![1], m![1 # 2], Slice, m![A % 8]> = ctx.") +
           context +
           ".begin(d.view()).fetch::<m![1], m![A % 8]>().collect::<m![1], m![A % 8]>()"
           ".commit_trim::<m![A % 8]>()." +
           cast + "::<bf16>().commit();\n";
  };
  CHECK(first_error(sig + load + chain("main", "commit_cast") + tail) == "none");
  CHECK(first_error(sig + load + chain("main", "commit_cast_relu") + tail) == "none");
  CHECK(first_error(sig + load + chain("sub", "commit_cast") + tail) == "E-CTX-006");
  CHECK(first_error(sig + "  let d = x.to_dm::<m![1 # 2], Slice, m![A % 8]>(&mut ctx.sub);\n" +
                    chain("main", "commit_cast") + tail) == "E-CTX-005");
  CHECK(first_error(sig + "  let d = x.to_dm::<m![1 # 2], Slice, m![A % 8]>();\n" +
                    chain("main", "commit_cast") + tail) == "E-CTX-005");
  CHECK(first_error(sig + load + chain("main", "commit_cast") + "  o.to_hbm(&mut ctx.main)\n}\n") ==
        "E-CTX-005");
}

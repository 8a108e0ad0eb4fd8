// The Vector Engine pass (docs/vector-engine.md §2–§4): the book's store_pass checks clean and runs
// on both engines bit for bit; each chain rule of ir/verify/vector_engine.h refuses its case with
// its code (the split / concat / trim / pad rules with the reference's own test vector, the
// padded stride/modulo split of furiosa-opt-lower's vector/tensor.rs); the contexts' rules
// (E-CTX) and VrfTensor::reshape's two safe forms.
#include "tests/support/cli_capture.h"
#include "tests/support/error_codes.h"

#include "ir/lang/kernel.h"
#include "ir/mapping/syntax.h"
#include "ir/seq/vector_program.h"
#include "ir/verify/kernel_checker.h"
#include "ir/verify/vector_engine.h"
#include "runtime/npy/npy.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <set>
#include <string>

using namespace tujit;

namespace {

const auto codes = testing::error_codes;

/// A kernel with one f32 (or i32) collect stream of `packet` elements per flit, entering `chain`.
std::string pass(const std::string& chain, const std::string& dtype = "f32",
                 const std::string& time = "A / 8", const std::string& packet = "A % 8",
                 const std::string& ret = "") {
  return fmt::format(R"(
axes![A = 64, S = 256];
fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, {0}, m![1], m![1 # 2], m![1 # 256], m![{1}], m![{2}]>,
){3} {{
    input.vector_init(){4}
}}
)",
                     dtype, time, packet, ret, chain);
}

} // namespace

TEST_CASE("vector engine: the book's store_pass checks clean", "[vector]") {
  const std::string file = testing::source_path("specs/store_pass.rs");
  const auto r = testing::run_tujit({"check", file, "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const auto j = r.json();
  // The Register Files page's chain: init, tag, split (Way4), sqrt on FpFpu, concat (Way8),
  // final, then the store at the engine's write port.
  std::vector<std::string> ops;
  for (const auto& s : j["kernels"][0]["stages"]) ops.push_back(s["op"]);
  const std::vector<std::string> want = {"fetch",
                                         "collect",
                                         "vector_init",
                                         "vector_intra_slice_tag",
                                         "vector_narrow_split",
                                         "vector_fp_unary",
                                         "vector_widen_concat",
                                         "vector_final",
                                         "to_vrf"};
  CHECK(ops == want);
  const auto& st = j["kernels"][0]["stages"];
  CHECK(st[4]["derived"]["way"] == 4);
  CHECK(st[5]["derived"]["alu"] == "FpFpu");
  CHECK(st[6]["derived"]["way"] == 8);
}

TEST_CASE("vector engine: chain rules refuse with their codes", "[vector]") {
  const std::string split = ".vector_narrow_split::<m![A / 8, A % 8 / 4], m![A % 4]>()";
  const std::string concat = ".vector_widen_concat::<m![A / 8], m![A % 8]>()";
  const std::string tag = ".vector_intra_slice_tag(TagMode::Zero)";
  // Accepted: split, a float op, concat, final.
  CHECK(codes(pass(tag + split + ".vector_fp_unary(FpUnaryOp::Exp)" + concat + ".vector_final()"))
            .empty());
  // E-VE-002: the tag needs 8-element packets.
  CHECK(codes(pass(tag + ".vector_final()", "f32", "A / 4", "A % 4")).count("E-VE-002"));
  // E-VE-003: a stage before the tag; Fxp after Clip.
  CHECK(codes(pass(".vector_final()")).count("E-VE-003"));
  CHECK(
      codes(pass(tag + ".vector_clip(ClipBinaryOpI32::Max, 0).vector_fxp(FxpBinaryOp::AddFxp, 1)" +
                     ".vector_final()",
                 "i32"))
          .count("E-VE-003"));
  // E-VE-004: a float op on the Way8 stream; vector_final on the Way4 stream.
  CHECK(codes(pass(tag + ".vector_fp_unary(FpUnaryOp::Sqrt).vector_final()")).count("E-VE-004"));
  CHECK(codes(pass(tag + split + ".vector_final()")).count("E-VE-004"));
  // E-VE-005: Sqrt and Tanh both on FpFpu.
  CHECK(codes(pass(tag + split +
                   ".vector_fp_unary(FpUnaryOp::Sqrt).vector_fp_unary(FpUnaryOp::Tanh)" + concat +
                   ".vector_final()"))
            .count("E-VE-005"));
  // E-VE-006: an Fxp op on an f32 stream.
  CHECK(codes(pass(tag + ".vector_fxp(FxpBinaryOp::AddFxp, 1).vector_final()")).count("E-VE-006"));
  // E-VE-008: Time2 that is not [Time, Packet / 4].
  CHECK(codes(pass(tag + ".vector_narrow_split::<m![A / 8], m![A % 4]>()")).count("E-VE-008"));
  // E-VE-010: Packet2 that is not [Time % 2, Packet].
  CHECK(codes(pass(tag + split + ".vector_widen_concat::<m![A / 8], m![A % 4 # 8]>()"))
            .count("E-VE-010"));
  // E-VE-011: trimming a packet whose back half holds data; E-VE-012: pad to a wrong packet.
  CHECK(codes(pass(tag + ".vector_narrow_trim::<m![A % 4]>()")).count("E-VE-011"));
  CHECK(
      codes(pass(tag + ".vector_narrow_trim::<m![A % 2 # 4]>().vector_widen_pad::<m![A % 2 # 4]>()",
                 "f32", "A / 2", "A % 2 # 8"))
          .count("E-VE-012"));
  // E-VE-013: methods and arguments that are not simulated (the reductions are, §3.6, §3.7: a
  // reduce on the Way8 stream breaks the Way rule instead).
  CHECK(codes(pass(tag + ".vector_filter(TagGuard::all())")).count("E-VE-013"));
  CHECK(codes(pass(tag +
                   ".vector_intra_slice_reduce::<A, m![1], m![1 # 4]>(IntraSliceReduceOpF32::Add)"))
            .count("E-VE-004"));
  // A comparison tag is simulated (docs/vector-engine.md §3.4); a repeat array is not an argument
  // form tujit reads (E-VE-015), four comparisons written out are.
  CHECK(codes(pass(".vector_intra_slice_tag(TagMode::Comparison([Cmp::True; 4]))"))
            .count("E-VE-015"));
  CHECK(codes(pass(".vector_intra_slice_tag(TagMode::Comparison([Cmp::True, Cmp::True, "
                   "Cmp::True, Cmp::True]))"))
            .count("E-VE-013") == 0);
  CHECK(codes(pass(tag + ".vector_fxp(FxpBinaryOp::ArithRightShiftRound, 1).vector_final()", "i32"))
            .count("E-VE-013"));
  // E-VE-015: MulF without its ALU.
  CHECK(codes(pass(tag + split + ".vector_fp_binary(FpBinaryOp::MulF, 2.0f32)")).count("E-VE-015"));
  // E-VE-001: a bf16 stream.
  CHECK(codes(pass(tag + ".vector_final()", "bf16", "A / 16", "A % 16")).count("E-VE-001"));
}

TEST_CASE("vector engine: the reference's padded stride/modulo split", "[vector]") {
  // furiosa-opt-lower/src/verify/engine/vector/tensor.rs, vector_narrow_split_padded_stride_modulo:
  // Time R # 24 / 4, Packet [R # 24 % 4, A] → Time2 [R # 24 / 4, R # 24 / 2 % 2],
  // Packet2 [R # 24 % 2, A] with R = 19, A = 2.
  ir::AxisTable axes;
  REQUIRE(axes.add(ir::Axis{"R", 19}));
  REQUIRE(axes.add(ir::Axis{"A", 2}));
  auto m = [&](const char* t) {
    auto r = ir::parse_mapping_text(t, axes);
    REQUIRE(r.ok());
    return *r;
  };
  ir::VectorCall split;
  split.kind = ir::VectorCallKind::NarrowSplit;
  ir::VectorCall init, tag;
  init.kind = ir::VectorCallKind::Init;
  tag.kind = ir::VectorCallKind::Tag;
  const auto t = m("R # 24 / 4"), p = m("R # 24 % 4, A");
  std::vector<ir::verify::VectorStep> chain = {
      {init, t, p, t, p, ir::ScalarType::I32, {}, {}, {}, {}},
      {tag, t, p, t, p, ir::ScalarType::I32, {}, {}, {}, {}},
      {split,
       t,
       p,
       m("R # 24 / 4, R # 24 / 2 % 2"),
       m("R # 24 % 2, A"),
       ir::ScalarType::I32,
       {},
       {},
       {},
       {}}};
  auto r = ir::verify::verify_vector_step(chain);
  if (!r)
    for (const auto& d : r.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  CHECK(r.ok());
}

TEST_CASE("vector engine: contexts", "[vector][context]") {
  const std::string dm = R"(
axes![B = 64, K = 32, N = 8];
fn k(ctx: &mut Context) -> VrfTensor<f32, m![1], m![1 # 2], m![1 # 256], m![B]> {
    let dm: DmTensor<f32, m![1], m![1 # 2], m![1 # 256], m![B]> = DmTensor::new();
    ctx.CTX.begin(dm.view()).fetch::<m![1], m![B]>().collect::<m![B / 8], m![B % 8]>().to_vrf(ARG)
}
)";
  auto with = [&](const std::string& ctx, const std::string& arg) {
    std::string s = dm;
    s.replace(s.find("CTX"), 3, ctx);
    s.replace(s.find("ARG"), 3, arg);
    return codes(s);
  };
  CHECK(with("main", "&mut ctx.sub").empty());
  CHECK(with("sub", "").empty());
  CHECK(with("main", "").count("E-CTX-002"));
  CHECK(with("sub", "&mut ctx.sub").count("E-CTX-003"));
  CHECK(with("main", "&mut ctx.main").count("E-CTX-004"));
  CHECK(with("main", "ctx.sub").count("E-CTX-004"));
  // A contraction on a sub-context stream.
  const std::string sub = R"(
axes![M = 32, N = 8, K = 32];
fn k<'l>(
    input: CollectTensor<'l, { Tu::Sub }, bf16, m![1], m![1 # 2], m![1 # 256], m![M, K / 16], m![K % 16]>,
    trf: &TrfTensor<bf16, m![1], m![1 # 2], m![1 # 256], m![N], m![K]>,
) -> ContractTensor<'l, { Tu::Sub }, f32, m![1], m![1 # 2], m![1 # 256], m![M], m![N]> {
    input
        .contract_outer::<m![M], m![K], _, _, _>(trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![M]>()
        .contract_lane::<m![M], m![N]>(LaneMode::Interleaved)
}
)";
  CHECK(codes(sub).count("E-CTX-001"));
  std::string main = sub;
  for (std::size_t at; (at = main.find("Tu::Sub")) != std::string::npos;)
    main.replace(at, 7, "Tu::Main");
  CHECK(codes(main).empty());
  // Only `DmTensor::new()` builds a tensor inside.
  std::string trf_new = dm;
  trf_new.replace(trf_new.find("let dm: DmTensor"), 16, "let dm: TrfTensor");
  CHECK(codes(trf_new).count("E-TYPE-024"));
}

TEST_CASE("vector engine: VrfTensor::reshape accepts the two safe forms only",
          "[vector][reshape]") {
  auto run = [](const std::string& cl, const std::string& sl, const std::string& el,
                const std::string& cl2, const std::string& sl2, const std::string& el2) {
    return codes(fmt::format(R"(
axes![A = 64, S = 256, B = 2, C = 8];
fn k(v: VrfTensor<i32, m![1], m![{0}], m![{1}], m![{2}]>) -> VrfTensor<i32, m![1], m![{3}], m![{4}], m![{5}]> {{
    unsafe {{ v.reshape::<m![1], m![{3}], m![{4}], m![{5}]>() }}
}}
)",
                             cl, sl, el, cl2, sl2, el2));
  };
  // 1. Regrouping: the same Element written differently.
  CHECK(run("2", "256", "A", "2", "256", "A / 8, A % 8").empty());
  // 2. Naming broadcast distribution axes.
  CHECK(run("2", "256", "A", "B", "S", "A").empty());
  // Refused: a permutation of Element, renaming a live axis, a size change, a name in Element.
  CHECK(run("2", "256", "A / 8, A % 8", "2", "256", "A % 8, A / 8").count("E-VRF-004"));
  CHECK(run("2", "256", "A", "2", "256", "S % 64").count("E-VRF-004"));
  CHECK(run("2", "256", "A", "2", "256", "A # 128").count("E-VRF-003"));
  CHECK(run("2", "S", "A", "2", "256", "A").count("E-VRF-004")); // naming is one way only
}

TEST_CASE("vector engine: interpreter and JIT agree bit for bit", "[vector][jit]") {
  // A chain with every layout call (split, concat, trim, pad) and value calls on both paths of
  // the JIT (inlined Sqrt / AddF, called-back Exp / FxpToFp / Clip).
  const std::string text = R"(
axes![A = 512, B = 2];
fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![B], m![A / 2], m![1], m![A % 2 # 8]>,
) -> VectorFinalTensor<'l, T, f32, m![1], m![B], m![A / 2], m![1], m![A % 2 # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_fxp(FxpBinaryOp::MulInt, 3)
        .vector_fxp_to_fp(20)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_fp_unary(FpUnaryOp::Exp)
        .vector_fp_binary(FpBinaryOp::AddF, -1.5f32)
        .vector_fp_unary(FpUnaryOp::Sqrt)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_clip(ClipBinaryOpF32::Max, 0.25f32)
        .vector_final()
}
)";
  testing::TempDir dir("vector_jit");
  const std::string file = dir.file("k.rs", text);
  for (const char* engine : {"jit", "interp"}) {
    const auto r =
        testing::run_tujit({"run", file, "--engine", engine, "--seed", "7", "--verify", "--json"});
    INFO(engine << ": " << r.out << r.err);
    REQUIRE(r.status == 0);
    const auto j = r.json();
    CHECK(j["verify"]["engines_bit_exact"] == true);
    CHECK(j["verify"]["oracle_ok"] == true);
    // Every A and B is held: 256 slices × 2 live lanes of A, on each of the 2 clusters (axes in
    // `axes!` order).
    CHECK(j["output"]["shape"] == nlohmann::json::array({512, 2}));
    CHECK(j["verify"]["poisoned_outputs"] == 0);
  }
}

TEST_CASE("vector engine: tujit run --verify of store_pass on both engines", "[vector][cli]") {
  const std::string file = testing::source_path("specs/store_pass.rs");
  for (const char* engine : {"jit", "interp"}) {
    const auto r = testing::run_tujit({"run", file, "--engine", engine, "--verify", "--json"});
    INFO(engine << ": " << r.out << r.err);
    REQUIRE(r.status == 0);
    const auto j = r.json();
    CHECK(j["verify"]["engines_bit_exact"] == true);
    CHECK(j["verify"]["oracle_ok"] == true);
  }
}

TEST_CASE("vector engine: a pass after a contraction runs on both engines", "[vector][cli]") {
  // docs/vector-engine.md §4.1: the book's relu on a ContractTensor parameter, and the GEMV chain
  // whose output goes through the same ReLU pass into the VRF.
  for (const char* spec : {"specs/relu.rs", "specs/derived/gemv_relu.rs"})
    for (const char* engine : {"jit", "interp"}) {
      const auto r = testing::run_tujit(
          {"run", testing::source_path(spec), "--engine", engine, "--verify", "--json"});
      INFO(spec << " " << engine << ": " << r.out << r.err);
      REQUIRE(r.status == 0);
      const auto j = r.json();
      CHECK(j["verify"]["engines_bit_exact"] == true);
      CHECK(j["verify"]["oracle_ok"] == true);
    }
  // The pass changes the chain's output exactly as ReLU does: gemv_relu's output is max(x, 0) of
  // gemv_kernel's on the same seeded inputs (every one of its 256 rows, about half negative).
  testing::TempDir dir("vector_after_chain");
  const auto plain = dir.file("plain.npy"), relu = dir.file("relu.npy");
  for (const auto& [spec, out] : {std::pair{"specs/derived/gemv_kernel.rs", plain},
                                  std::pair{"specs/derived/gemv_relu.rs", relu}}) {
    const auto r = testing::run_tujit(
        {"run", testing::source_path(spec), "--seed", "3", "--output", out, "--force"});
    INFO(r.err);
    REQUIRE(r.status == 0);
  }
  const auto a = runtime::read_npy_file(plain), b = runtime::read_npy_file(relu);
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(a->elements() == 256);
  REQUIRE(b->elements() == 256);
  std::size_t negative = 0, wrong = 0;
  for (std::size_t i = 0; i < 256; ++i) {
    float x = 0, y = 0;
    std::memcpy(&x, a->data.data() + 4 * i, 4);
    std::memcpy(&y, b->data.data() + 4 * i, 4);
    negative += x < 0 ? 1 : 0;
    wrong += std::bit_cast<std::uint32_t>(x < 0 ? 0.0f : x) != std::bit_cast<std::uint32_t>(y);
  }
  CHECK(negative > 50);
  CHECK(wrong == 0);
}

// Kernel typing (docs/kernel-language.md, docs/contraction.md §3): the typed Kernel of the
// language spec's example, inference sources, the DmTensor fetch path, aliases and warnings.
#include "ir/lang/kernel.h"
#include "ir/mapping/syntax.h"

#include <catch2/catch.hpp>

using namespace tujit;
using namespace tujit::ir;

namespace {

/// The example of docs/kernel-language.md, verbatim.
const char* kSpecExample = R"(#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![V = 32, M = 32, N = 8, K = 32];   // V batch, M×N output, K contraction

type Chip    = m![1];
type Cluster = m![V / 16];
type Slice   = m![V % 16 # 256];
type Lane    = m![N];

/// Batched matmul, M in Time.
fn bmatmul_m_in_time<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![M, K / 16], m![K % 16]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![K]>,
) -> ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![M], m![N]> {
    input
        .contract_outer::<m![M], m![K], _, _, _>(trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![M]>()
        .contract_lane::<m![M], m![N]>(LaneMode::Interleaved)
}

let mut device = Device::new(Topology { chips: 1, pes: 8 }).unwrap();   // driver code: ignored
)";

SpecAnalysis run(std::string text) {
  return analyze(SourceBuffer("t.rs", std::move(text)));
}

std::string dump(const SpecAnalysis& a) {
  std::string out;
  for (const auto& d : a.diagnostics) out += render(d, &a.file.source);
  return out;
}

/// True when `m` equals the mapping `text` (parsed with the file's axes) by normal form.
bool is(const AxisTable& axes, const Mapping& m, const std::string& text) {
  auto want = parse_mapping_text(text, axes);
  REQUIRE(want.ok());
  return same_mapping(m, *want);
}

bool has_at(const SpecAnalysis& a, std::string_view code, std::uint32_t line, std::uint32_t col,
            Severity sev = Severity::Error) {
  for (const auto& d : a.diagnostics)
    if (d.code == code && d.severity == sev && d.span &&
        a.file.source.line_col(d.span->offset) == std::make_pair(line, col))
      return true;
  return false;
}

} // namespace

TEST_CASE("lang sema: the docs/kernel-language.md example, stage by stage", "[lang]") {
  SpecAnalysis a = run(kSpecExample);
  INFO(dump(a));
  REQUIRE(!has_errors(a.diagnostics));
  const AxisTable& ax = a.file.axes;
  REQUIRE(ax.axes().size() == 4);
  CHECK(ax.find("K")->size == 32);
  REQUIRE(a.file.kernels.size() == 1);
  const Kernel& k = a.file.kernels[0];
  CHECK(k.name == "bmatmul_m_in_time");
  CHECK(k.ok);
  REQUIRE(k.params.size() == 2);
  REQUIRE(k.params[0].tensor);
  CHECK(k.params[0].tensor->kind == TensorKind::Collect);
  CHECK(k.params[0].tensor->dtype == ScalarType::BF16);
  CHECK(is(ax, k.params[0].tensor->mapping(Slot::Slice), "V % 16 # 256"));
  CHECK(is(ax, k.params[0].tensor->mapping(Slot::Time), "M, K / 16"));
  CHECK(k.params[1].by_ref);
  CHECK(k.params[1].tensor->kind == TensorKind::Trf);

  REQUIRE(k.stages.size() == 4);
  const Stage& outer = k.stages[0];
  CHECK(outer.op == StageOp::ContractOuter);
  CHECK(outer.input.kind == TensorKind::Collect);
  REQUIRE(outer.trf);
  CHECK(outer.trf_name == "trf");
  // docs/contraction.md §3: ContractOuterTensor<Acc, D, Ch, Cl, Sl, Lane, OT, OP>; bf16 → f32
  // (§2.1).
  CHECK(outer.output.kind == TensorKind::ContractOuter);
  CHECK(outer.output.dtype == ScalarType::F32);
  CHECK(outer.output.storage == std::optional(ScalarType::BF16));
  CHECK(is(ax, outer.output.mapping(Slot::Lane), "N")); // inferred from the TRF operand
  CHECK(is(ax, outer.output.mapping(Slot::Time), "M"));
  CHECK(is(ax, outer.output.mapping(Slot::Packet), "K"));
  CHECK(is(ax, outer.output.mapping(Slot::Slice), "V % 16 # 256"));
  REQUIRE(outer.type_args.size() == 4); // OT, OP, Lane, TrfElement (TrfD is a scalar)
  CHECK(is(ax, outer.type_args[3].mapping, "K"));

  const Stage& packet = k.stages[1];
  CHECK(packet.op == StageOp::ContractPacket);
  CHECK(packet.output.kind == TensorKind::ContractPacket);
  CHECK(is(ax, packet.output.mapping(Slot::Packet), "1"));
  CHECK(is(ax, packet.output.mapping(Slot::Time), "M"));

  const Stage& time = k.stages[2];
  CHECK(time.output.kind == TensorKind::ContractTime);
  CHECK(is(ax, time.output.mapping(Slot::Time), "M"));
  REQUIRE(time.output.pre_time);
  CHECK(is(ax, time.output.pre_time->mapping, "M"));

  const Stage& lane = k.stages[3];
  CHECK(lane.op == StageOp::ContractLane);
  CHECK(lane.lane_mode == std::optional(LaneMode::Interleaved));
  CHECK(lane.output.kind == TensorKind::Contract);
  CHECK(is(ax, lane.output.mapping(Slot::Time), "M"));
  CHECK(is(ax, lane.output.mapping(Slot::Packet), "N"));
  CHECK(is(ax, lane.input.mapping(Slot::Lane), "N")); // the Lane the folder folds

  REQUIRE(k.declared_return);
  REQUIRE(k.returned);
  CHECK(compare_types(*k.declared_return, *k.returned).empty());
  // The stage span starts at the method name (line 17 of the example).
  CHECK(a.file.source.line_col(outer.name_span.offset) == std::make_pair(17u, 10u));
  CHECK(a.file.source.line_col(outer.type_args[0].span.offset) == std::make_pair(17u, 27u));
}

TEST_CASE("lang sema: omitted type arguments come from the return type and `let`", "[lang]") {
  SpecAnalysis a = run(R"(axes![B = 32, N = 8, K = 32];
fn load_trf<'l, const T: Tu>(
    input: CollectTensor<'l, T, i8, m![1], m![1 # 2], m![1 # 256], m![1], m![B]>,
) -> TrfTensor<i8, m![1], m![1 # 2], m![1 # 256], m![1], m![B]> {
    input.to_trf()
}
fn two<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, m![1], m![1 # 2], m![1 # 256], m![N, K / 16], m![K % 16]>,
) -> TrfTensor<bf16, m![1], m![1 # 2], m![1 # 256], m![N], m![K]> {
    let t: TrfTensor<bf16, m![1], m![1 # 2], m![1 # 256], m![N], m![K]> = input.to_trf::<_, _>();
    t
}
)");
  INFO(dump(a));
  REQUIRE(!has_errors(a.diagnostics));
  REQUIRE(a.file.kernels.size() == 2);
  const Stage& s = a.file.kernels[0].stages.at(0);
  CHECK(s.op == StageOp::ToTrf);
  CHECK(is(a.file.axes, s.output.mapping(Slot::Lane), "1"));
  CHECK(is(a.file.axes, s.output.mapping(Slot::Element), "B"));
  const Stage& t = a.file.kernels[1].stages.at(0);
  CHECK(is(a.file.axes, t.output.mapping(Slot::Lane), "N"));
  CHECK(t.bound_to == "t");
  CHECK(a.file.kernels[1].returned.has_value());
}

TEST_CASE("lang sema: the DmTensor fetch path with zero point", "[lang]") {
  SpecAnalysis a = run(R"(axes![A = 8, K8 = 32, R = 8];
type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
pub fn zp<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<i8, Chip, Cluster, Slice, m![A, K8]>,
    trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![R, K8]>,
) -> ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![A], m![R]> {
    let trf: TrfTensor<i8, Chip, Cluster, Slice, m![R], m![K8]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R], m![K8]>()
        .fetch_cast::<i8>()
        .collect::<m![R], m![K8]>()
        .to_trf();
    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![K8]>()
        .fetch_zero_point_sub::<i9>(-5)
        .collect::<m![A], m![K8]>()
        .contract_outer::<m![A], m![K8], _, _, i8>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![R]>(LaneMode::Sequential)
}
)");
  INFO(dump(a));
  REQUIRE(!has_errors(a.diagnostics));
  const Kernel& k = a.file.kernels.at(0);
  REQUIRE(k.stages.size() == 11);
  std::vector<StageOp> ops;
  for (const auto& s : k.stages) ops.push_back(s.op);
  CHECK(ops == std::vector<StageOp>{StageOp::Fetch, StageOp::FetchCast, StageOp::Collect,
                                    StageOp::ToTrf, StageOp::Fetch, StageOp::FetchZeroPointSub,
                                    StageOp::Collect, StageOp::ContractOuter,
                                    StageOp::ContractPacket, StageOp::ContractTime,
                                    StageOp::ContractLane});
  const Stage& f = k.stages[0];
  CHECK(f.context == ContextKind::Sub);
  CHECK(f.input.kind == TensorKind::Begin);
  CHECK(is(a.file.axes, f.input.mapping(Slot::Time), "1"));       // begin: Time = m![1]
  CHECK(is(a.file.axes, f.input.mapping(Slot::Packet), "R, K8")); // Packet = the DM Element
  CHECK(f.bound_to == "trf");
  CHECK(k.stages[3].output.kind == TensorKind::Trf);
  const Stage& zp = k.stages[5];
  CHECK(zp.context == ContextKind::Main);
  CHECK(zp.zero_point == std::optional<std::int64_t>(-5));
  CHECK(zp.output.dtype == ScalarType::I9);
  CHECK(k.stages[6].output.dtype == ScalarType::I9);
  const Stage& outer = k.stages[7];
  CHECK(outer.output.dtype == ScalarType::I32); // i9 × i8 → i32 (docs/contraction.md §2.1)
  CHECK(outer.output.storage == std::optional(ScalarType::I9));
  CHECK(outer.trf->dtype == ScalarType::I8);
  CHECK(is(a.file.axes, outer.output.mapping(Slot::Lane), "R"));
  CHECK(k.stages[10].lane_mode == std::optional(LaneMode::Sequential));
}

TEST_CASE("lang sema: aliases inside mappings, consts and tensor aliases", "[lang]") {
  SpecAnalysis a = run(R"(axes![M = 32, K = 32, N = 8];
const S: usize = 16;
type Kp = m![K % { S }];
type Both = m![M, { Kp }];
type In = CollectTensor<'l, T, bf16, m![1], m![1 # 2], m![1 # 256], m![M, K / 16], Kp>;
type D = bf16;
fn f<'l, const T: Tu>(input: In) -> CollectTensor<'l, T, D, m![1], m![1 # 2], m![1 # 256], m![M, K / 16], m![K % 16]> {
    input
}
)");
  INFO(dump(a));
  REQUIRE(!has_errors(a.diagnostics));
  const Kernel& k = a.file.kernels.at(0);
  REQUIRE(k.params.at(0).tensor);
  CHECK(is(a.file.axes, k.params[0].tensor->mapping(Slot::Packet), "K % 16"));
  CHECK(k.stages.empty());
}

TEST_CASE("lang sema: refused operations are errors in kernels, warnings in driver code",
          "[lang]") {
  std::string text = kSpecExample;
  text.append("fn main() {\n    let o = x.vector_add(y).commit_valid_count_pack();\n}\n");
  SpecAnalysis a = run(text);
  INFO(dump(a));
  CHECK(!has_errors(a.diagnostics));
  CHECK(has_at(a, "E-TYPE-009", 25, 15, Severity::Warning));
  CHECK(has_at(a, "E-TYPE-009", 25, 29, Severity::Warning));
}

TEST_CASE("lang sema: an error marks only its own kernel", "[lang]") {
  SpecAnalysis a = run(R"(axes![A = 8];
fn good<'l, const T: Tu>(x: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![1], m![A]>)
    -> VrfTensor<i32, m![1], m![1 # 2], m![1 # 256], m![A]> { x.to_vrf() }
fn bad<'l, const T: Tu>(x: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![1], m![A]>)
    -> VrfTensor<i32, m![1], m![1 # 2], m![1 # 256], m![A]> { x.to_vrm() }
)");
  REQUIRE(a.file.kernels.size() == 2);
  CHECK(a.file.kernels[0].ok);
  CHECK(!a.file.kernels[1].ok);
  CHECK(has_at(a, "E-TYPE-008", 5, 65));
  CHECK(!analyze_spec(SourceBuffer("t.rs", std::string(a.file.source.text()))).ok());
}

TEST_CASE("lang sema: too many errors are cut at the limit", "[lang]") {
  std::string text = "axes![A = 8];\nfn k<'l, const T: Tu>(x: CollectTensor<'l, T, i32, m![1], "
                     "m![1 # 2], m![1 # 256], m![1], m![A]>) {\n";
  for (int i = 0; i < 40; ++i) text += "    let a" + std::to_string(i) + " = x.nope();\n";
  text += "}\n";
  SpecAnalysis a = run(text);
  std::size_t errors = 0;
  for (const auto& d : a.diagnostics) errors += d.severity == Severity::Error;
  CHECK(errors == 20);
  CHECK(a.diagnostics.back().code == "E-PARSE-204");
  CHECK(has_at(a, "E-TYPE-008", 3, 16)); // the first one is kept
}

TEST_CASE("lang sema: one kernel's errors past the limit do not hide another kernel's", "[lang]") {
  const std::string head = "(x: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![1], "
                           "m![A]>) {\n";
  std::string text = "axes![A = 8];\nfn k<'l, const T: Tu>" + head;
  for (int i = 0; i < 40; ++i) text += "    let a" + std::to_string(i) + " = x.nope();\n";
  text += "}\nfn second<'l, const T: Tu>" + head + "    let b = x.nope();\n}\n";
  SpecAnalysis a = run(text);
  REQUIRE(a.file.kernels.size() == 2);
  CHECK(!a.file.kernels[1].ok);
  std::size_t errors = 0;
  for (const auto& d : a.diagnostics) errors += d.severity == Severity::Error;
  CHECK(errors == 21); // 20 of the first kernel, the second's one
  CHECK(has_at(a, "E-TYPE-008", 45, 15));
  CHECK(a.diagnostics.back().code == "E-PARSE-204");
}

TEST_CASE("lang sema: load_spec reports an unreadable file", "[lang]") {
  auto r = load_spec("/nonexistent/dir/kernel.rs");
  REQUIRE(!r.ok());
  CHECK(r.diagnostics().at(0).code == "E-IO-001");
}

// Calls between the fns of a kernel file and `unsafe { x.reshape() }` of a DmTensor
// (docs/kernel-language.md §9, §6.2): a kernel written with helper fns has the stages of the same
// kernel written inline and runs to the same bytes; argument mismatches, recursion and unknown
// callees are refused; a reshape is checked by its rule and handed on cell by cell by the run,
// its output checked against a brute-force computation on the inputs the run saved.
#include "ir/lang/kernel.h"
#include "ir/seq/kernel_commands.h"
#include "runtime/layout/dm_reshape.h"
#include "tests/support/checked.h"
#include "tests/support/error_codes.h"
#include "tests/support/saved_run.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::testing;

namespace {

const std::string kHead = R"(use furiosa_opt_std::prelude::*;

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

axes![M = 4, N = 8, K = 32, P = 2, Q = 8, S = 256];
)";

const std::string kDm = "DmTensor<i32, Chip, Cluster, Slice, m![M, N = 4]>";
const std::string kInputs = R"(
    ctx: &mut Context,
    a: &HbmTensor<i8, Chip, m![M, K]>,
    b: &HbmTensor<i8, Chip, m![N, K]>,
)";

/// The DMA and TRF load of r[M, N] = Σ_K a·b (i8 → i32, the trim keeps N < 4) …
const std::string kProjectBody =
    R"(    let a: DmTensor<i8, Chip, Cluster, Slice, m![M, K]> = a.to_dm(&mut ctx.tdma);
    let b: DmTensor<i8, Chip, Cluster, Slice, m![N, K]> = b.to_dm(&mut ctx.tdma);
    let trf: TrfTensor<i8, Chip, Cluster, Slice, m![N], m![K]> = ctx
        .sub
        .begin(b.view())
        .fetch::<m![N], m![K]>()
        .collect::<m![N], m![K]>()
        .to_trf();
)";
/// … and its contraction, committed.
const std::string kProjectTail = R"(ctx
        .main
        .begin(a.view())
        .fetch::<m![M], m![K]>()
        .collect::<m![M], m![K]>()
        .contract_outer::<m![M], m![K], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![M]>()
        .contract_lane::<m![M], m![N]>(LaneMode::Interleaved)
        .commit_trim::<m![N = 4]>()
        .commit())";

/// A Vector Engine command multiplying the DmTensor `dm` (of type kDm) by 3.
std::string scale_tail(const std::string& dm) {
  return R"(ctx
        .main
        .begin()" +
         dm + R"(.view())
        .fetch::<m![M], m![N = 4 # 8]>()
        .collect::<m![M], m![N = 4 # 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_fxp(FxpBinaryOp::MulInt, 3)
        .vector_final()
        .commit_trim::<m![N = 4]>()
        .commit())";
}

/// The same multiplication of a DmTensor `dm` over [P, Q].
std::string scale_pq_tail(const std::string& dm) {
  return R"(ctx
        .main
        .begin()" +
         dm + R"(.view())
        .fetch::<m![P], m![Q]>()
        .collect::<m![P], m![Q]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_fxp(FxpBinaryOp::MulInt, 3)
        .vector_final()
        .commit_trim::<m![Q]>()
        .commit())";
}

/// The helpers `project` (the contraction) and `scale` (× 3), then `extra` fns, then the kernel
/// `forward` returning `ret` with `body`.
std::string with_helpers(const std::string& body, const std::string& extra = "",
                         const std::string& ret = "m![M, N = 4]") {
  return kHead + "\nfn project(" + kInputs + ") -> " + kDm + " {\n" + kProjectBody + "    " +
         kProjectTail + "\n}\n\nfn scale(ctx: &mut Context, r: " + kDm + ") -> " + kDm +
         " {\n    " + scale_tail("r") + "\n}\n" + extra + "\n#[device(chip = 1)]\npub fn forward(" +
         kInputs + ") -> HbmTensor<i32, Chip, " + ret + "> {\n" + body + "}\n";
}

const std::string kCallBody = R"(    let r = project(ctx, a, b);
    let out = scale(ctx, r);
    out.to_hbm(&mut ctx.tdma)
)";

/// `forward` written inline: what with_helpers(kCallBody) means.
std::string inline_kernel() {
  return kHead + "\n#[device(chip = 1)]\npub fn forward(" + kInputs +
         ") -> HbmTensor<i32, Chip, m![M, N = 4]> {\n" + kProjectBody + "    let r: " + kDm +
         " = " + kProjectTail + ";\n    let out: " + kDm + " = " + scale_tail("r") +
         ";\n    out.to_hbm(&mut ctx.tdma)\n}\n";
}

ir::SpecAnalysis analyze(const std::string& text) {
  return ir::analyze(SourceBuffer("calls_test.rs", text));
}

std::set<std::string> codes(const ir::SpecAnalysis& a) {
  std::set<std::string> out;
  for (const auto& d : a.diagnostics)
    if (d.severity == Severity::Error) out.insert(d.code);
  return out;
}

const Diagnostic* first(const ir::SpecAnalysis& a, const std::string& code) {
  for (const auto& d : a.diagnostics)
    if (d.code == code) return &d;
  return nullptr;
}

/// The name a stage's `let` binds, without the callee's scope (`project.a` → `a`).
std::string unscoped(const std::string& name) {
  const auto dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

/// r[m, n] = Σ_k a[m, k]·b[n, k] over the saved inputs, for n < 4, row-major [M, N = 4].
std::vector<std::int32_t> projected(const std::map<std::string, runtime::NpyArray>& arr) {
  const auto a = npy_values<std::int8_t>(arr.at("a"));
  const auto b = npy_values<std::int8_t>(arr.at("b"));
  REQUIRE(a.size() == 4 * 32);
  REQUIRE(b.size() == 8 * 32);
  std::vector<std::int32_t> r(16);
  for (std::size_t m = 0; m < 4; ++m)
    for (std::size_t n = 0; n < 4; ++n) {
      std::int32_t sum = 0;
      for (std::size_t k = 0; k < 32; ++k) sum += a[m * 32 + k] * b[n * 32 + k];
      r[m * 4 + n] = sum;
    }
  return r;
}

std::int32_t times(std::int32_t x, std::uint32_t f) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) * f);
}

/// `tujit run --verify --json` of the kernel `forward` of `text` (written into `dir`) with seed
/// 3. (A helper the body does not call, `scale` here and there, is a kernel of its own.)
CliRun run_text(const TempDir& dir, const std::string& name, const std::string& text) {
  return run_tujit(
      {"run", dir.file(name, text), "--kernel", "forward", "--verify", "--seed", "3", "--json"});
}

} // namespace

TEST_CASE("calls: helpers are typed inline with the stages of the kernel written inline",
          "[lang][calls]") {
  const auto called = analyze(with_helpers(kCallBody));
  INFO(called.diagnostics.size());
  REQUIRE(codes(called).empty());
  const auto written = analyze(inline_kernel());
  REQUIRE(codes(written).empty());
  // Only the device kernel is a kernel: its helpers are typed at the calls.
  REQUIRE(called.file.kernels.size() == 1);
  CHECK(called.file.kernels[0].name == "forward");
  const ir::Kernel& c = called.file.kernels[0];
  const ir::Kernel& w = written.file.kernels.at(0);
  REQUIRE(c.stages.size() == w.stages.size());
  for (std::size_t i = 0; i < c.stages.size(); ++i) {
    INFO("stage " << i << " " << ir::stage_name(c.stages[i]));
    const ir::Stage& x = c.stages[i];
    const ir::Stage& y = w.stages[i];
    CHECK(x.op == y.op);
    CHECK(x.producer == y.producer);
    CHECK(x.memory_producer == y.memory_producer);
    CHECK(x.trf_producer == y.trf_producer);
    CHECK(x.vrf_producer == y.vrf_producer);
    CHECK(x.chain == y.chain);
    CHECK(x.source == y.source);
    CHECK(x.context == y.context);
    CHECK(unscoped(x.bound_to) == y.bound_to);
    CHECK(ir::to_string(x.output) == ir::to_string(y.output));
  }
  // The callee's own `let`s are scoped by it; its tail is bound by the caller's `let`.
  CHECK(c.stages[0].bound_to == "project.a");
  CHECK(c.stages.back().bound_to.empty());
  REQUIRE(c.returned.has_value());
  CHECK(ir::to_string(*c.returned) == ir::to_string(*w.returned));
  // The split sees the same commands.
  auto cs = ir::seq::split_commands(testing::checked(c));
  auto ws = ir::seq::split_commands(testing::checked(w));
  REQUIRE(cs.ok());
  REQUIRE(ws.ok());
  REQUIRE((*cs)->size() == 2);
  REQUIRE((*ws)->size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK((**cs)[i].value == (**ws)[i].value);
    CHECK((**cs)[i].kernel.stages.size() == (**ws)[i].kernel.stages.size());
  }
  CHECK((**cs)[0].value == "r");
}

TEST_CASE("calls: a kernel calling helpers runs to the bytes of the kernel written inline",
          "[lang][calls][run]") {
  TempDir dir("calls_run");
  const CliRun called = run_text(dir, "called.rs", with_helpers(kCallBody));
  INFO(called.out << called.err);
  REQUIRE(called.status == 0);
  const CliRun written = run_text(dir, "inline.rs", inline_kernel());
  INFO(written.out << written.err);
  REQUIRE(written.status == 0);
  const auto c = called.json();
  const auto w = written.json();
  CHECK(c["verify"]["engines_bit_exact"] == true);
  CHECK(c["verify"]["oracle_ok"] == true);
  CHECK(c["output"]["sha256"] == w["output"]["sha256"]);
  REQUIRE(c["earlier_commands"].size() == 1);
  CHECK(c["earlier_commands"][0]["value"] == "r");
  CHECK(c["earlier_commands"][0]["sha256"] == w["earlier_commands"][0]["sha256"]);
}

TEST_CASE("calls: a helper called twice gives (Σ a·b) · 9", "[lang][calls][run]") {
  TempDir src("calls_twice_src");
  const std::string body = R"(    let r = project(ctx, a, b);
    let once = scale(ctx, r);
    let twice = scale(ctx, once);
    twice.to_hbm(&mut ctx.tdma)
)";
  const auto a = analyze(with_helpers(body));
  REQUIRE(codes(a).empty());
  bool second = false;
  for (const ir::Stage& s : a.file.kernels.at(0).stages) second = second || s.bound_to == "twice";
  CHECK(second);
  TempDir dir("calls_twice");
  auto arr = run_saved(src.file("twice.rs", with_helpers(body)), dir, "5");
  const auto r = projected(arr);
  const auto out = npy_values<std::int32_t>(arr.at("out"));
  REQUIRE(out.size() == 16);
  for (std::size_t i = 0; i < 16; ++i) CHECK(out[i] == times(r[i], 9));
}

TEST_CASE("calls: arguments are checked against the callee's parameters", "[lang][calls]") {
  SECTION("a tensor of another type") {
    const auto a = analyze(with_helpers("    let r = project(ctx, b, a);\n"
                                        "    let out = scale(ctx, r);\n"
                                        "    out.to_hbm(&mut ctx.tdma)\n"));
    REQUIRE(codes(a).count("E-TYPE-025"));
    const Diagnostic* d = first(a, "E-TYPE-025");
    CHECK(d->message.find("`a` of `project`") != std::string::npos);
    CHECK(d->message.find("m![N, K]") != std::string::npos);
  }
  SECTION("a wrong number of arguments") {
    const auto a = analyze(with_helpers("    let r = project(ctx, a);\n"
                                        "    let out = scale(ctx, r);\n"
                                        "    out.to_hbm(&mut ctx.tdma)\n"));
    REQUIRE(codes(a).count("E-TYPE-025"));
    CHECK(first(a, "E-TYPE-025")->message.find("takes 3 arguments, but this call passes 2") !=
          std::string::npos);
  }
  SECTION("a tensor where the context belongs") {
    const auto a = analyze(with_helpers("    let r = project(a, a, b);\n"
                                        "    let out = scale(ctx, r);\n"
                                        "    out.to_hbm(&mut ctx.tdma)\n"));
    CHECK(codes(a).count("E-TYPE-025"));
  }
  SECTION("the call's result declared as another type") {
    const auto a = analyze(with_helpers(
        "    let r: DmTensor<i32, Chip, Cluster, Slice, m![M, N]> = project(ctx, a, b);\n"
        "    let out = scale(ctx, r);\n"
        "    out.to_hbm(&mut ctx.tdma)\n"));
    CHECK(codes(a).count("E-TYPE-013"));
  }
}

TEST_CASE("calls: recursion and unknown callees are refused", "[lang][calls]") {
  SECTION("direct recursion") {
    const std::string again =
        "\nfn again(ctx: &mut Context, r: " + kDm + ") -> " + kDm + " {\n    again(ctx, r)\n}\n";
    const auto a = analyze(with_helpers("    let r = project(ctx, a, b);\n"
                                        "    let out = again(ctx, r);\n"
                                        "    out.to_hbm(&mut ctx.tdma)\n",
                                        again));
    REQUIRE(codes(a).count("E-TYPE-026"));
    CHECK(first(a, "E-TYPE-026")->message.find("again → again") != std::string::npos);
  }
  SECTION("mutual recursion") {
    const std::string pingpong = "\nfn ping(ctx: &mut Context, r: " + kDm + ") -> " + kDm +
                                 " {\n    pong(ctx, r)\n}\n\nfn pong(ctx: &mut Context, r: " + kDm +
                                 ") -> " + kDm + " {\n    ping(ctx, r)\n}\n";
    const auto a = analyze(with_helpers("    let r = project(ctx, a, b);\n"
                                        "    let out = ping(ctx, r);\n"
                                        "    out.to_hbm(&mut ctx.tdma)\n",
                                        pingpong));
    REQUIRE(codes(a).count("E-TYPE-026"));
    CHECK(first(a, "E-TYPE-026")->message.find("ping → pong → ping") != std::string::npos);
    // Neither is a kernel of its own (`scale`, which nothing calls here, is).
    std::set<std::string> names;
    for (const ir::Kernel& k : a.file.kernels) names.insert(k.name);
    CHECK(names == std::set<std::string>{"scale", "forward"});
  }
  SECTION("fns that only call each other stay kernels, so their recursion is reported") {
    const std::string text = kHead + "\nfn ping(ctx: &mut Context, r: " + kDm + ") -> " + kDm +
                             " {\n    pong(ctx, r)\n}\n\nfn pong(ctx: &mut Context, r: " + kDm +
                             ") -> " + kDm + " {\n    ping(ctx, r)\n}\n";
    const auto a = analyze(text);
    CHECK(codes(a).count("E-TYPE-026"));
    CHECK(a.file.kernels.size() == 2);
  }
  SECTION("a callee the file does not define") {
    const auto a = analyze(with_helpers("    let r = nowhere(ctx, a, b);\n"
                                        "    let out = scale(ctx, r);\n"
                                        "    out.to_hbm(&mut ctx.tdma)\n"));
    REQUIRE(codes(a).count("E-TYPE-021"));
    CHECK(first(a, "E-TYPE-021")->message.find("`nowhere` is not a function of this file") !=
          std::string::npos);
  }
}

TEST_CASE("calls: a #[device] fn stays a kernel when called, a helper is not listed by check",
          "[lang][calls][cli]") {
  std::string text = with_helpers(kCallBody);
  const std::string scale_fn = "fn scale(";
  text.replace(text.find(scale_fn), scale_fn.size(), "#[device(chip = 1)]\npub fn scale(");
  const auto a = analyze(text);
  REQUIRE(codes(a).empty());
  std::set<std::string> names;
  for (const ir::Kernel& k : a.file.kernels) names.insert(k.name);
  CHECK(names == std::set<std::string>{"scale", "forward"});

  TempDir dir("calls_check");
  const CliRun check = run_tujit({"check", dir.file("k.rs", with_helpers(kCallBody))});
  INFO(check.out << check.err);
  CHECK(check.status == 0);
  CHECK(check.out.find("forward") != std::string::npos);
  CHECK(check.out.find("project") == std::string::npos);
  const CliRun wrong = run_tujit({"run", dir.file("k.rs"), "--kernel", "project"});
  CHECK(wrong.status != 0);
}

TEST_CASE("reshape: a regrouping hands the same value on", "[lang][reshape][run]") {
  const std::string body =
      "    let r = project(ctx, a, b);\n"
      "    let g: DmTensor<i32, Chip, Cluster, Slice, m![M / 2, M % 2, N = 4]> "
      "= unsafe { r.reshape() };\n"
      "    let out: " +
      kDm + " = " + scale_tail("g") + ";\n    out.to_hbm(&mut ctx.tdma)\n";
  TempDir dir("reshape_regroup");
  const CliRun regrouped = run_text(dir, "g.rs", with_helpers(body));
  INFO(regrouped.out << regrouped.err);
  REQUIRE(regrouped.status == 0);
  const CliRun plain = run_text(dir, "plain.rs", with_helpers(kCallBody));
  REQUIRE(plain.status == 0);
  CHECK(regrouped.json()["verify"]["oracle_ok"] == true);
  CHECK(regrouped.json()["output"]["sha256"] == plain.json()["output"]["sha256"]);
}

TEST_CASE("reshape: a relabelling to other axes keeps each DM cell's element",
          "[lang][reshape][run]") {
  // r over [M, N = 4] restated as [P, Q]: the cell at Element offset m·4 + n is (p, q) with
  // p·8 + q = m·4 + n. Once as a `let`, once as a helper's tail typed by its return type.
  const std::string relabel = "\nfn relabel(r: " + kDm +
                              ") -> DmTensor<i32, Chip, Cluster, Slice, m![P, Q]> {\n"
                              "    unsafe { r.reshape() }\n}\n";
  const std::string tail =
      "    let out: DmTensor<i32, Chip, Cluster, Slice, m![P, Q]> = " + scale_pq_tail("pq") +
      ";\n    out.to_hbm(&mut ctx.tdma)\n";
  const std::string by_let = "    let r = project(ctx, a, b);\n"
                             "    let pq: DmTensor<i32, Chip, Cluster, Slice, m![P, Q]> = "
                             "unsafe { r.reshape() };\n" +
                             tail;
  const std::string by_call = "    let r = project(ctx, a, b);\n    let pq = relabel(r);\n" + tail;
  TempDir src("reshape_pq_src");
  for (const auto& [name, body] : {std::pair{"let", by_let}, std::pair{"call", by_call}}) {
    INFO(name);
    const auto a = analyze(with_helpers(body, relabel, "m![P, Q]"));
    REQUIRE(codes(a).empty());
    // The second command reads `pq`, which holds `r` relabelled by one reshape.
    const ir::Kernel* forward = nullptr;
    for (const ir::Kernel& k : a.file.kernels)
      if (k.name == "forward") forward = &k;
    REQUIRE(forward != nullptr);
    auto split = ir::seq::split_commands(testing::checked(*forward));
    REQUIRE(split.ok());
    REQUIRE((*split)->size() == 2);
    const auto& reads = (**split)[1].reads;
    REQUIRE(reads.size() == 1);
    CHECK(reads[0].param == "pq");
    CHECK(reads[0].value == "r");
    REQUIRE(reads[0].reshapes.size() == 1);
    CHECK(ir::to_string(reads[0].reshapes[0].to) ==
          "DmTensor<i32, m![1], m![1 # 2], m![1 # 256], m![P, Q]>");
    TempDir dir(std::string("reshape_pq_") + name);
    auto arr =
        run_saved(src.file(std::string(name) + ".rs", with_helpers(body, relabel, "m![P, Q]")), dir,
                  "7", {"--kernel", "forward"});
    const auto r = projected(arr);
    REQUIRE(arr.at("out").shape == std::vector<std::uint64_t>{2, 8});
    const auto out = npy_values<std::int32_t>(arr.at("out"));
    for (std::size_t p = 0; p < 2; ++p)
      for (std::size_t q = 0; q < 8; ++q) {
        const std::size_t cell = p * 8 + q; // = m·4 + n
        INFO("p " << p << ", q " << q);
        CHECK(out[cell] == times(r[cell], 3));
      }
  }
}

TEST_CASE("reshape: the rule is checked, and a relabelling the run cannot hand on is refused",
          "[lang][reshape][cli]") {
  TempDir dir("reshape_rule");
  SECTION("a level that changes its size: E-DM-001") {
    const std::string text =
        with_helpers("    let r = project(ctx, a, b);\n"
                     "    let x: DmTensor<i32, Chip, Cluster, Slice, m![M, N]> = "
                     "unsafe { r.reshape() };\n"
                     "    let out = scale(ctx, r);\n    out.to_hbm(&mut ctx.tdma)\n");
    const CliRun check = run_tujit({"check", dir.file("size.rs", text)});
    CHECK(check.status == 1);
    CHECK(check.err.find("E-DM-001") != std::string::npos);
  }
  SECTION("another element type: E-TYPE-013") {
    const auto a =
        analyze(with_helpers("    let r = project(ctx, a, b);\n"
                             "    let x: DmTensor<i8, Chip, Cluster, Slice, m![M, N = 4]> = "
                             "unsafe { r.reshape() };\n"
                             "    let out = scale(ctx, r);\n    out.to_hbm(&mut ctx.tdma)\n"));
    CHECK(codes(a).count("E-TYPE-013"));
  }
  SECTION("padding made live and returned: accepted by check and cycles, refused by run") {
    // Slice `1 # 256` restated as S = 256: slices 1 … 255 held padding.
    const std::string text = with_helpers(
        "    let r = project(ctx, a, b);\n"
        "    let x: DmTensor<i32, Chip, Cluster, m![S], m![M, N = 4]> = unsafe { r.reshape() };\n"
        "    let out: DmTensor<i32, Chip, Cluster, m![S], m![M, N = 4]> = "
        "ctx.main.begin(x.view()).fetch::<m![M], m![N = 4 # 8]>()"
        ".collect::<m![M], m![N = 4 # 8]>().commit_trim::<m![N = 4]>().commit();\n"
        "    out.to_hbm(&mut ctx.tdma)\n",
        "", "m![S, M, N = 4]");
    const std::string path = dir.file("pad.rs", text);
    const CliRun check = run_tujit({"check", path});
    INFO(check.out << check.err);
    CHECK(check.status == 0);
    const CliRun cycles = run_tujit({"cycles", path, "--kernel", "forward"});
    INFO(cycles.out << cycles.err);
    CHECK(cycles.status == 0);
    const CliRun run = run_tujit({"run", path, "--kernel", "forward"});
    CHECK(run.status == 1);
    CHECK(run.err.find("E-RUN-110") != std::string::npos);
    CHECK(run.err.find("no command wrote") != std::string::npos);
  }
  SECTION("a reshape of a DM tensor a DMA moved from a parameter: the parameter relabelled") {
    const std::string body =
        kProjectBody +
        "    let a2: DmTensor<i8, Chip, Cluster, Slice, m![M / 2, M % 2, K]> = "
        "unsafe { a.reshape() };\n    let out: " +
        kDm + " = " +
        std::string(kProjectTail)
            .replace(kProjectTail.find("begin(a.view())"), 15, "begin(a2.view())") +
        ";\n    out.to_hbm(&mut ctx.tdma)\n";
    const std::string path = dir.file("moved.rs", with_helpers(body));
    const CliRun check = run_tujit({"check", path});
    INFO(check.out << check.err);
    CHECK(check.status == 0);
    // `m![M / 2, M % 2, K]` regroups M: the same logical tensor, so the same result as the
    // kernel that fetches `a` itself, from the same seeded `a` and `b`.
    const std::string plain = dir.file(
        "plain.rs", with_helpers(kProjectBody + "    let out: " + kDm + " = " +
                                 std::string(kProjectTail) + ";\n    out.to_hbm(&mut ctx.tdma)\n"));
    const CliRun run =
        run_tujit({"run", path, "--kernel", "forward", "--verify", "--seed", "3", "--json"});
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    const CliRun ref = run_tujit({"run", plain, "--kernel", "forward", "--seed", "3", "--json"});
    INFO(ref.out << ref.err);
    REQUIRE(ref.status == 0);
    CHECK(run.json()["verify"]["oracle_ok"] == true);
    CHECK(run.json()["sha256"] == ref.json()["sha256"]);
  }
}

TEST_CASE("reshape: the value after a reshape, cell by cell", "[lang][reshape]") {
  // r over [M, N = 4] (element (m, n) at Element offset m·4 + n) restated five ways.
  const std::vector<std::string> into = {
      "m![P, Q]",         // other axes, the same order
      "m![N = 4, M]",     // the axes swapped: the cells keep their contents, so a transpose
      "m![M, N = 2 # 4]", // every other pair of cells made padding
      "m![M, 4]",         // a broadcast: four cells naming one element
      "m![M, N / 2]",     // N = 0, 2, 4, 6: not the first coordinates of N
  };
  std::string body = "    let r = project(ctx, a, b);\n";
  for (std::size_t i = 0; i < into.size(); ++i)
    body += "    let x" + std::to_string(i) + ": DmTensor<i32, Chip, Cluster, Slice, " + into[i] +
            "> = unsafe { r.reshape() };\n";
  body += "    let out = scale(ctx, r);\n    out.to_hbm(&mut ctx.tdma)\n";
  const auto a = analyze(with_helpers(body));
  REQUIRE(codes(a).empty());
  std::vector<const ir::Stage*> reshapes;
  for (const ir::Stage& s : a.file.kernels.at(0).stages)
    if (s.op == ir::StageOp::DmReshape) reshapes.push_back(&s);
  REQUIRE(reshapes.size() == into.size());
  const ir::AxisTable& table = a.file.axes;
  // The committed value: [M = 4, N = 4] (the trim keeps N < 4), element m·4 + n = 100 + m·4 + n.
  runtime::LogicalTensor value;
  value.dtype = ir::ScalarType::I32;
  value.axes = {*table.find("M"), *table.find("N")};
  value.axes[1].size = 4;
  value.data.resize(16 * 4);
  for (std::uint32_t i = 0; i < 16; ++i) value.set(i, 100 + i);
  const auto reshaped = [&](std::size_t i) {
    std::vector<bool> undefined;
    auto r =
        runtime::reshape_dm_value(value, reshapes[i]->input, reshapes[i]->output, table, undefined);
    if (r) CHECK(undefined.empty()); // every cell it names was written
    return r;
  };
  const auto elements = [](const runtime::LogicalTensor& t) {
    std::vector<std::uint32_t> v;
    for (std::uint64_t i = 0; i < t.elements(); ++i) v.push_back(t.get(i));
    return v;
  };
  std::vector<std::uint32_t> in_order(16), transposed(16), halves;
  for (std::uint32_t i = 0; i < 16; ++i) in_order[i] = 100 + i;
  for (std::uint32_t m = 0; m < 4; ++m)
    for (std::uint32_t n = 0; n < 4; ++n) transposed[m * 4 + n] = 100 + n * 4 + m;
  for (std::uint32_t m = 0; m < 4; ++m)
    for (std::uint32_t n = 0; n < 2; ++n) halves.push_back(100 + m * 4 + n);

  auto pq = reshaped(0);
  REQUIRE(pq.ok());
  CHECK(runtime::axes_text(pq->axes) == "[P=2, Q=8]");
  CHECK(elements(*pq) == in_order);
  auto swapped = reshaped(1);
  REQUIRE(swapped.ok());
  CHECK(runtime::axes_text(swapped->axes) == "[M=4, N=4]");
  CHECK(elements(*swapped) == transposed);
  auto half = reshaped(2);
  REQUIRE(half.ok());
  CHECK(runtime::axes_text(half->axes) == "[M=4, N=2]");
  CHECK(elements(*half) == halves);
  for (std::size_t i : {std::size_t{3}, std::size_t{4}}) {
    INFO(into[i]);
    auto refused = reshaped(i);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.diagnostics().front().code == "E-RUN-110");
    CHECK_FALSE(runtime::check_dm_reshape(reshapes[i]->input, reshapes[i]->output, table).ok());
  }
  CHECK(reshaped(3).diagnostics().front().message.find("hold different elements") !=
        std::string::npos);
  CHECK(reshaped(4).diagnostics().front().message.find("not its first ones") != std::string::npos);
  // A value whose command wrote only N < 2: the cells of N = 2, 3 hold whatever DM held, so the
  // elements [P, Q] names there are undefined and hold the poison pattern.
  runtime::LogicalTensor part = value;
  part.axes[1].size = 2;
  part.data.resize(8 * 4);
  for (std::uint32_t i = 0; i < 8; ++i) part.set(i, 200 + i); // (m, n) at m·2 + n
  std::vector<bool> undefined;
  auto unwritten =
      runtime::reshape_dm_value(part, reshapes[0]->input, reshapes[0]->output, table, undefined);
  REQUIRE(unwritten.ok());
  REQUIRE(undefined.size() == 16);
  for (std::uint32_t cell = 0; cell < 16; ++cell) {
    const std::uint32_t m = cell / 4, n = cell % 4; // the cell at offset m·4 + n, element cell
    INFO("cell " << cell);
    CHECK(undefined[cell] == (n >= 2));
    if (n < 2) CHECK(unwritten->get(cell) == 200 + m * 2 + n);
  }
  // An undefined element stays undefined through a further reshape of the value.
  std::vector<bool> again = undefined;
  auto twice =
      runtime::reshape_dm_value(*unwritten, reshapes[0]->output, reshapes[0]->output, table, again);
  REQUIRE(twice.ok());
  CHECK(again == undefined);
}

// The random valid kernel generator (tests/support/kernel_gen.h) over the whole space the engines
// support (types × lane counts × PackSize × LaneMode × padding): every generated kernel
// passes `tujit check` with the derived values the book's formulas give (computed by the
// generator from its own choices), runs on the reference interpreter, agrees with the float64
// oracle, and reports poisoned outputs exactly when a Top padding reaches a live output. The
// DmFetch and Mixed forms (operands fetched from DM in the kernel) check clean in every stage,
// every fetch and collect included, and run from DM on both engines.
#include "harness/run/run_pipeline.h"
#include "ir/lang/kernel.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/kernel_checker.h"
#include "runtime/layout/layout.h"
#include "runtime/oracle/oracle.h"
#include "runtime/tensor/random_fill.h"
#include "tests/support/checked.h"
#include "tests/support/diagnostic_dump.h"
#include "tests/support/kernel_gen.h"
#include "tests/support/run_request.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <chrono>
#include <map>

using namespace tujit;
using namespace tujit::ir;

namespace {

constexpr std::uint64_t kSeed = 20261130; // fixed: deterministic
constexpr int kKernels = 1000;
constexpr int kDmKernels = 300; // per DM form (DmFetch, Mixed)

std::uint64_t number(const verify::StageCheck& s, const std::string& key) {
  auto it = s.derived.find(key);
  if (it == s.derived.end()) return ~std::uint64_t{0};
  const auto* n = std::get_if<std::uint64_t>(&it->second);
  return n ? *n : ~std::uint64_t{0};
}

bool flag(const verify::StageCheck& s, const std::string& key) {
  auto it = s.derived.find(key);
  if (it == s.derived.end()) return false;
  const auto* b = std::get_if<bool>(&it->second);
  return b && *b;
}

const verify::StageCheck* stage(const Kernel& k, const verify::KernelCheck& kc, StageOp op) {
  for (std::size_t i = 0; i < k.stages.size(); ++i)
    if (k.stages[i].op == op && i < kc.stages.size()) return &kc.stages[i];
  return nullptr;
}

using testing::dump;

/// Counts per feature value, reported once at the end of a test case.
struct Distribution {
  std::map<std::string, std::map<std::string, int>> counts;
  void add(const testing::GeneratedKernel& g) {
    const auto& f = g.features;
    ++counts["type pair"][f.stream_type + "×" + f.trf_type];
    ++counts["lanes"][std::to_string(g.expected.lanes)];
    ++counts["PackSize"][std::to_string(g.expected.pack_size)];
    ++counts["LaneMode"][f.mode];
    ++counts["packet"][f.packet];
    ++counts["depth"][std::to_string(g.expected.depth)];
    ++counts["form"][f.form];
    ++counts["InnerTime>1"][g.expected.inner_time > 1 ? "yes" : "no"];
    ++counts["K time digit"][f.k_in_time ? (f.k_split_outer ? "outside M" : "inside M") : "none"];
    ++counts["time broadcast"][f.broadcast_trf    ? (f.broadcast_pure ? "B+X" : "B")
                               : f.broadcast_pure ? "X"
                                                  : "none"];
    ++counts["spatial axis"][f.spatial ? "yes" : "no"];
    ++counts["expected poison"][g.expected_poison ? "yes" : "no"];
    if (f.padding.empty()) ++counts["padding"]["none"];
    for (const auto& p : f.padding) ++counts["padding"][p];
    for (const auto& x : f.fetch) ++counts["fetch"][x];
  }
  std::string text() const {
    std::string s;
    for (const auto& [what, m] : counts) {
      s += what + ":";
      for (const auto& [k, n] : m) s += fmt::format(" {}={}", k, n);
      s += "\n";
    }
    return s;
  }
};

} // namespace

namespace {

/// The stages of `kernel` with operation `op`, with their checks.
std::vector<std::pair<const Stage*, const verify::StageCheck*>>
stages_of(const Kernel& k, const verify::KernelCheck& kc, StageOp op) {
  std::vector<std::pair<const Stage*, const verify::StageCheck*>> out;
  for (std::size_t i = 0; i < k.stages.size() && i < kc.stages.size(); ++i)
    if (k.stages[i].op == op) out.emplace_back(&k.stages[i], &kc.stages[i]);
  return out;
}

/// Checks `n` kernels of `form`: every one checks with zero diagnostics, with the book's derived
/// values for the contraction and, for DM kernels, a legal read per fetch (docs/datapath.md §5) and
/// one 32 B flit per collected packet (§8).
void check_generated(testing::KernelForm form, int n, Distribution& dist) {
  testing::KernelGenOptions opt;
  opt.form = form;
  testing::KernelGenerator gen(kSeed, opt);
  for (int i = 0; i < n; ++i) {
    auto g = gen.next();
    dist.add(g);
    INFO(g.description << "\n" << g.spec);
    // Only legal operand pairs (docs/contraction.md §2.1).
    auto st = parse_scalar_type(g.features.stream_type);
    auto wt = parse_scalar_type(g.features.trf_type);
    REQUIRE((st && wt));
    REQUIRE(contraction_refusal(*st, *wt) == ContractionRefusal::None);

    SourceBuffer src(g.kernel_name + ".rs", g.spec);
    auto spec = analyze_spec(src);
    INFO((spec.ok() ? std::string() : dump(src, spec.diagnostics())));
    REQUIRE(spec.ok());
    REQUIRE(spec->warnings.empty());
    REQUIRE(spec->kernels.size() == 1);
    const Kernel& k = spec->kernels[0];
    CHECK(k.name == g.kernel_name);
    auto kc = verify::check_kernel(*spec, k);
    INFO(dump(spec->source, kc.all_diagnostics()));
    REQUIRE(kc.ok());
    REQUIRE(kc.all_diagnostics().empty());

    const auto* trf = stage(k, kc, StageOp::ToTrf);
    const auto* outer = stage(k, kc, StageOp::ContractOuter);
    const auto* packet = stage(k, kc, StageOp::ContractPacket);
    const auto* time = stage(k, kc, StageOp::ContractTime);
    const auto* lane = stage(k, kc, StageOp::ContractLane);
    REQUIRE((trf && outer && packet && time && lane));
    const auto& e = g.expected;
    CHECK(number(*trf, "lanes") == e.lanes);
    CHECK(number(*trf, "flits_per_lane") == e.flits_per_lane);
    CHECK(number(*outer, "pack_size") == e.pack_size);
    CHECK(number(*outer, "time_broadcast_size") == e.time_broadcast);
    CHECK(number(*outer, "lane_broadcast") == e.lanes);
    CHECK(number(*outer, "read_size") == e.read_size);
    CHECK(number(*outer, "packet_broadcast_size") == e.packet_broadcast);
    CHECK(flag(*outer, "wide") == e.wide_read);
    CHECK(number(*packet, "depth") == e.depth);
    CHECK(number(*packet, "out_columns") == e.out_columns);
    CHECK(number(*packet, "live_columns") == e.live_columns);
    CHECK(number(*time, "inner_time") == e.inner_time);
    CHECK(number(*lane, "inner_time") == e.inner_time);
    CHECK(number(*lane, "output_flits") == e.output_flits);

    // The DM chains: one fetch and one collect per operand.
    const bool dm = g.features.form == "dm";
    const auto fetches = stages_of(k, kc, StageOp::Fetch);
    const auto collects = stages_of(k, kc, StageOp::Collect);
    CHECK(fetches.size() == (dm ? 2u : 0u));
    CHECK(collects.size() == (dm ? 2u : 0u));
    for (const auto& [s, c] : fetches) {
      // docs/datapath.md §5: a read moves 1, 2, 4, 8, 16 or 32 B (the sub context exactly 8 B), a
      // packet is whole reads, and no read leaves the buffer.
      const std::uint64_t bytes = number(*c, "read_bytes");
      CHECK((bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16 || bytes == 32));
      if (s->context == ContextKind::Sub) CHECK(bytes == 8);
      CHECK(number(*c, "read_size") * number(*c, "reads_per_packet") == number(*c, "packet_size"));
      CHECK(number(*c, "footprint") <= number(*c, "buffer_size"));
    }
    for (const auto& [s, c] : collects) {
      // §8: the collected packet is one 32 B flit.
      const std::uint64_t bits = wire_bits(s->output.dtype);
      CHECK(s->output.mapping(Slot::Packet).size() * bits == 256);
    }
  }
}

} // namespace

TEST_CASE("kernel gen: every generated kernel checks clean with the book's derived values",
          "[kernel-gen]") {
  // Every form: CollectParams (the collected operands as parameters), DmFetch (every operand
  // fetched from DM and collected in the kernel) and Mixed. All stages are checked, including
  // every fetch (the sequencer derivation, read size and buffer bounds) and collect.
  SECTION("CollectParams") {
    Distribution dist;
    check_generated(testing::KernelForm::CollectParams, kKernels, dist);
    CHECK(dist.counts["form"]["collect"] == kKernels);
    WARN("kernel gen distribution (" << kKernels << " kernels, seed " << kSeed << "):\n"
                                     << dist.text());
  }
  SECTION("DmFetch") {
    Distribution dist;
    check_generated(testing::KernelForm::DmFetch, kDmKernels, dist);
    CHECK(dist.counts["form"]["dm"] == kDmKernels);
    // The DM variations are all reached (kernel_gen_fetch.h).
    for (const char* v : {"stream:wide2",
                          "stream:wide4",
                          "stream:short",
                          "stream:outer-pad",
                          "stream:time-order",
                          "stream:split-packet",
                          "stream:gather",
                          "stream:row-pad",
                          "stream:dm-pad:top",
                          "stream:dm-pad:zero",
                          "stream:cast",
                          "stream:zp",
                          "trf:wide2",
                          "trf:wide4",
                          "trf:time-order",
                          "trf:split-packet",
                          "trf:row-pad",
                          "trf:dm-pad:top",
                          "trf:dm-pad:zero",
                          "trf:cast",
                          "trf:zp",
                          "trf:sub",
                          "trf:main"}) {
      INFO("fetch variation " << v);
      CHECK(dist.counts["fetch"][v] > 0);
    }
    WARN("kernel gen distribution, DmFetch (" << kDmKernels << " kernels, seed " << kSeed << "):\n"
                                              << dist.text());
  }
  SECTION("Mixed") {
    Distribution dist;
    check_generated(testing::KernelForm::Mixed, kDmKernels, dist);
    CHECK(dist.counts["form"]["dm"] > 0);
    CHECK(dist.counts["form"]["collect"] > 0);
    CHECK(dist.counts["form"]["dm"] + dist.counts["form"]["collect"] == kDmKernels);
  }
}

namespace {

struct RunCheck {
  std::uint64_t poisoned = 0;
  bool oracle_applicable = false;
  bool oracle_ok = false;
  std::string oracle_reason;
  std::string oracle_worst;
  std::uint64_t mismatches = 0;
};

/// Runs a generated kernel on the reference interpreter with seeded inputs and compares the
/// output with the float64 oracle on the same logical inputs (the comparison of run_kernel's
/// --verify, without its second engine: the JIT's compile time would dominate 1,000 runs).
Result<RunCheck> run_on_interpreter(const SpecFile& spec, const Kernel& k, std::uint64_t seed) {
  auto ops = ir::seq::find_run_operands(k);
  if (!ops) return std::move(ops).take_diagnostics();
  run::RunRequest req;
  req.engine = run::Engine::Interp;
  req.seed = seed;
  std::map<std::string, runtime::LogicalTensor> inputs;
  for (const KernelParam* p : ops->inputs()) {
    auto t =
        runtime::make_logical_tensor(p->tensor->dtype, runtime::tensor_axes(*p->tensor, spec.axes));
    if (!t) return std::move(t).take_diagnostics();
    runtime::fill_random(*t, runtime::parameter_seed(seed, p->name));
    inputs.emplace(p->name, *t);
  }
  req.given = inputs;
  auto run = run::run_kernel(spec, testing::checked(k), *ops, req);
  if (!run) return std::move(run).take_diagnostics();
  RunCheck rc;
  rc.poisoned = run->poisoned_outputs;
  const TensorType& out_type = ops->lane->output;
  const TensorType trf_type = ops->trf_store ? ops->trf_store->output : *ops->trf->tensor;
  const TensorType& stream_type = *ops->stream->tensor;
  auto na = runtime::oracle_not_applicable(out_type, {&stream_type, &trf_type}, spec.axes);
  if (na) {
    rc.oracle_reason = *na;
    return rc;
  }
  rc.oracle_applicable = true;
  auto weight = runtime::device_view(inputs.at(ops->trf->name), trf_type);
  if (!weight) return std::move(weight).take_diagnostics();
  auto stream = runtime::device_view(inputs.at(ops->stream->name), stream_type);
  if (!stream) return std::move(stream).take_diagnostics();
  auto ref = runtime::einsum_oracle({&*stream, 0}, {&*weight, 0}, run->output.axes);
  if (!ref) return std::move(ref).take_diagnostics();
  const runtime::ToleranceModel model = runtime::tolerance_model(run->program.contraction().chain);
  auto cmp = runtime::compare_with_oracle(*ref, run->output, model);
  if (!cmp) return std::move(cmp).take_diagnostics();
  rc.oracle_ok = cmp->ok;
  rc.mismatches = cmp->mismatches;
  rc.oracle_worst = cmp->worst;
  return rc;
}

} // namespace

TEST_CASE("kernel gen: every generated kernel runs on the interpreter and matches the oracle",
          "[kernel-gen]") {
  // CollectParams: this test computes the oracle itself from the parameters' contents (a DM
  // kernel's zero points and DM layouts are run_kernel's --verify's, tested below).
  testing::KernelGenerator gen(kSeed);
  Distribution dist;
  int poisoned = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kKernels; ++i) {
    auto g = gen.next();
    dist.add(g);
    INFO(g.description << "\n" << g.spec);
    SourceBuffer src(g.kernel_name + ".rs", g.spec);
    auto spec = analyze_spec(src);
    INFO((spec.ok() ? std::string() : dump(src, spec.diagnostics())));
    REQUIRE(spec.ok());
    REQUIRE(spec->kernels.size() == 1);
    auto rc = run_on_interpreter(*spec, spec->kernels[0], kSeed + static_cast<std::uint64_t>(i));
    INFO((rc.ok() ? std::string() : dump(spec->source, rc.diagnostics())));
    CHECK(rc.ok());
    if (!rc.ok()) continue;
    INFO("oracle: " << rc->oracle_reason << " worst " << rc->oracle_worst << ", " << rc->mismatches
                    << " mismatches; poisoned " << rc->poisoned);
    CHECK(rc->oracle_applicable == g.oracle_not_applicable.empty());
    if (rc->oracle_applicable) CHECK(rc->oracle_ok);
    CHECK((rc->poisoned > 0) == g.expected_poison);
    poisoned += g.expected_poison ? 1 : 0;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(poisoned > 0);
  // The whole space is reached: every legal pair, lane count, PackSize, LaneMode, packet shape
  // and padding kind occurs.
  for (const auto& [what, values] : std::map<std::string, std::vector<std::string>>{
           {"type pair",
            {"i4×i4", "i4×i5", "i5×i4", "i5×i5", "i8×i8", "i8×i9", "i9×i8", "i9×i9",
             "f8e4m3×f8e4m3", "f8e5m2×f8e5m2", "bf16×bf16"}},
           {"lanes", {"1", "2", "4", "8"}},
           {"PackSize", {"1", "2"}},
           {"LaneMode", {"Interleaved", "Sequential"}},
           {"packet", {"full", "partial-stream", "partial-shared", "partial-pad"}},
           {"depth", {"0", "1", "2", "3", "4", "5", "6", "7"}},
           {"K time digit", {"none", "inside M", "outside M"}},
           {"time broadcast", {"none", "B", "X", "B+X"}},
           {"spatial axis", {"yes", "no"}},
           {"InnerTime>1", {"yes", "no"}},
           {"padding",
            {"M:top", "M:zero", "K:top", "K:zero", "lane:top", "lane:zero", "J:top", "B:top",
             "B:zero", "P2:top", "out"}}}) {
    for (const auto& v : values) {
      INFO(what << " = " << v);
      CHECK(dist.counts[what][v] > 0);
    }
  }
  WARN("kernel gen run: " << kKernels << " kernels on the interpreter in " << s << " s, "
                          << poisoned << " expected to poison\n"
                          << dist.text());
}

TEST_CASE("kernel gen: generated kernels through run_kernel --verify (JIT and oracle)",
          "[kernel-gen]") {
  // run_kernel's own --verify: the interpreter, then the JIT on the same images (bit for bit),
  // then the float64 oracle. A JIT compile costs ~0.2 s, so a small sample of the space.
  testing::KernelGenerator gen(kSeed + 1);
  for (int i = 0; i < 24; ++i) {
    auto g = gen.next();
    INFO(g.description << "\n" << g.spec);
    SourceBuffer src(g.kernel_name + ".rs", g.spec);
    auto spec = analyze_spec(src);
    REQUIRE(spec.ok());
    const Kernel& k = spec->kernels[0];
    auto ops = ir::seq::find_run_operands(k);
    INFO((ops.ok() ? std::string() : dump(spec->source, ops.diagnostics())));
    REQUIRE(ops.ok());
    const run::RunRequest req =
        testing::interp_verify_request(kSeed + static_cast<std::uint64_t>(i));
    auto run = run::run_kernel(*spec, testing::checked(k), *ops, req);
    INFO((run.ok() ? std::string() : dump(spec->source, run.diagnostics())));
    REQUIRE(run.ok());
    REQUIRE(run->verify.has_value());
    const auto& v = *run->verify;
    INFO(v.engine_difference << " " << v.oracle_not_applicable.value_or("") << " worst "
                             << v.worst);
    CHECK(v.engines_bit_exact);
    CHECK(v.oracle_not_applicable.has_value() == !g.oracle_not_applicable.empty());
    if (!v.oracle_not_applicable) CHECK(v.oracle_ok);
    CHECK((run->poisoned_outputs > 0) == g.expected_poison);
  }
}

TEST_CASE("kernel gen: DM-fed generated kernels through run_kernel --verify", "[kernel-gen]") {
  // The DM data path end to end: each operand fetched from its DM buffer (every layout and fetch
  // variation of kernel_gen_fetch.h), collected, stored, contracted on the interpreter; then the
  // JIT on the same DM contents, bit for bit (collected streams, TRF, output, poison); then the
  // float64 oracle on the inputs after the Fetch Adapter (zero points). A JIT compile costs
  // ~0.2 s, so a sample of each DM form.
  struct Batch {
    testing::KernelForm form;
    int kernels;
    std::uint64_t seed;
  };
  int dm_kernels = 0, poisoned = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (const Batch& b : {Batch{testing::KernelForm::DmFetch, 100, kSeed + 2},
                         Batch{testing::KernelForm::Mixed, 50, kSeed + 3}}) {
    testing::KernelGenOptions opt;
    opt.form = b.form;
    testing::KernelGenerator gen(b.seed, opt);
    for (int i = 0; i < b.kernels; ++i) {
      auto g = gen.next();
      INFO(g.description << "\n" << g.spec);
      const bool dm = g.features.form == "dm";
      dm_kernels += dm ? 1 : 0;
      SourceBuffer src(g.kernel_name + ".rs", g.spec);
      auto spec = analyze_spec(src);
      REQUIRE(spec.ok());
      const Kernel& k = spec->kernels[0];
      auto ops = ir::seq::find_run_operands(k);
      INFO((ops.ok() ? std::string() : dump(spec->source, ops.diagnostics())));
      REQUIRE(ops.ok());
      CHECK(ops->stream_collect.has_value() == dm);
      CHECK(ops->trf_collect.has_value() == dm);
      run::RunRequest req;
      req.engine = run::Engine::Interp;
      req.seed = b.seed + static_cast<std::uint64_t>(i);
      req.verify = true;
      req.threads = 1;
      req.jit.use_cache = false;
      auto run = run::run_kernel(*spec, testing::checked(k), *ops, req);
      INFO((run.ok() ? std::string() : dump(spec->source, run.diagnostics())));
      REQUIRE(run.ok());
      CHECK(run->fetches.size() == (dm ? 2u : 0u));
      REQUIRE(run->verify.has_value());
      const auto& v = *run->verify;
      INFO(v.engine_difference << " " << v.oracle_not_applicable.value_or("") << " worst "
                               << v.worst);
      CHECK(v.other_engine == "jit");
      CHECK(v.engines_bit_exact);
      CHECK(v.oracle_not_applicable.has_value() == !g.oracle_not_applicable.empty());
      if (!v.oracle_not_applicable) CHECK(v.oracle_ok);
      CHECK((run->poisoned_outputs > 0) == g.expected_poison);
      poisoned += g.expected_poison ? 1 : 0;
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(dm_kernels > 100);
  CHECK(poisoned > 0);
  WARN("kernel gen DM run: 150 kernels (" << dm_kernels << " DM-fed, " << poisoned
                                          << " expected to poison) through run_kernel --verify in "
                                          << s << " s");
}

// The stage-by-stage executor (tests/support/stage_oracle.h, "[stage-exec]"):
//   - on every corpus kernel with a complete chain and on generated kernels it gives the fused
//     interpreter's output bit for bit, cell states and poison included (two independent
//     implementations of docs/contraction.md §5–§9);
//   - the partial kernels of specs/ (Outer only, Lane Folder only) and small hand-written partial
//     chains run and match values computed in the test from the logical tensors (float64 sums of
//     small integers, products of bf16 values) or written out from the spec (tree pairing, flit
//     order, ABSENT, poison, the Lane Folder's drain order).
#include "tests/support/kernel_gen.h"
#include "tests/support/reliability_generated.h"
#include "tests/support/spec_corpus.h"
#include "tests/unit/jit_test_support.h"

#include "ir/seq/lower_contraction.h"
#include "runtime/interp/interpreter.h"
#include "runtime/layout/layout.h"
#include "runtime/scalar/f8.h"
#include "runtime/tensor/logical_tensor.h"
#include "runtime/tensor/random_fill.h"
#include "tests/support/checked.h"
#include "tests/support/device_layout.h"
#include "tests/support/stage_oracle.h"

#include <fmt/format.h>

#include <array>
#include <fstream>
#include <optional>
#include <sstream>

using namespace tujit;
using runtime::CellState;
using runtime::DeviceImage;
using runtime::LogicalTensor;
using testing::StageImage;

namespace {

// ---------------------------------------------------------------------------------------------
// Differential comparison with the fused interpreter
// ---------------------------------------------------------------------------------------------

/// Differences between the fused interpreter's result and the stage executor's output image of
/// the same chain: every cell's bits; Live (fused) ⇔ present (staged); padding Zero in both; the
/// staged Top cells are exactly the fused poison report's cells (count and first ones).
std::uint64_t differences(const testing::interp::ImageRun& want, const StageImage& got) {
  std::uint64_t bad = 0;
  const auto note = [&](const std::string& s) {
    if (bad++ < 4) UNSCOPED_INFO(s);
  };
  const DeviceImage& w = want.output;
  const DeviceImage& g = got.image;
  if (w.dtype != g.dtype || w.spatial != g.spatial || w.outer != g.outer || w.inner != g.inner) {
    note(fmt::format("shapes differ: fused [{}][{}][{}], staged [{}][{}][{}]", w.spatial, w.outer,
                     w.inner, g.spatial, g.outer, g.inner));
    return bad;
  }
  std::uint64_t tops = 0;
  std::vector<runtime::PoisonedCell> first;
  for (std::uint64_t i = 0; i < w.cells(); ++i) {
    if (w.bits[i] != g.bits[i])
      note(fmt::format("cell {}: fused {:#010x}, staged {:#010x}", i, w.bits[i], g.bits[i]));
    const bool want_live = w.state[i] == CellState::Live;
    const bool got_live =
        got.is_present(i) && (g.state[i] == CellState::Live || g.state[i] == CellState::Top);
    if (want_live != got_live)
      note(fmt::format("cell {}: fused state {}, staged state {} present {}", i,
                       static_cast<int>(w.state[i]), static_cast<int>(g.state[i]),
                       got.is_present(i)));
    if (!want_live && g.state[i] != CellState::Zero)
      note(fmt::format("cell {}: output padding is not Zero", i));
    if (g.state[i] == CellState::Top && got.is_present(i)) {
      ++tops;
      if (first.size() < runtime::kMaxPoisonReported)
        first.push_back({i / (w.outer * w.inner), (i / w.inner) % w.outer, i % w.inner});
    }
  }
  if (tops != want.poison.poisoned_outputs || first != want.poison.first_poisoned)
    note(fmt::format("poison differs: fused {} cells, staged {}", want.poison.poisoned_outputs,
                     tops));
  if (tops != testing::poisoned_cells(got)) note("poisoned_cells() miscounts");
  return bad;
}

/// Runs a kernel's complete chain both ways on the same operand images; returns the differences.
std::uint64_t staged_vs_fused(const ir::Kernel& kernel, ir::seq::ContractionProgram p,
                              const testing::jit::Operands& o, bool ftz) {
  // The chain lower_contraction lowered (the kernel's first; a whole kernel may run several).
  const std::optional<ir::ContractionChain> chain = ir::find_contraction_chain(kernel);
  REQUIRE(chain.has_value());
  const auto index = [&](const ir::Stage* s) {
    return static_cast<std::size_t>(s - kernel.stages.data());
  };
  auto span = ir::seq::contraction_path(kernel, index(chain->outer), index(chain->lane));
  if (!span)
    for (const auto& d : span.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(span.ok());
  REQUIRE(span->size() == 4);
  p.ftz_results = ftz;
  auto want = testing::interp::run_images(p, o.stream, o.trf);
  REQUIRE(want.ok());
  testing::StageOptions opt;
  opt.ftz_results = ftz;
  auto got =
      testing::exec_contraction_stages(kernel, span->front(), span->back(), o.stream, &o.trf, opt);
  if (!got)
    for (const auto& d : got.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(got.ok());
  return differences(*want, *got);
}

// ---------------------------------------------------------------------------------------------
// Logical tensors and a float64 einsum over them
// ---------------------------------------------------------------------------------------------

const ir::KernelParam& param(const ir::Kernel& k, const std::string& name) {
  for (const auto& p : k.params)
    if (p.name == name) return p;
  FAIL("no parameter " << name);
  return k.params.front();
}

const ir::Kernel& kernel_named(const ir::SpecFile& f, const std::string& name) {
  for (const auto& k : f.kernels)
    if (k.name == name) return k;
  FAIL("no kernel " << name);
  return f.kernels.front();
}

/// A small integer in [-4, 4] as a code of `t` (exact in every operand type and in f32).
std::uint32_t small_code(ir::ScalarType t, std::int64_t v) {
  const float f = static_cast<float>(v);
  switch (ir::encoding(t)) {
  case ir::Encoding::Bf16:
    return runtime::f32_bits(f) >> 16;
  case ir::Encoding::F32:
    return runtime::f32_bits(f);
  case ir::Encoding::TwosComplement:
  case ir::Encoding::Unsigned:
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(v));
  case ir::Encoding::F8E4M3: // small integers are exact in both f8 formats
    return runtime::enc_e4m3(runtime::f32_bits(f));
  case ir::Encoding::F8E5M2:
    return runtime::enc_e5m2(runtime::f32_bits(f));
  case ir::Encoding::F4E2M1: // never a contraction operand
    break;
  }
  FAIL("small_code: no encoder for " << ir::name(t));
  return 0;
}

double code_value(ir::ScalarType t, std::uint32_t bits) {
  return testing::interp::code_value(t, bits);
}

/// The logical tensor of a parameter's type filled with small integers (seeded).
LogicalTensor small_tensor(const ir::TensorType& type, const ir::AxisTable& axes,
                           std::uint64_t seed) {
  auto t = runtime::make_logical_tensor(type.dtype, runtime::tensor_axes(type, axes));
  REQUIRE(t.ok());
  runtime::SplitMix64 rng(seed);
  for (std::uint64_t i = 0; i < t->elements(); ++i)
    t->set(i, small_code(type.dtype, static_cast<std::int64_t>(rng.below(9)) - 4));
  return std::move(*t);
}

/// t's element at the coordinates of `ix` on t's axes.
double at(const LogicalTensor& t, const ir::Index& ix) {
  ir::Index own;
  for (const auto& a : t.axes) own[a.name] = ix.at(a.name);
  return code_value(t.dtype, t.get(t.offset(own)));
}

/// out[o] = Σ over every coordinate of the operands' axes that agrees with o of Π operand
/// values (float64; axes absent from the output are summed). `from_plus_zero`: each sum starts at
/// +0 (a Time Reducer slot, docs/contraction.md §9.2), else at its first summand (a product or a
/// Packet Reducer tree keeps the sign of a zero: -0 products sum to -0).
std::vector<double> einsum(const std::vector<const LogicalTensor*>& ops,
                           const std::vector<ir::Axis>& out_axes, bool from_plus_zero) {
  std::vector<ir::Axis> all = out_axes;
  for (const auto* t : ops)
    for (const auto& a : t->axes)
      if (std::find(all.begin(), all.end(), a) == all.end()) all.push_back(a);
  std::uint64_t total = 1, out_total = 1;
  for (const auto& a : all) total *= a.size;
  for (const auto& a : out_axes) out_total *= a.size;
  std::vector<double> out(out_total, 0.0);
  std::vector<bool> started(out_total, from_plus_zero);
  for (std::uint64_t k = 0; k < total; ++k) {
    ir::Index ix;
    std::uint64_t rest = k;
    for (std::size_t a = all.size(); a-- > 0;) {
      ix[all[a].name] = rest % all[a].size;
      rest /= all[a].size;
    }
    double v = 1.0;
    for (const auto* t : ops) v *= at(*t, ix);
    std::uint64_t o = 0;
    for (const auto& a : out_axes) o = o * a.size + ix[a.name];
    out[o] = started[o] ? out[o] + v : v;
    started[o] = true;
  }
  return out;
}

/// Reads a stage executor's output back over the output type and compares it with `expected`
/// (f32 values); also: no poison, and every live cell of the image is present.
void check_against(const StageImage& got, const ir::TensorType& type, const ir::AxisTable& axes,
                   const std::vector<double>& expected) {
  auto out = testing::from_device(got.image, type, axes);
  if (!out)
    for (const auto& d : out.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(out.ok());
  REQUIRE(out->elements() == expected.size());
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const std::uint32_t want = runtime::f32_bits(static_cast<float>(expected[i]));
    if (out->get(i) != want && bad++ < 4)
      UNSCOPED_INFO(fmt::format("element {}: got {:#010x} want {:#010x} ({})", i, out->get(i), want,
                                expected[i]));
  }
  CHECK(bad == 0);
  CHECK(testing::poisoned_cells(got) == 0);
}

const char* kHeader = "#![feature(adt_const_params)]\n"
                      "extern crate furiosa_opt_std;\n"
                      "use furiosa_opt_std::prelude::*;\n";

#define SPATIAL "m![1], m![1 # 2], m![1 # 256]"

} // namespace

// ---------------------------------------------------------------------------------------------
// (a), (b) Differential tests against the fused interpreter
// ---------------------------------------------------------------------------------------------

TEST_CASE("stage exec: every corpus chain matches the fused interpreter bit for bit",
          "[stage-exec]") {
  std::size_t run = 0;
  std::uint64_t seed = 11;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& kernel : file->kernels) {
      auto p = ir::seq::lower_contraction(testing::checked(kernel));
      if (!p) continue; // no complete chain (covered by the partial-kernel tests below)
      INFO(path.filename().string() << " :: " << kernel.name);
      const testing::jit::Operands o = testing::jit::operands_for(*p, seed += 7);
      CHECK(staged_vs_fused(kernel, *p, o, false) == 0);
      ++run;
    }
  }
  WARN(run << " corpus chains compared");
  CHECK(run >= 20);
}

TEST_CASE("stage exec: generated kernels match the fused interpreter bit for bit", "[stage-exec]") {
  struct Batch {
    std::uint64_t seed;
    std::size_t kernels;
    bool padded_reduced_cycles;
  };
  std::size_t run = 0, refused = 0, poisoned = 0, ftz = 0;
  for (const Batch b : {Batch{20261130, 200, false}, Batch{77, 40, true}}) {
    testing::KernelGenOptions opt;
    opt.allow_padded_reduced_cycles = b.padded_reduced_cycles;
    testing::KernelGenerator gen(b.seed, opt);
    std::size_t done = 0;
    for (std::size_t i = 0; done < b.kernels && i < 3 * b.kernels; ++i) {
      const testing::AnalyzedKernel a = testing::next_analyzed(gen);
      INFO(a.context());
      auto p = ir::seq::lower_contraction(testing::checked(a.kernel()));
      if (!p) {
        ++refused; // the lowering's known refusals (kernel_gen.h findings); not this test's
        continue;
      }
      const testing::jit::Operands o = testing::jit::operands_for(*p, 97 * i + b.seed);
      const bool with_ftz = i % 4 == 3 && p->accumulator == ir::ScalarType::F32;
      CHECK(staged_vs_fused(a.kernel(), *p, o, with_ftz) == 0);
      poisoned += a.generated.expected_poison;
      ftz += with_ftz;
      ++done;
    }
    CHECK(done == b.kernels);
    run += done;
  }
  WARN(fmt::format("{} generated kernels compared ({} with poison, {} with ftz_results), {} "
                   "refused by lower_contraction",
                   run, poisoned, ftz, refused));
  CHECK(poisoned > 0);
}

// ---------------------------------------------------------------------------------------------
// docs/cli.md §6: every kernel of the corpus with a contraction stage runs
// ---------------------------------------------------------------------------------------------

TEST_CASE("stage exec: every corpus kernel with a contraction stage runs and reads back",
          "[stage-exec]") {
  std::size_t run = 0, partial = 0, read_back = 0;
  std::uint64_t seed = 5;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& kernel : file->kernels) {
      auto span = ir::seq::find_contraction_stages(kernel);
      if (!span) continue; // stores, fetch-only kernels
      INFO(path.filename().string() << " :: " << kernel.name);
      const ir::Stage& first = kernel.stages[span->first];
      auto x = small_tensor(first.input, file->axes, ++seed);
      auto in = testing::to_device(x, first.input);
      REQUIRE(in.ok());
      std::optional<DeviceImage> trf;
      if (first.op == ir::StageOp::ContractOuter) {
        REQUIRE(first.trf.has_value());
        auto w = small_tensor(*first.trf, file->axes, ++seed);
        auto wi = testing::to_device(w, *first.trf);
        REQUIRE(wi.ok());
        trf = std::move(*wi);
      }
      auto out = testing::exec_contraction_stages(kernel, span->first, span->last, *in,
                                                  trf ? &*trf : nullptr);
      if (!out)
        for (const auto& d : out.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
      REQUIRE(out.ok());
      // The result reads back over the output's axes (unless its mappings hold only some digits
      // of an axis, e.g. weighted_sum's `T / 16`: then no logical tensor describes it).
      const ir::TensorType& out_type = kernel.stages[span->last].output;
      auto coverage =
          testing::layout_coverage(out_type, runtime::tensor_axes(out_type, file->axes));
      REQUIRE(coverage.ok());
      if (coverage->unreached == 0) {
        auto back = testing::from_device(out->image, out_type, file->axes);
        if (!back)
          for (const auto& d : back.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
        CHECK(back.ok());
        ++read_back;
      }
      partial += span->path.size() < 4;
      ++run;
    }
  }
  WARN(run << " corpus kernels run stage by stage, " << partial << " of them partial chains, "
           << read_back << " read back");
  CHECK(partial >= 5);
  CHECK(read_back >= partial);
}

// ---------------------------------------------------------------------------------------------
// (c) Partial chains against hand computations
// ---------------------------------------------------------------------------------------------

TEST_CASE("stage exec: the Outer-only spec kernels give the elementwise products", "[stage-exec]") {
  // contract_outer sums nothing: each cell of the ContractOuterTensor is one product
  // stream × TRF of the coordinates it holds (docs/contraction.md §5.4); bf16 × bf16 is exact in
  // f32.
  for (const char* name :
       {"stream_adapter_example", "trf_sequencer_full_read", "trf_sequencer_partial_read"}) {
    INFO(name);
    auto file = ir::load_spec(std::string(TUJIT_SOURCE_DIR) + "/specs/" + name + ".rs");
    REQUIRE(file.ok());
    const ir::Kernel& k = kernel_named(*file, name);
    auto span = ir::seq::find_contraction_stages(k);
    REQUIRE(span.ok());
    REQUIRE(span->path.size() == 1);
    const ir::Stage& outer = k.stages[span->first];
    REQUIRE(outer.op == ir::StageOp::ContractOuter);
    const LogicalTensor x = small_tensor(*param(k, "input").tensor, file->axes, 3);
    const LogicalTensor w = small_tensor(*outer.trf, file->axes, 4);
    auto xi = testing::to_device(x, outer.input);
    auto wi = testing::to_device(w, *outer.trf);
    REQUIRE(xi.ok());
    REQUIRE(wi.ok());
    auto out = testing::exec_contraction_stages(k, span->first, span->last, *xi, &*wi);
    REQUIRE(out.ok());
    const ir::TensorType& type = k.stages[span->last].output;
    check_against(*out, type, file->axes,
                  einsum({&x, &w}, runtime::tensor_axes(type, file->axes), false));
    // Every cell holding an element is Live; the padding slices are not computed.
    std::uint64_t live = 0;
    for (auto s : out->image.state) live += s == CellState::Live;
    std::uint64_t elements = 1;
    for (const auto& a : runtime::tensor_axes(type, file->axes)) elements *= a.size;
    CHECK(live == elements);
  }
}

TEST_CASE("stage exec: the Lane-Folder-only spec kernels relocate without changing a value",
          "[stage-exec]") {
  for (const char* name : {"lane_interleaved", "lane_sequential"}) {
    INFO(name);
    auto file = ir::load_spec(std::string(TUJIT_SOURCE_DIR) + "/specs/" + name + ".rs");
    REQUIRE(file.ok());
    const ir::Kernel& k = kernel_named(*file, name);
    auto span = ir::seq::find_contraction_stages(k);
    REQUIRE(span.ok());
    REQUIRE(span->path.size() == 1);
    const ir::Stage& lane = k.stages[span->first];
    REQUIRE(lane.op == ir::StageOp::ContractLane);
    const LogicalTensor a = small_tensor(lane.input, file->axes, 9);
    auto ai = testing::to_device(a, lane.input);
    REQUIRE(ai.ok());
    auto out = testing::exec_contraction_stages(k, span->first, span->last, *ai, nullptr);
    REQUIRE(out.ok());
    const ir::TensorType& type = k.stages[span->last].output;
    check_against(*out, type, file->axes,
                  einsum({&a}, runtime::tensor_axes(type, file->axes), false));
  }
}

namespace {

// Partial chains from a stream: K is summed by the tree (d = 4, P2 = [J] keeps the packed J),
// R by the Time Reducer (outermost, InnerTime 4).
const std::string kStreamKernels = std::string(kHeader) + R"(
axes![M = 4, N = 8, K = 16, R = 2, J = 2];

fn stream_to_packet<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, )" SPATIAL R"(, m![R, M, J], m![K]>,
    trf: &TrfTensor<bf16, )" SPATIAL R"(, m![N], m![R, J, K]>,
) -> ContractPacketTensor<'l, T, f32, )" SPATIAL R"(, m![N], m![R, M], m![J]> {
    input.contract_outer::<m![R, M], m![J, K], _, _, _>(trf).contract_packet::<m![J]>()
}

fn stream_to_time<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, )" SPATIAL R"(, m![R, M, J], m![K]>,
    trf: &TrfTensor<bf16, )" SPATIAL R"(, m![N], m![R, J, K]>,
) -> ContractTimeTensor<'l, T, f32, )" SPATIAL R"(, m![N], m![M], m![J]> {
    input
        .contract_outer::<m![R, M], m![J, K], _, _, _>(trf)
        .contract_packet::<m![J]>()
        .contract_time::<m![M]>()
}
)";

// Partial chains from a ContractOuterTensor parameter: the tree sums the whole 64 B packet
// (d = 5), the Time Reducer sums A (outermost).
const std::string kOuterKernels = std::string(kHeader) + R"(
axes![A = 4, M = 2, N = 8, K = 32];

fn outer_to_packet<'l, const T: Tu>(
    input: ContractOuterTensor<'l, T, f32, bf16, )" SPATIAL R"(, m![N], m![A, M], m![K]>,
) -> ContractPacketTensor<'l, T, f32, )" SPATIAL R"(, m![N], m![A, M], m![1]> {
    input.contract_packet::<m![1]>()
}

fn outer_to_time<'l, const T: Tu>(
    input: ContractOuterTensor<'l, T, f32, bf16, )" SPATIAL R"(, m![N], m![A, M], m![K]>,
) -> ContractTimeTensor<'l, T, f32, )" SPATIAL R"(, m![N], m![M], m![1]> {
    input.contract_packet::<m![1]>().contract_time::<m![M]>()
}
)";

// Lane Folder with fewer than 8 lanes and fewer than 8 columns: padding in both output orders.
const std::string kLaneKernels = std::string(kHeader) + R"(
axes![X = 4, M = 2, P = 4];

fn fold_interleaved<'l, const T: Tu>(
    input: ContractTimeTensor<'l, T, f32, )" SPATIAL R"(, m![X], m![M], m![P]>,
) -> ContractTensor<'l, T, f32, )" SPATIAL R"(, m![M, P], m![X # 8]> {
    input.contract_lane::<m![M, P], m![X # 8]>(LaneMode::Interleaved)
}

fn fold_sequential<'l, const T: Tu>(
    input: ContractTimeTensor<'l, T, f32, )" SPATIAL R"(, m![X], m![M], m![P]>,
) -> ContractTensor<'l, T, f32, )" SPATIAL R"(, m![M, X], m![P # 8]> {
    input.contract_lane::<m![M, X], m![P # 8]>(LaneMode::Sequential)
}
)";

std::size_t span_last(const ir::Kernel& k) {
  auto span = ir::seq::find_contraction_stages(k);
  REQUIRE(span.ok());
  return span->last;
}

Result<StageImage> run_kernel_stages(const ir::Kernel& k, const StageImage& in,
                                     const DeviceImage* trf = nullptr) {
  auto span = ir::seq::find_contraction_stages(k);
  if (!span) return span.diagnostics();
  return testing::exec_contraction_stages(k, span->first, span->last, in, trf);
}

/// A ContractOuterTensor image of `outer_to_*` with every cell of slice 0 Live and +0.
DeviceImage zero_outer_image(const ir::Kernel& k) {
  const ir::TensorType& t = *param(k, "input").tensor;
  const std::uint64_t rows = t.mapping(ir::Slot::Lane).size() * t.mapping(ir::Slot::Time).size();
  DeviceImage img(ir::ScalarType::F32, 512, rows, t.mapping(ir::Slot::Packet).size());
  std::fill(img.state.begin(), img.state.end(), CellState::Top); // padding slices
  for (std::uint64_t i = 0; i < rows * img.inner; ++i) {
    img.state[i] = CellState::Live;
    img.bits[i] = 0;
  }
  return img;
}

} // namespace

TEST_CASE("stage exec: partial chains from a stream equal float64 sums", "[stage-exec]") {
  const ir::SpecFile file = testing::interp::parse_spec(kStreamKernels);
  for (const char* name : {"stream_to_packet", "stream_to_time"}) {
    INFO(name);
    const ir::Kernel& k = kernel_named(file, name);
    const LogicalTensor x = small_tensor(*param(k, "input").tensor, file.axes, 21);
    const LogicalTensor w = small_tensor(*param(k, "trf").tensor, file.axes, 22);
    auto xi = testing::to_device(x, *param(k, "input").tensor);
    auto wi = testing::to_device(w, *param(k, "trf").tensor);
    REQUIRE(xi.ok());
    REQUIRE(wi.ok());
    auto out = run_kernel_stages(k, *xi, &*wi);
    if (!out)
      for (const auto& d : out.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
    REQUIRE(out.ok());
    const ir::TensorType& type = *k.returned;
    // Σ over K (and R for stream_to_time) of x · w: at most 32 products of |v| ≤ 16, exact.
    const bool time_reduced = k.stages[span_last(k)].op == ir::StageOp::ContractTime;
    check_against(*out, type, file.axes,
                  einsum({&x, &w}, runtime::tensor_axes(type, file.axes), time_reduced));
  }
}

TEST_CASE("stage exec: partial chains from a ContractOuterTensor parameter", "[stage-exec]") {
  const ir::SpecFile file = testing::interp::parse_spec(kOuterKernels);
  const ir::Kernel& to_packet = kernel_named(file, "outer_to_packet");
  const ir::Kernel& to_time = kernel_named(file, "outer_to_time");
  // Image row of (lane n, OT position (a, m)) in the [Lane, Time] outer dimension.
  const auto row = [](std::uint64_t n, std::uint64_t a, std::uint64_t m) {
    return n * 8 + a * 2 + m;
  };
  const auto bits = [](float f) { return runtime::f32_bits(f); };

  SECTION("float64 sums of small integers") {
    for (const ir::Kernel* k : {&to_packet, &to_time}) {
      INFO(k->name);
      const LogicalTensor x = small_tensor(*param(*k, "input").tensor, file.axes, 31);
      auto xi = testing::to_device(x, *param(*k, "input").tensor);
      REQUIRE(xi.ok());
      auto out = run_kernel_stages(*k, *xi);
      REQUIRE(out.ok());
      check_against(*out, *k->returned, file.axes,
                    einsum({&x}, runtime::tensor_axes(*k->returned, file.axes), k == &to_time));
    }
  }

  SECTION("the Packet Reducer pairs adjacent cells, depth by depth (§9.2)") {
    // x = [1, 2^25, -2^25, 1, 0, …]: level 1 gives 1 ⊕ 2^25 = 2^25 (the 1 is below half an ulp)
    // and -2^25 ⊕ 1 = -2^25, level 2 gives 0, the remaining levels add +0: the result is 0.
    // A left fold would give ((1 + 2^25) - 2^25) + 1 = 1, the exact sum is 2.
    DeviceImage img = zero_outer_image(to_packet);
    const std::uint64_t r = row(3, 1, 0);
    img.bits[img.index(0, r, 0)] = bits(1.0f);
    img.bits[img.index(0, r, 1)] = bits(33554432.0f);
    img.bits[img.index(0, r, 2)] = bits(-33554432.0f);
    img.bits[img.index(0, r, 3)] = bits(1.0f);
    // Another row: -0 and 31 ABSENT cells. ABSENT ⊕ v = v keeps the sign (§9.4); treating the
    // absent cells as +0 would give +0.
    const std::uint64_t r2 = row(5, 2, 1);
    img.bits[img.index(0, r2, 7)] = bits(-0.0f);
    for (std::uint64_t p = 0; p < 32; ++p)
      if (p != 7) img.state[img.index(0, r2, p)] = CellState::Zero;
    auto out = run_kernel_stages(to_packet, img);
    REQUIRE(out.ok());
    CHECK(out->image.bits[out->image.index(0, r, 0)] == bits(0.0f));
    CHECK(out->image.state[out->image.index(0, r, 0)] == CellState::Live);
    CHECK(out->image.bits[out->image.index(0, r2, 0)] == 0x80000000u);
    CHECK(out->image.state[out->image.index(0, r2, 0)] == CellState::Live);
    // The other rows hold +0 sums.
    CHECK(out->image.bits[out->image.index(0, row(3, 1, 1), 0)] == 0u);
  }

  SECTION("the Time Reducer adds in increasing OT position from +0 (§7, §9.2)") {
    // Lane 2, M = 1: the trees give r_a = [2^25, 1, 1, -2^25] for a = 0..3 (one non-zero cell
    // per row). In flit order: ((((+0 + 2^25) + 1) + 1) - 2^25) = 0 (each +1 is rounded away);
    // the exact sum is 2, a pairwise (r0 + r3) + (r1 + r2) also 2.
    DeviceImage img = zero_outer_image(to_time);
    const float r[] = {33554432.0f, 1.0f, 1.0f, -33554432.0f};
    for (std::uint64_t a = 0; a < 4; ++a) img.bits[img.index(0, row(2, a, 1), 9)] = bits(r[a]);
    // Lane 6, M = 0: -0 products only: +0 ⊕ -0 = +0 (the accumulator starts at +0).
    for (std::uint64_t a = 0; a < 4; ++a) img.bits[img.index(0, row(6, a, 0), 0)] = bits(-0.0f);
    auto out = run_kernel_stages(to_time, img);
    REQUIRE(out.ok());
    // ContractTimeTensor [N] × [M] × [1]: row n·2 + m.
    CHECK(out->image.bits[out->image.index(0, 2 * 2 + 1, 0)] == bits(0.0f));
    CHECK(out->image.bits[out->image.index(0, 6 * 2 + 0, 0)] == 0u);
    CHECK(out->image.state[out->image.index(0, 2 * 2 + 1, 0)] == CellState::Live);
  }

  SECTION("Top content poisons what it is summed into; its value is ABSENT (§9.4)") {
    DeviceImage img = zero_outer_image(to_time);
    // Lane 1, M = 1: products 1, 2, 3, 4 in the four OT positions a; one extra Top cell in a = 2.
    for (std::uint64_t a = 0; a < 4; ++a)
      img.bits[img.index(0, row(1, a, 1), 4)] = bits(static_cast<float>(a + 1));
    img.state[img.index(0, row(1, 2, 1), 5)] = CellState::Top;
    img.bits[img.index(0, row(1, 2, 1), 5)] = runtime::poison_bits(ir::ScalarType::F32);
    // Lane 4, M = 0: a Zero cell is absent and clean.
    img.state[img.index(0, row(4, 0, 0), 0)] = CellState::Zero;
    // A Top cell in a padding slice is never read.
    img.state[img.index(1, row(0, 0, 0), 0)] = CellState::Top;
    auto packet = run_kernel_stages(to_packet, img);
    REQUIRE(packet.ok());
    // The Packet Reducer's column is Top and present: 3 + ABSENT.
    const std::uint64_t pc = packet->image.index(0, row(1, 2, 1), 0);
    CHECK(packet->image.state[pc] == CellState::Top);
    CHECK(packet->is_present(pc));
    CHECK(packet->image.bits[pc] == bits(3.0f));
    CHECK(testing::poisoned_cells(*packet) == 1);
    auto out = run_kernel_stages(to_time, img);
    REQUIRE(out.ok());
    const std::uint64_t oc = out->image.index(0, 1 * 2 + 1, 0);
    CHECK(out->image.state[oc] == CellState::Top);
    CHECK(out->image.bits[oc] == bits(10.0f)); // 1 + 2 + 3 + 4, the Top cell absent
    CHECK(out->image.state[out->image.index(0, 4 * 2 + 0, 0)] == CellState::Live);
    CHECK(testing::poisoned_cells(*out) == 1);
  }

  SECTION("an all-Top packet is absent but still poisons the slot") {
    DeviceImage img = zero_outer_image(to_time);
    for (std::uint64_t p = 0; p < 32; ++p) {
      img.state[img.index(0, row(7, 3, 0), p)] = CellState::Top;
      img.bits[img.index(0, row(7, 3, 0), p)] = runtime::poison_bits(ir::ScalarType::F32);
    }
    img.bits[img.index(0, row(7, 0, 0), 0)] = bits(-2.0f);
    auto packet = run_kernel_stages(to_packet, img);
    REQUIRE(packet.ok());
    const std::uint64_t pc = packet->image.index(0, row(7, 3, 0), 0);
    CHECK(packet->image.state[pc] == CellState::Top);
    CHECK_FALSE(packet->is_present(pc));
    CHECK(testing::poisoned_cells(*packet) == 0);
    auto out = run_kernel_stages(to_time, img);
    REQUIRE(out.ok());
    const std::uint64_t oc = out->image.index(0, 7 * 2 + 0, 0);
    CHECK(out->image.state[oc] == CellState::Top);
    CHECK(out->image.bits[oc] == bits(-2.0f));
    CHECK(testing::poisoned_cells(*out) == 1);
  }
}

TEST_CASE("stage exec: the Lane Folder drains in the spec's Interleaved / Sequential order",
          "[stage-exec]") {
  // A hand-made ContractTimeTensor image whose cell (l, u, c) holds a code naming it; the
  // expected flits are produced by the loops of docs/contraction.md §8 written out literally.
  const auto code = [](std::uint64_t l, std::uint64_t u, std::uint64_t c) {
    return static_cast<std::uint32_t>(0x01000000u + (l << 16) + (u << 8) + c);
  };
  struct Case {
    std::string text;
    const char* kernel;
  };
  auto spec_text = [](const char* f) {
    std::ifstream in(std::string(TUJIT_SOURCE_DIR) + "/specs/" + f);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  for (const Case& c :
       {Case{spec_text("lane_interleaved.rs"), "lane_interleaved"},
        Case{spec_text("lane_sequential.rs"), "lane_sequential"},
        Case{kLaneKernels, "fold_interleaved"}, Case{kLaneKernels, "fold_sequential"}}) {
    INFO(c.kernel);
    const ir::SpecFile file = testing::interp::parse_spec(c.text);
    const ir::Kernel& k = kernel_named(file, c.kernel);
    const ir::TensorType& in_t = *param(k, "input").tensor;
    const std::uint64_t lanes = in_t.mapping(ir::Slot::Lane).size();
    const std::uint64_t t2 = in_t.mapping(ir::Slot::Time).size();
    const std::uint64_t p2 = in_t.mapping(ir::Slot::Packet).size();
    DeviceImage img(ir::ScalarType::F32, 512, lanes * t2, p2);
    for (std::uint64_t l = 0; l < lanes; ++l)
      for (std::uint64_t u = 0; u < t2; ++u)
        for (std::uint64_t col = 0; col < p2; ++col) {
          img.state[img.index(0, l * t2 + u, col)] = CellState::Live;
          img.bits[img.index(0, l * t2 + u, col)] = code(l, u, col);
        }
    std::vector<std::array<std::uint32_t, 8>> flits;
    auto span = ir::seq::find_contraction_stages(k);
    REQUIRE(span.ok());
    const ir::Stage& fold = k.stages[span->last];
    REQUIRE(fold.op == ir::StageOp::ContractLane);
    const bool sequential = fold.lane_mode == ir::LaneMode::Sequential;
    if (!sequential) {
      // for u in T2, for c in 0..|P2|-1: flit[j] = acc[j][u][c] (j < |Lane|), else 0
      for (std::uint64_t u = 0; u < t2; ++u)
        for (std::uint64_t col = 0; col < p2; ++col) {
          std::array<std::uint32_t, 8> f{};
          for (std::uint64_t j = 0; j < 8; ++j) f[j] = j < lanes ? code(j, u, col) : 0;
          flits.push_back(f);
        }
    } else {
      // for u in T2, for l, for q in 0..ceil(|P2|/8)-1: flit[j] = acc[l][u][8q+j] or 0
      for (std::uint64_t u = 0; u < t2; ++u)
        for (std::uint64_t l = 0; l < lanes; ++l)
          for (std::uint64_t q = 0; q < (p2 + 7) / 8; ++q) {
            std::array<std::uint32_t, 8> f{};
            for (std::uint64_t j = 0; j < 8; ++j) f[j] = 8 * q + j < p2 ? code(l, u, 8 * q + j) : 0;
            flits.push_back(f);
          }
    }
    auto out = run_kernel_stages(k, img);
    if (!out)
      for (const auto& d : out.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
    REQUIRE(out.ok());
    REQUIRE(out->image.outer == flits.size());
    REQUIRE(out->image.inner == 8);
    std::uint64_t bad = 0;
    for (std::uint64_t f = 0; f < flits.size(); ++f)
      for (std::uint64_t j = 0; j < 8; ++j) {
        const std::uint64_t i = out->image.index(0, f, j);
        const bool pad = flits[f][j] == 0;
        bad += out->image.bits[i] != flits[f][j];
        bad += out->image.state[i] != (pad ? CellState::Zero : CellState::Live);
      }
    CHECK(bad == 0);
    // Padding slices are not computed.
    for (std::uint64_t i = out->image.index(1, 0, 0); i < out->image.cells(); ++i)
      bad += out->image.state[i] != CellState::Zero || out->image.bits[i] != 0;
    CHECK(bad == 0);
  }
}

TEST_CASE("stage exec: refusals are diagnostics", "[stage-exec]") {
  const ir::SpecFile file = testing::interp::parse_spec(kOuterKernels);
  const ir::Kernel& k = kernel_named(file, "outer_to_time");
  // An image of the wrong shape.
  DeviceImage wrong(ir::ScalarType::F32, 512, 3, 32);
  auto r = run_kernel_stages(k, wrong);
  REQUIRE_FALSE(r.ok());
  CHECK(r.diagnostics().front().code == "E-RUN-102");
  // A stage range that is not a chain (time before packet), and a wrong stage kind.
  auto path = ir::seq::contraction_path(k, 1, 0);
  REQUIRE_FALSE(path.ok());
  CHECK(path.diagnostics().front().code == "E-RUN-101");
  auto wrong_kind = testing::exec_contract_time(k.stages[0], StageImage(wrong));
  REQUIRE_FALSE(wrong_kind.ok());
  CHECK(wrong_kind.diagnostics().front().code == "E-RUN-101");
}

// Runs through the Transpose Engine (docs/transpose.md §4) on both engines: the book's examples
// (specs/transpose_*.rs, a CollectTensor parameter transposed) and the whole kernels of
// specs/kernels/ that transpose a collected stream and a Vector Engine pass's result. Each output
// is checked against a computation written here: the engine's five stages on device positions
// (the input matrix built from the flits, transposed, trimmed, aligned) for the book's examples,
// and a brute-force transpose of the input's HBM image for the whole kernels.
#include "harness/run/run_pipeline.h"
#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"
#include "ir/verify/transpose.h"
#include "tests/support/checked.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

using namespace tujit;
namespace fs = std::filesystem;

namespace {

ir::SpecFile load(const std::string& rel) {
  auto f = ir::load_spec((fs::path(TUJIT_SOURCE_DIR) / rel).string());
  if (!f)
    for (const auto& d : f.diagnostics()) UNSCOPED_INFO(d.code << " " << d.message);
  REQUIRE(f.ok());
  REQUIRE(f->kernels.size() == 1);
  const ir::Kernel& k = f->kernels.front();
  const auto check = ir::verify::check_kernel(*f, k);
  for (const auto& d : check.all_diagnostics()) UNSCOPED_INFO(d.code << " " << d.message);
  REQUIRE(check.ok());
  return std::move(*f);
}

/// A fixed finite element of `t` from `i` (never zero, never NaN or infinite): integers over the
/// type's range, floats with magnitudes in [2^-7, 2) and either sign.
std::uint32_t fixed_element(ir::ScalarType t, std::uint64_t i) {
  std::uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  const auto h = static_cast<std::uint32_t>(x >> 16);
  switch (ir::encoding(t)) {
  case ir::Encoding::F32:
    return ((h & 1u) << 31) | ((120u + ((h >> 1) & 7u)) << 23) | ((h >> 4) & 0x7FFFFFu);
  case ir::Encoding::Bf16:
    return ((h & 1u) << 15) | ((120u + ((h >> 1) & 7u)) << 7) | ((h >> 4) & 0x7Fu);
  default:
    break;
  }
  const auto r = ir::integer_range(t);
  REQUIRE(r.has_value());
  const auto span = static_cast<std::uint64_t>(r->second - r->first + 1);
  return static_cast<std::uint32_t>(r->first + static_cast<std::int64_t>(h % span));
}

struct Runs {
  run::RunOutcome jit, interp;
  runtime::LogicalTensor input;
};

/// The kernel on both engines with `--verify`, on one fixed input (its only input parameter).
Runs run_both(const ir::SpecFile& f) {
  const ir::Kernel& k = f.kernels.front();
  auto ops = ir::seq::find_run_operands(k);
  if (!ops)
    for (const auto& d : ops.diagnostics()) UNSCOPED_INFO(d.code << " " << d.message);
  REQUIRE(ops.ok());
  REQUIRE(ops->transpose != nullptr);
  REQUIRE(ops->inputs().size() == 1);
  const ir::KernelParam& p = *ops->inputs().front();
  auto tiles = ir::seq::input_tiles(f, k, *ops);
  REQUIRE(tiles.ok());
  auto x = runtime::make_logical_tensor(p.tensor->dtype, tiles->at(p.name));
  REQUIRE(x.ok());
  for (std::uint64_t i = 0; i < x->elements(); ++i) x->set(i, fixed_element(x->dtype, i));
  Runs out{{}, {}, *x};
  for (run::Engine e : {run::Engine::Jit, run::Engine::Interp}) {
    run::RunRequest req;
    req.engine = e;
    req.threads = 2;
    req.jit.use_cache = false;
    req.verify = true;
    req.given[p.name] = *x;
    auto r = run::run_kernel(f, testing::checked(k), *ops, req);
    if (!r)
      for (const auto& d : r.diagnostics()) UNSCOPED_INFO(d.code << " " << d.message);
    REQUIRE(r.ok());
    REQUIRE(r->verify.has_value());
    INFO(r->verify->engine_difference);
    CHECK(r->verify->engines_bit_exact);
    INFO(r->verify->oracle_not_applicable.value_or(""));
    CHECK_FALSE(r->verify->oracle_not_applicable.has_value());
    CHECK(r->verify->oracle_ok);
    (e == run::Engine::Jit ? out.jit : out.interp) = std::move(*r);
  }
  CHECK(out.jit.output == out.interp.output);
  CHECK(out.jit.sha256 == out.interp.sha256);
  return out;
}

/// The spatial cells of a stream type: Chip, Cluster, Slice combined, major first.
std::vector<ir::Cell> spatial_cells(const ir::TensorType& t) {
  const ir::Mapping &chip = t.mapping(ir::Slot::Chip), &cluster = t.mapping(ir::Slot::Cluster),
                    &slice = t.mapping(ir::Slot::Slice);
  std::vector<ir::Cell> out;
  for (std::uint64_t a = 0; a < chip.size(); ++a)
    for (std::uint64_t b = 0; b < cluster.size(); ++b)
      for (std::uint64_t c = 0; c < slice.size(); ++c)
        out.push_back(ir::combine(ir::combine(chip.map(a), cluster.map(b)), slice.map(c)));
  return out;
}

/// The transpose stage's output, cell by cell, against the engine's stages on device positions
/// (docs/transpose.md §4, from the book's Architecture section): in iteration o, output row j at
/// packet position r holds input row r's column j, which is element j mod valid_size of flit
/// (o · in_rows + r) · packets_per_col + j / valid_size; positions r ≥ in_rows are Align's
/// padding. `x` holds the transpose's input, `y` its output, as logical tensors.
void check_against_the_engine(const ir::Stage& tr, const runtime::LogicalTensor& x,
                              const runtime::LogicalTensor& y) {
  const ir::TensorType &in = tr.input, &out = tr.output;
  const ir::Mapping &t = in.mapping(ir::Slot::Time), &p = in.mapping(ir::Slot::Packet);
  const ir::Mapping &ot = out.mapping(ir::Slot::Time), &op = out.mapping(ir::Slot::Packet);
  auto d = ir::verify::verify_transpose({in.dtype, t, p, ot, op});
  REQUIRE(d.ok());
  std::uint64_t compared = 0;
  for (const ir::Cell& s : spatial_cells(out)) {
    if (!s.is_live()) continue;
    for (std::uint64_t flit = 0; flit < ot.size(); ++flit) {
      const std::uint64_t o = flit / d->out_rows, j = flit % d->out_rows;
      for (std::uint64_t r = 0; r < op.size(); ++r) {
        const ir::Cell got = ir::combine(s, ir::combine(ot.map(flit), op.map(r)));
        if (r >= d->in_rows) {
          CHECK_FALSE(got.is_live());
          continue;
        }
        const std::uint64_t src_flit =
            (o * d->in_rows + r) * d->packets_per_col + j / d->valid_size;
        const ir::Cell want =
            ir::combine(s, ir::combine(t.map(src_flit), p.map(j % d->valid_size)));
        REQUIRE(got.is_live() == want.is_live());
        if (!got.is_live()) continue;
        INFO("output " << y.coordinate_text(y.offset(got.index)));
        CHECK(y.get(y.offset(got.index)) == x.get(x.offset(want.index)));
        ++compared;
      }
    }
  }
  CHECK(compared == y.elements());
}

/// Row-major offset over `shape` of the index `ix` (one per dimension).
std::uint64_t row_major(const std::vector<std::uint64_t>& shape,
                        const std::vector<std::uint64_t>& ix) {
  std::uint64_t off = 0;
  for (std::size_t a = 0; a < shape.size(); ++a) off = off * shape[a] + ix[a];
  return off;
}

/// The HBM image of a logical tensor `y` laid out by the returned HbmTensor's Element mapping.
std::vector<std::uint32_t> hbm_image(const ir::TensorType& hbm, const runtime::LogicalTensor& y) {
  const ir::Mapping& element = hbm.mapping(ir::Slot::Element);
  std::vector<std::uint32_t> img(element.size());
  for (std::uint64_t a = 0; a < element.size(); ++a) {
    const ir::Cell c = element.map(a);
    REQUIRE(c.is_live());
    img[a] = y.get(y.offset(c.index));
  }
  return img;
}

} // namespace

TEST_CASE("the book's Transpose Engine examples run: both engines move what the engine moves",
          "[transpose][cli-run]") {
  for (const char* spec :
       {"specs/transpose_basic.rs", "specs/transpose_small.rs", "specs/transpose_large_col.rs",
        "specs/transpose_bf16.rs", "specs/transpose_i4.rs", "specs/transpose_f32.rs"}) {
    CAPTURE(spec);
    const ir::SpecFile f = load(spec);
    const Runs r = run_both(f);
    const ir::Kernel& k = f.kernels.front();
    REQUIRE(k.stages.back().op == ir::StageOp::Transpose);
    check_against_the_engine(k.stages.back(), r.input, r.interp.output);
    // A relayout: the output holds every element of the input, unchanged.
    CHECK(r.interp.output == r.input);
  }
}

TEST_CASE("transpose_kernel: HBM → DM → collect → transpose → commit → HBM is the transposed input",
          "[transpose][whole_kernel][cli-run]") {
  const ir::SpecFile f = load("specs/kernels/transpose_kernel.rs");
  const Runs r = run_both(f);
  // The input is HBM m![P, B, C, D, E]; the result HBM m![P, B, D, E, C]: numpy's
  // x.transpose(0, 1, 3, 4, 2), written out.
  const std::uint64_t P = 256, B = 2, C = 8, D = 2, E = 8;
  REQUIRE(r.input.elements() == P * B * C * D * E);
  std::vector<std::uint32_t> want(r.input.elements());
  for (std::uint64_t p = 0; p < P; ++p)
    for (std::uint64_t b = 0; b < B; ++b)
      for (std::uint64_t c = 0; c < C; ++c)
        for (std::uint64_t d = 0; d < D; ++d)
          for (std::uint64_t e = 0; e < E; ++e)
            want[row_major({P, B, D, E, C}, {p, b, d, e, c})] =
                r.input.get(row_major({P, B, C, D, E}, {p, b, c, d, e}));
  REQUIRE(f.kernels.front().returned.has_value());
  CHECK(hbm_image(*f.kernels.front().returned, r.interp.output) == want);
  CHECK(hbm_image(*f.kernels.front().returned, r.jit.output) == want);
}

TEST_CASE("transpose_relu_kernel: a Vector Engine pass's result through the Transpose Engine",
          "[transpose][whole_kernel][cli-run]") {
  const ir::SpecFile f = load("specs/kernels/transpose_relu_kernel.rs");
  const Runs r = run_both(f);
  // HBM m![P, B, D, E] → max(x, 0) → HBM m![P, B, E, D]: x.transpose(0, 1, 3, 2) of the ReLU.
  // No input is zero or NaN, so max(x, +0) is x or +0 bit for bit.
  const std::uint64_t P = 256, B = 4, D = 2, E = 8;
  REQUIRE(r.input.elements() == P * B * D * E);
  std::vector<std::uint32_t> want(r.input.elements());
  std::uint64_t negative = 0;
  for (std::uint64_t p = 0; p < P; ++p)
    for (std::uint64_t b = 0; b < B; ++b)
      for (std::uint64_t d = 0; d < D; ++d)
        for (std::uint64_t e = 0; e < E; ++e) {
          const std::uint32_t v = r.input.get(row_major({P, B, D, E}, {p, b, d, e}));
          negative += (v >> 31) != 0;
          want[row_major({P, B, E, D}, {p, b, e, d})] = (v >> 31) != 0 ? 0u : v;
        }
  CHECK(negative > 0);
  REQUIRE(f.kernels.front().returned.has_value());
  CHECK(hbm_image(*f.kernels.front().returned, r.interp.output) == want);
  CHECK(hbm_image(*f.kernels.front().returned, r.jit.output) == want);
}

TEST_CASE("a contraction's result transposed: the same logical tensor as the chain's",
          "[transpose][cli-run]") {
  const char* text = R"(
axes![A = 2, B = 32, C = 8];
fn matmul_t<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, m![1], m![1 # 2], m![1 # 256], m![A, B / 16], m![B % 16]>,
    trf: &TrfTensor<bf16, m![1], m![1 # 2], m![1 # 256], m![C], m![B]>,
) -> TransposeTensor<'l, T, f32, m![1], m![1 # 2], m![1 # 256], m![C], m![A # 8]> {
    input.contract_outer::<m![A], m![B], _, _, _>(&trf)
         .contract_packet::<m![1]>()
         .contract_time::<m![A]>()
         .contract_lane::<m![A], m![C]>(LaneMode::Interleaved)
         .transpose()
}
)";
  auto f = ir::analyze_spec(SourceBuffer("matmul_t.rs", text));
  REQUIRE(f.ok());
  const ir::Kernel& k = f->kernels.front();
  const auto check = ir::verify::check_kernel(*f, k);
  for (const auto& d : check.all_diagnostics()) UNSCOPED_INFO(d.code << " " << d.message);
  REQUIRE(check.ok());
  // f32 rows A (2), one flit of C per row: in_cols 8, out_rows 8, one iteration.
  const auto& derived = check.stages.back().derived;
  CHECK(std::get<std::uint64_t>(derived.at("in_rows")) == 2);
  CHECK(std::get<std::uint64_t>(derived.at("out_rows")) == 8);
  CHECK(std::get<std::uint64_t>(derived.at("cycles")) == 2 + 8);
  // A transpose is a relayout (docs/transpose.md §4): the kernel returns the logical tensor the
  // chain returns without it, bit for bit, on the same seeded inputs.
  std::string plain = text;
  const std::string tail = "\n         .transpose()";
  plain.erase(plain.find(tail), tail.size());
  const std::string ret =
      "TransposeTensor<'l, T, f32, m![1], m![1 # 2], m![1 # 256], m![C], m![A # 8]>";
  plain.replace(plain.find(ret), ret.size(),
                "ContractTensor<'l, T, f32, m![1], m![1 # 2], m![1 # 256], m![A], m![C]>");
  auto g = ir::analyze_spec(SourceBuffer("matmul.rs", plain));
  REQUIRE(g.ok());
  std::string sha[2];
  for (int i = 0; i < 2; ++i) {
    const ir::SpecFile& file = i == 0 ? *f : *g;
    const ir::Kernel& kernel = file.kernels.front();
    auto ops = ir::seq::find_run_operands(kernel);
    REQUIRE(ops.ok());
    run::RunRequest req;
    req.seed = 12;
    req.verify = true;
    auto r = run::run_kernel(file, testing::checked(kernel), *ops, req);
    REQUIRE(r.ok());
    REQUIRE(r->verify.has_value());
    CHECK(r->verify->engines_bit_exact);
    CHECK(r->verify->oracle_ok);
    CHECK(r->output_axes == std::vector<std::string>{"A", "C"});
    sha[i] = r->sha256;
  }
  CHECK(sha[0] == sha[1]);
}

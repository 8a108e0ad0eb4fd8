// Executing the data path from DM (docs/datapath.md §4–§8): the Fetch sequencer's loop nest, the
// Fetch Adapter and Collect, run by the interpreter (runtime/interp/fetch_exec.h), against an
// independent computation — the Collect output's own layout (runtime/layout: mapping evaluation, no
// sequencer) of the same logical tensor — and end to end through `tujit run`'s pipeline.
#include "harness/run/run_pipeline.h"
#include "harness/run/run_plan.h"
#include "ir/seq/fetch_program.h"
#include "runtime/layout/layout.h"
#include "runtime/scalar/fetch_adapter.h"
#include "tests/support/checked.h"
#include "tests/support/device_layout.h"
#include "tests/support/fetch_exec.h"
#include "tests/support/fetch_streams_check.h"
#include "tests/support/spec_corpus.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <set>
#include <string>
#include <unordered_set>

using namespace tujit;
using runtime::CellState;

namespace {

/// The Collect stages of `k` that read a fetch directly: a switched chain moves packets across
/// slices, which the slice-by-slice executor does not run (its composed streams are checked by the
/// run test below and tests/unit/switch_run_test.cpp).
std::vector<std::size_t> fetch_collects(const ir::Kernel& k) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < k.stages.size(); ++i)
    if (k.stages[i].op == ir::StageOp::Collect && k.stages[i].producer &&
        k.stages[*k.stages[i].producer].unit() != ir::StageUnit::SwitchEngine)
      out.push_back(i);
  return out;
}

/// The row-major offset over `to` of the element at `off` over `from`: shared axes keep their
/// coordinate, axes only `to` has are at 0.
std::uint64_t project_offset(std::uint64_t off, const std::vector<ir::Axis>& from,
                             const std::vector<ir::Axis>& to) {
  std::vector<std::uint64_t> c(from.size());
  for (std::size_t a = from.size(); a-- > 0;) {
    c[a] = off % from[a].size;
    off /= from[a].size;
  }
  std::uint64_t out = 0;
  for (const auto& t : to) {
    std::uint64_t x = 0;
    for (std::size_t a = 0; a < from.size(); ++a)
      if (from[a] == t) x = c[a];
    out = out * t.size + x;
  }
  return out;
}

/// A valid container of `t` (device_image.h form) derived from `h`: integers sign-extended from
/// their width, floats' codes in the low bits (NaN codes included: the adapter must carry them).
std::uint32_t element_bits(ir::ScalarType t, std::uint64_t h) {
  const unsigned bits = ir::wire_bits(t);
  const auto low = static_cast<std::uint32_t>(h >> 17);
  if (bits >= 32) return low;
  const std::uint32_t code = low & ((1u << bits) - 1);
  if (ir::kind(t) == ir::ScalarKind::SignedInteger)
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(code << (32 - bits)) >>
                                      (32 - bits));
  return code;
}

} // namespace

TEST_CASE("datapath exec: every DM fetch chain of specs/ equals the direct layout of its "
          "collected stream",
          "[datapath-exec]") {
  // Each logical element's value is a hash of its coordinates (no logical tensor is built: some
  // DM tensors hold a small part of a very large one). The DM image holds those values where its
  // layout says; the collected stream must hold, at every live cell, the value of the element
  // the Collect output's own layout (mapping evaluation, no sequencer) says it holds.
  std::size_t chains = 0, casts = 0, zero_points = 0, stores = 0;
  std::uint64_t salt = 11;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& kernel : file->kernels)
      for (std::size_t collect : fetch_collects(kernel)) {
        INFO(path.filename().string() << " :: " << kernel.name << " stage " << collect);
        auto p = ir::seq::lower_fetch(testing::checked(kernel), collect);
        if (!p) {
          for (const auto& d : p.diagnostics()) UNSCOPED_INFO(render(d, &file->source));
        }
        REQUIRE(p.ok());
        CHECK(p->stage == collect); // consumers find an operand's program by this index
        ++salt;
        const auto value = [&](std::uint64_t offset) {
          return element_bits(p->dm_type, offset * 0x9E3779B97F4A7C15ull + salt);
        };
        const auto axes = runtime::tensor_axes(p->dm, file->axes);
        auto dm_cells = runtime::layout_cells(p->dm, axes);
        REQUIRE(dm_cells.ok());
        runtime::DeviceImage dm(p->dm_type, dm_cells->plan.spatial.size, dm_cells->plan.outer.size,
                                dm_cells->plan.inner.size);
        std::unordered_set<std::uint64_t> held;
        for (std::uint64_t i = 0; i < dm.cells(); ++i) {
          dm.state[i] = dm_cells->state[i];
          if (dm.state[i] == CellState::Live) {
            dm.bits[i] = value(dm_cells->offset[i]);
            held.insert(dm_cells->offset[i]);
          } else {
            dm.bits[i] = dm.state[i] == CellState::Top ? runtime::poison_bits(p->dm_type) : 0;
          }
        }
        auto got = testing::run_fetch(*p, dm, file->axes);
        REQUIRE(got.ok());
        // Axes the stream has and the DM tensor lacks are broadcast: the value does not depend
        // on them (coordinates are projected onto the DM tensor's axes). A stream coordinate the
        // DM layout does not hold (a digit the fetch broadcasts, e.g. gemm's J / 8 % 4 over a DM
        // tensor without J % 32) has no value of its own: only its liveness is compared; the
        // broadcast itself is the next test's.
        const auto stream_axes = runtime::tensor_axes(p->collected, file->axes);
        auto stream_cells = runtime::layout_cells(p->collected, stream_axes);
        REQUIRE(stream_cells.ok());
        REQUIRE(got->cells() == stream_cells->state.size());
        std::uint64_t live = 0, bad = 0, broadcast = 0;
        for (std::uint64_t i = 0; i < got->cells(); ++i) {
          const bool want_live = stream_cells->state[i] == CellState::Live;
          const std::uint64_t offset = project_offset(stream_cells->offset[i], stream_axes, axes);
          const bool value_known = want_live && held.count(offset) == 1;
          live += want_live;
          broadcast += want_live && !value_known;
          const std::uint32_t want =
              value_known ? runtime::fetch_adapter_bits(p->dm_type, p->lookup_to, p->cast_to,
                                                        p->zero_point, value(offset))
                          : 0;
          if (want_live != (got->state[i] == CellState::Live) ||
              (value_known && want != got->bits[i])) {
            if (bad++ < 4)
              UNSCOPED_INFO(fmt::format("cell {}: got {:#x} ({}), want {:#x} (live {})", i,
                                        got->bits[i], static_cast<int>(got->state[i]), want,
                                        want_live));
          }
        }
        CHECK(live > broadcast);
        CHECK(bad == 0);
        // Values of the type-only pass are poison, states identical.
        auto states = testing::run_fetch(*p, dm, file->axes, /*values=*/false);
        REQUIRE(states.ok());
        CHECK(states->state == got->state);
        ++chains;
        casts += p->cast_to.has_value();
        zero_points += p->zero_point.has_value();
        stores += p->consumer != ir::seq::FetchConsumer::Stream;
      }
  }
  INFO(chains << " chains, " << casts << " casts, " << zero_points << " zero points, " << stores
              << " stores");
  CHECK(chains >= 40);
  CHECK(casts >= 1); // forward__attention: bf16 → f32 before to_vrf
  CHECK(zero_points >= 1);
  CHECK(stores >= 20);
}

TEST_CASE("datapath exec: the address streams of every DM fetch chain of specs/ give the "
          "interpreter's collected stream",
          "[datapath-exec]") {
  // The run composes each fetch chain into address streams at lowering time; the image-based
  // fetch interpreter walks the sequencer over a whole DM image. On adversarial DM contents every
  // collected cell must agree: state, and adapted bits where live.
  std::size_t chains = 0;
  std::uint64_t seed = 3;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& kernel : file->kernels)
      for (std::size_t collect : fetch_collects(kernel)) {
        INFO(path.filename().string() << " :: " << kernel.name << " stage " << collect);
        auto p = ir::seq::lower_fetch(testing::checked(kernel), collect);
        REQUIRE(p.ok());
        const ir::KernelParam* dm = nullptr;
        for (const auto& param : kernel.params)
          if (param.name == p->source) dm = &param;
        // An interleaved fetch reads its pair of DM tensors as one BeginTensor (its own type,
        // docs/vector-engine.md §3.5), named after both.
        ir::KernelParam pair;
        if (dm == nullptr && p->dm.kind == ir::TensorKind::Begin) {
          pair.name = p->source;
          pair.tensor = p->dm;
          dm = &pair;
        }
        REQUIRE(dm != nullptr);
        const auto diff = testing::fetch_streams_difference(*p, *dm, file->axes, ++seed);
        INFO(diff.value_or(""));
        CHECK(!diff);
        ++chains;
      }
  }
  CHECK(chains >= 40);
}

TEST_CASE("datapath exec: the fetch reads DM in the sequencer's order, broadcast included",
          "[datapath-exec]") {
  // A stride-0 entry re-reads: OutTime `[T, A]` over Buf `[A]` (docs/datapath.md S5 shape, with a
  // one-flit packet) must give each A element T times, in time order.
  const std::string src = R"(
use furiosa_opt_std::prelude::*;
axes![A = 4, T = 3, K = 32];
pub fn bcast(ctx: &mut Context, x: &DmTensor<i8, m![1], m![1 # 2], m![1 # 256], m![A, K]>)
    -> CollectTensor<'_, { Tu::Main }, i8, m![1], m![1 # 2], m![1 # 256], m![T, A], m![K]> {
    ctx.main.begin(x.view()).fetch::<m![T, A], m![K]>().collect::<m![T, A], m![K]>()
}
)";
  auto file = ir::analyze_spec(SourceBuffer("bcast.rs", src));
  if (!file) {
    for (const auto& d : file.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  }
  REQUIRE(file.ok());
  const ir::Kernel& k = file->kernels.at(0);
  auto p = ir::seq::lower_fetch(testing::checked(k), fetch_collects(k).at(0));
  REQUIRE(p.ok());
  CHECK(p->sequencer.to_string() == "[3:0, 4:32, 32:1] : 32");
  const auto axes = runtime::tensor_axes(p->dm, file->axes);
  auto logical = runtime::make_logical_tensor(ir::ScalarType::I8, axes);
  REQUIRE(logical.ok());
  for (std::uint64_t i = 0; i < logical->elements(); ++i)
    logical->set(i, static_cast<std::uint32_t>(static_cast<std::int32_t>(i % 251) - 125));
  auto dm = testing::to_device(*logical, p->dm);
  REQUIRE(dm.ok());
  auto got = testing::run_fetch(*p, *dm, file->axes);
  if (!got) {
    for (const auto& d : got.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  }
  REQUIRE(got.ok());
  // Slice 0: flit (t, a) element k holds x[a][k].
  for (std::uint64_t t = 0; t < 3; ++t)
    for (std::uint64_t a = 0; a < 4; ++a)
      for (std::uint64_t e = 0; e < 32; ++e) {
        const std::uint64_t cell = got->index(0, t * 4 + a, e);
        REQUIRE(got->state[cell] == CellState::Live);
        REQUIRE(got->bits[cell] == logical->get(a * 32 + e));
      }
  // The padding cluster's slices hold Top content.
  CHECK(got->state[got->index(got->spatial - 1, 0, 0)] == CellState::Top);
}

TEST_CASE("datapath exec: `tujit run` runs every kernel of specs/ with --verify",
          "[datapath-exec][cli-run]") {
  std::size_t runs = 0, dm_fed = 0, stores = 0, oracle_checked = 0, partial = 0, commands = 0;
  std::set<std::string> refused;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& kernel : file->kernels) {
      INFO(path.filename().string() << " :: " << kernel.name);
      const auto checked = testing::checked(kernel);
      auto plan = run::plan_run(checked);
      if (!plan) {
        for (const auto& d : plan.diagnostics()) {
          UNSCOPED_INFO(render(d, &file->source));
          CHECK(d.code == "E-RUN-101");
        }
        refused.insert(kernel.name);
        continue;
      }
      const ir::seq::RunOperands* ops = &plan->result().ops;
      run::RunRequest req;
      req.engine = run::Engine::Interp;
      req.seed = 5;
      req.verify = true;
      req.jit.use_cache = false;
      auto r = run::run_plan(*file, *plan, req);
      if (!r) {
        for (const auto& d : r.diagnostics()) UNSCOPED_INFO(render(d, &file->source));
      }
      CHECK(r.ok());
      if (!r) continue;
      REQUIRE(r->verify.has_value());
      INFO(r->verify->engine_difference);
      // Every form runs on both engines, parts of a chain included.
      CHECK_FALSE(r->verify->engines_not_compared);
      CHECK(r->verify->engines_bit_exact);
      partial += ops->shape == ir::seq::RunShape::Partial;
      // Every output gets an oracle verdict (partial sums per block, parts of a chain, moves).
      CHECK(r->verify->oracle_not_applicable.value_or("") == "");
      if (!r->verify->oracle_not_applicable) {
        INFO("worst " << r->verify->worst << ", " << r->verify->mismatches << " mismatches");
        CHECK(r->verify->oracle_ok);
        ++oracle_checked;
      }
      CHECK(r->poisoned_outputs == 0);
      // A kernel run command by command: every earlier command verified too (docs/kernels.md §3).
      for (const run::CommandOutcome& c : r->earlier) {
        INFO("command " << c.value);
        REQUIRE(c.verify.has_value());
        CHECK(c.verify->engines_bit_exact);
        CHECK(c.verify->oracle_ok);
        CHECK(c.poisoned_outputs == 0);
      }
      commands += r->earlier.size();
      ++runs;
      dm_fed += !r->fetches.empty();
      stores += ops->shape == ir::seq::RunShape::Store;
    }
  }
  std::string names;
  for (const auto& n : refused) names += n + " ";
  INFO(runs << " runs (" << partial << " partial, " << dm_fed << " DM-fed, " << stores
            << " stores, " << oracle_checked << " oracle-checked); refused: " << names);
  // Every kernel runs: the five partial chains (lane_interleaved, lane_sequential start from a
  // ContractTime tensor; stream_adapter_example, trf_sequencer_full/partial_read end at
  // contract_outer) too, on both engines.
  CHECK(refused.empty());
  CHECK(partial == 5);
  CHECK(runs >= 95); // the Switch Engine's: the eight of specs/switch/, two whole kernels, a GEMV
  CHECK(dm_fed >= 35);
  CHECK(stores >= 12);
  CHECK(oracle_checked == runs);
  // specs/kernels/constant_add_twice_kernel.rs and gemm_gemm_kernel.rs hand one DmTensor each.
  CHECK(commands >= 2);
}

TEST_CASE("datapath exec: an output that holds part of an axis is read back over what it holds",
          "[datapath-exec][cli-run]") {
  // weighted_sum keeps T / 16 in its Slice and reduces T % 16: one partial sum per T / 16
  // (T = 512 → 32). forward__lm_head computes the first 8192 of Wp = 155,648.
  const auto run_output = [](const char* path) {
    auto file = ir::load_spec((std::string(TUJIT_SOURCE_DIR) + "/" + path));
    REQUIRE(file.ok());
    const ir::Kernel& k = file->kernels.at(0);
    auto ops = ir::seq::find_run_operands(k);
    REQUIRE(ops.ok());
    run::RunRequest req;
    req.engine = run::Engine::Interp;
    auto r = run::run_kernel(*file, testing::checked(k), *ops, req);
    if (!r) {
      for (const auto& d : r.diagnostics()) UNSCOPED_INFO(render(d, &file->source));
    }
    REQUIRE(r.ok());
    return r->output;
  };
  const auto ws = run_output("specs/derived/weighted_sum.rs");
  std::vector<std::pair<std::string, std::uint64_t>> axes;
  for (const auto& a : ws.axes) axes.emplace_back(a.name, a.size);
  CHECK(axes == std::vector<std::pair<std::string, std::uint64_t>>{
                    {"N", 8}, {"G", 2}, {"D", 128}, {"T / 16", 32}});
  const auto lm = run_output("specs/derived/forward__lm_head.rs");
  bool wp = false;
  for (const auto& a : lm.axes)
    if (a.name == "Wp") wp = a.size == 8192;
  CHECK(wp);
}

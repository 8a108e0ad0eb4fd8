// `tujit tune`'s search (harness/tune/, docs/tune.md): the book's three batched-matmul strategies
// are matched or beaten, the ranking does not depend on threads, the bound or shards, the verifiers
// judge the generated text exactly as they judge the typed candidate, and ranked kernels compute
// the einsum (checked against an independent sum on the logical operands).
#include "harness/cycles/cycle_model.h"
#include "harness/run/run_pipeline.h"
#include "harness/tune/search_space.h"
#include "harness/tune/tune_report.h"
#include "harness/tune/tuner.h"
#include "ir/lang/kernel.h"
#include "ir/seq/lower_contraction.h"
#include "ir/seq/run_operands.h"
#include "ir/verify/kernel_checker.h"
#include "runtime/tensor/logical_tensor.h"
#include "tests/support/checked.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

using namespace tujit;
using namespace tujit::tune;

namespace {

Problem problem(const std::string& einsum, const std::string& sizes, const std::string& dtype) {
  auto p = make_problem(einsum, sizes, dtype);
  REQUIRE(p.ok());
  return *p;
}

TuneResult search(const Problem& p, unsigned threads, bool bound = true, std::size_t top = 10,
                  std::uint64_t shard_index = 0, std::uint64_t shard_count = 1) {
  TuneOptions o;
  o.top = top;
  o.threads = threads;
  o.bound = bound;
  o.shard_index = shard_index;
  o.shard_count = shard_count;
  TuneResult r = tujit::tune::tune(p, o);
  INFO((r.internal_errors.empty() ? "" : r.internal_errors.front()));
  REQUIRE(r.internal_errors.empty());
  return r;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> ranking(const std::vector<Ranked>& rs) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> v;
  for (const Ranked& r : rs) v.emplace_back(r.choice.index, r.score.cycles);
  return v;
}

// The analytic model on a spec file's kernel (its first), as `tujit cycles` computes it.
std::uint64_t book_cycles(const ir::SpecFile& file) {
  const ir::Kernel& k = file.kernels.front();
  auto program = ir::seq::lower_contraction(testing::checked(k));
  REQUIRE(program.ok());
  return cycles::analytic_cycles(*program, cycles::cycle_options_for(testing::checked(k))).total;
}

std::string sizes_of(const ir::AxisTable& axes) {
  std::string s;
  for (const auto& a : axes.axes())
    s += fmt::format("{}{}={}", s.empty() ? "" : ",", a.name, a.size);
  return s;
}

} // namespace

TEST_CASE("tune: the best kernel models no more cycles than each of the book's three strategies",
          "[tune]") {
  // furiosa-opt docs/src/computing-tensors/contraction-engine/index.md: batched matmul with K, M or
  // V in Time (specs/bmatmul_*.rs), all three at V = 32, M = 32, N = 8, K = 32, bf16: one search,
  // three comparisons. The book's cycles are the analytic model on its spec, as `tujit cycles`
  // computes them.
  std::optional<TuneResult> r;
  for (const char* strategy : {"k", "m", "v"}) {
    const std::string path =
        std::string(TUJIT_SOURCE_DIR) + fmt::format("/specs/bmatmul_{}_in_time.rs", strategy);
    INFO(path);
    auto file = ir::load_spec(path);
    REQUIRE(file.ok());
    const Problem p = problem("vmk,vnk->vmn", sizes_of(file->axes), "bf16");
    if (!r) r = search(p, 2, true, 1);
    REQUIRE(r->complete);
    REQUIRE(!r->best.empty());
    CHECK(r->best.front().score.cycles <= book_cycles(*file));
  }
}

TEST_CASE("tune: the ranking is the same on any thread count, with or without the bound",
          "[tune]") {
  const Problem p = problem("mk,nk->mn", "M=32,N=8,K=64", "i8");
  const TuneResult one = search(p, 1, true);
  const TuneResult two = search(p, 2, true);
  const TuneResult all = search(p, 2, false);
  REQUIRE(one.best.size() == 10);
  CHECK(ranking(one.best) == ranking(two.best));
  CHECK(ranking(one.best) == ranking(all.best));
  CHECK(ranking(one.pareto) == ranking(two.pareto));
  CHECK(ranking(one.pareto) == ranking(all.pareto));
  CHECK(one.searched == one.space);
  CHECK(one.valid == two.valid);
  CHECK(one.refused == two.refused);
  CHECK(all.modelled == all.valid); // without the bound every valid candidate is timed
  // The ranking is sorted and the front strictly improves with more slices.
  for (std::size_t i = 1; i < one.best.size(); ++i)
    CHECK(ranks_before(one.best[i - 1], one.best[i]));
  for (std::size_t i = 1; i < one.pareto.size(); ++i) {
    CHECK(one.pareto[i - 1].score.live_slices < one.pareto[i].score.live_slices);
    CHECK(one.pareto[i - 1].score.cycles > one.pareto[i].score.cycles);
  }
}

TEST_CASE("tune: a stop request ends the search like a spent budget", "[tune]") {
  // The scaled book shape has 10^6 candidates (seconds of work); the first poll stops it.
  const Problem p = problem("vmk,vnk->vmn", "V=32,M=1024,N=8,K=256", "bf16");
  TuneOptions o;
  o.threads = 1;
  o.stop_requested = [] { return true; };
  const TuneResult r = tujit::tune::tune(p, o);
  CHECK_FALSE(r.complete);
  CHECK(r.searched < r.shard_size);
  CHECK(r.internal_errors.empty());
  // What was searched is ranked in order.
  for (std::size_t i = 1; i < r.best.size(); ++i) CHECK(ranks_before(r.best[i - 1], r.best[i]));
}

TEST_CASE("tune: shards cover the space once and merge into the unsharded ranking", "[tune]") {
  const Problem p = problem("mk,nk->mn", "M=32,N=8,K=64", "i8");
  const TuneResult whole = search(p, 1);
  auto whole_report = make_report(p, whole, 10, 0, 1);
  REQUIRE(whole_report.ok());
  std::uint64_t searched = 0, valid = 0;
  std::vector<std::string> paths;
  const std::string dir = std::filesystem::temp_directory_path().string();
  for (std::uint64_t s = 0; s < 3; ++s) {
    const TuneResult part = search(p, 1, true, 10, s, 3);
    searched += part.searched;
    valid += part.valid;
    auto report = make_report(p, part, 10, s, 3);
    REQUIRE(report.ok());
    paths.push_back(fmt::format("{}/tujit_tune_shard_{}_{}.json", dir, ::getpid(), s));
    std::ofstream(paths.back()) << report_json(*report).dump();
  }
  CHECK(searched == whole.searched);
  CHECK(valid == whole.valid);
  auto merged = merge_reports(paths);
  for (const auto& path : paths) std::filesystem::remove(path);
  REQUIRE(merged.ok());
  CHECK(merged->complete);
  CHECK(merged->valid == whole.valid);
  REQUIRE(merged->best.size() == whole_report->best.size());
  for (std::size_t i = 0; i < merged->best.size(); ++i) {
    CHECK(merged->best[i].index == whole_report->best[i].index);
    CHECK(merged->best[i].cycles == whole_report->best[i].cycles);
    CHECK(merged->best[i].spec == whole_report->best[i].spec);
  }
  REQUIRE(merged->pareto.size() == whole_report->pareto.size());
  for (std::size_t i = 0; i < merged->pareto.size(); ++i)
    CHECK(merged->pareto[i].index == whole_report->pareto[i].index);
}

TEST_CASE("tune: `tujit check` judges every candidate's text as the tuner judged the candidate",
          "[tune]") {
  // Every choice of small spaces, built directly (no text) and verified, against its spec text
  // read back by the front end and checked by the kernel checker: the same verdict, the same
  // first rule, and for valid ones the same modelled cycles, which the trace model confirms. The
  // shapes reach the TRF capacity, the accumulator's slots and the Packet Reducer's 32 columns.
  std::uint64_t valid = 0, refused = 0;
  std::set<std::string> codes;
  for (const auto& [sizes, dtype] :
       {std::pair{"M=2,N=2,K=12288", "bf16"}, {"M=4,N=8,K=96", "i8"}}) {
    const Problem p = problem("mk,nk->mn", sizes, dtype);
    const SearchSpace space = make_search_space(p);
    REQUIRE(space.size < 10000);
    Evaluator evaluator(p);
    for (const Block& b : space.blocks)
      expand(p, b, [&](const Choice& c) {
        const Evaluation e =
            evaluator.evaluate(c, [](const Score&, std::uint64_t, std::uint64_t) { return true; });
        if (e.verdict == Verdict::NotEinsum) return true;
        REQUIRE(e.code != "E-TUNE-011");
        auto chain = build_chain(p, c);
        REQUIRE(chain.ok());
        const std::string text = kernel_text(p, *chain, c.mode, "candidate");
        ir::SpecAnalysis a = ir::analyze(SourceBuffer("c.rs", text));
        INFO(text);
        REQUIRE(a.file.kernels.size() == 1);
        Diagnostics all = a.diagnostics;
        const ir::Kernel& k = a.file.kernels.front();
        const Diagnostics more = ir::verify::check_kernel(a.file, k).all_diagnostics();
        all.insert(all.end(), more.begin(), more.end());
        if (e.verdict == Verdict::Valid) {
          ++valid;
          REQUIRE(!has_errors(all));
          auto program = ir::seq::lower_contraction(testing::checked(k));
          REQUIRE(program.ok());
          const auto options = cycles::cycle_options_for(testing::checked(k));
          CHECK(cycles::analytic_cycles(*program, options).total == e.score.cycles);
          // The trace model (docs/cycle-model.md §3) confirms the analytic model's total.
          CHECK(cycles::trace_cycles(*program, options).total == e.score.cycles);
        } else {
          ++refused;
          codes.insert(e.code);
          REQUIRE(has_errors(all));
          CHECK(all.front().code == e.code);
        }
        return true;
      });
  }
  CHECK(valid >= 1000);
  CHECK(refused >= 100);
  CHECK(codes == std::set<std::string>{"E-HW-009", "E-LANE-007", "E-PACKET-002"});
}

TEST_CASE("tune: ranked kernels compute the einsum (independent sum on the operands)", "[tune]") {
  // i8 × i8 → i32 is exact, so the JIT's output must equal Σ_k a·b bit for bit. Operands a kernel
  // replicates across slices carry the replicated axis in their parameter type (like the book's
  // K-in-Time TRF); they are fed the same values at every coordinate of it.
  const Problem p = problem("vmk,vnk->vmn", "V=4,M=8,N=4,K=64", "i8");
  const TuneResult r = search(p, 2, true, 3);
  auto report = make_report(p, r, 3, 0, 1);
  REQUIRE(report.ok());
  REQUIRE(report->best.size() == 3);
  const auto value = [](char op, std::uint64_t v, std::uint64_t mn, std::uint64_t k) {
    return static_cast<std::int32_t>((v * 7 + mn * 5 + k * 3 + (op == 'a' ? 1 : 2)) % 255) - 127;
  };
  for (const Entry& e : report->best) {
    INFO(e.spec);
    auto file = ir::analyze_spec(SourceBuffer("k.rs", e.spec));
    REQUIRE(file.ok());
    const ir::Kernel& k = file->kernels.front();
    auto ops = ir::seq::find_run_operands(k);
    REQUIRE(ops.ok());
    run::RunRequest req;
    req.threads = 2;
    req.verify = true;
    for (const ir::KernelParam* param : ops->inputs()) {
      const auto axes = runtime::tensor_axes(*param->tensor, file->axes);
      auto t = runtime::make_logical_tensor(ir::ScalarType::I8, axes);
      REQUIRE(t.ok());
      const char op = param == ops->stream ? 'a' : 'b';
      for (std::uint64_t o = 0; o < t->elements(); ++o) {
        std::map<std::string, std::uint64_t> at;
        std::uint64_t rest = o;
        for (std::size_t i = axes.size(); i-- > 0;) {
          at[axes[i].name] = rest % axes[i].size;
          rest /= axes[i].size;
        }
        t->set(o, static_cast<std::uint32_t>(
                      value(op, at["V"], op == 'a' ? at["M"] : at["N"], at["K"])));
      }
      req.given[param->name] = std::move(*t);
    }
    auto run = run::run_kernel(*file, testing::checked(k), *ops, req);
    REQUIRE(run.ok());
    REQUIRE(run->verify.has_value());
    CHECK(run->verify->engines_bit_exact);
    CHECK(run->verify->oracle_ok);
    const runtime::LogicalTensor& out = run->output;
    REQUIRE(out.elements() == 4 * 8 * 4);
    for (std::uint64_t v = 0; v < 4; ++v)
      for (std::uint64_t m = 0; m < 8; ++m)
        for (std::uint64_t n = 0; n < 4; ++n) {
          std::int32_t sum = 0;
          for (std::uint64_t kk = 0; kk < 64; ++kk)
            sum += value('a', v, m, kk) * value('b', v, n, kk);
          CHECK(static_cast<std::int32_t>(out.get(out.offset({{"V", v}, {"M", m}, {"N", n}}))) ==
                sum);
        }
  }
}

TEST_CASE("tune: refused problems say why", "[tune]") {
  const auto code = [](const std::string& e, const std::string& s, const std::string& d) {
    auto p = make_problem(e, s, d);
    REQUIRE(!p.ok());
    return p.diagnostics().front().code;
  };
  CHECK(code("vmk,vnj->vmn", "V=2,M=2,N=2,K=2,J=2", "bf16") == "E-TUNE-002"); // k, j summed alone
  CHECK(code("mk,nk,ok->mno", "M=2,N=2,K=2,O=2", "bf16") == "E-TUNE-002");    // three operands
  CHECK(code("mm,nm->mn", "M=2,N=2", "bf16") == "E-TUNE-002");                // a diagonal
  CHECK(code("mk,nk->mnq", "M=2,N=2,K=2,Q=2", "bf16") == "E-TUNE-002");       // Q from nowhere
  CHECK(code("mk,nk", "M=2,N=2,K=2", "bf16") == "E-TUNE-001");
  CHECK(code("mk,nk->mn", "M=2,N=2", "bf16") == "E-TUNE-003");
  CHECK(code("mk,nk->mn", "M=2,N=2,K=0", "bf16") == "E-TUNE-003");
  CHECK(code("mk,nk->mn", "M=2,N=2,K=2", "f16") == "E-TUNE-004");
  CHECK(code("mk,nk->mn", "M=2,N=2,K=2", "i4,i8") == "E-OUTER-001"); // the Multiplier's table
  CHECK(code("mk,nk->mn", "M=2,N=2,K=2", "f32") == "E-OUTER-001");
}

TEST_CASE("tune: the rules the generator prunes by are the verifiers' rules", "[tune]") {
  // search_space.h names the code each pruned partial assignment would get; one candidate past
  // each limit, built and verified, gets exactly that code. M = 768 (3 × 256), K = 64, N = 16.
  const Problem p = problem("mk,nk->mn", "M=768,N=16,K=64", "bf16");
  REQUIRE(p.axes[0].axis.name == "M");
  REQUIRE(p.axes[1].axis.name == "K");
  REQUIRE(p.axes[2].axis.name == "N");
  Choice base;
  base.pieces[0] = {1, 256, 1, 3, 1}; // M: Slice 256, Time 3
  base.pieces[1] = {1, 1, 1, 4, 16};  // K: Time 4, packet 16
  base.pieces[2] = {1, 1, 8, 2, 1};   // N: Lane 8, time broadcast 2
  base.time_order = {0, 1};           // Time [M, K / 16]
  base.time_count = 2;
  base.row_order = {0, 1}; // Element [K / 16, N % 2, K % 16]'s rows in OT order
  base.row_count = 2;
  const auto code = [&](const Choice& c) {
    const Evaluation e =
        evaluate(p, c, [](const Score&, std::uint64_t, std::uint64_t) { return true; });
    return e.verdict == Verdict::Valid ? std::string("valid") : e.code;
  };
  REQUIRE(code(base) == "valid");
  Choice cluster = base; // a cluster digit of 3: Cluster::SIZE ∈ {1, 2}
  cluster.pieces[0] = {3, 256, 1, 1, 1};
  cluster.time_order = {1};
  cluster.time_count = 1;
  CHECK(code(cluster) == "E-HW-001");
  Choice slices = base; // 768 slices in one cluster
  slices.pieces[0] = {1, 768, 1, 1, 1};
  slices.time_order = {1};
  slices.time_count = 1;
  CHECK(code(slices) == "E-HW-002");
  Choice lanes = base; // 16 lanes
  lanes.pieces[2] = {1, 1, 16, 1, 1};
  lanes.row_count = 1;
  CHECK(code(lanes) == "E-OUTER-002");
  Choice packet = base; // two flits in the stream's packet
  packet.pieces[1] = {1, 1, 1, 2, 32};
  CHECK(code(packet) == "E-HW-004");
}

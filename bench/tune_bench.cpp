// tujit_tune_bench: how fast `tujit tune` searches (docs/tune.md §5), under Google Benchmark.
//   - the whole search of the scaled book shape (vmk,vnk->vmn, V=32, M=1024, N=8, K=256, bf16) and
//     of the book's (V=32, M=32, N=8, K=32) on one thread: every candidate built and verified,
//     modelled when the lower bound cannot rule it out;
//   - a small space (mk,nk->mn, M=32, N=8, K=64, i8) with the bound off: every valid candidate
//     verified and modelled;
//   - one candidate's verification from scratch and one chain's lowering + analytic model.
// Counters: candidates per CPU-second of the search (the process's CPU time, so a shared machine
// does not dilute it), valid / modelled counts, the best modelled cycles.
// Run: build/bench/tujit_tune_bench [--benchmark_filter=...].
#include "harness/tune/evaluate.h"
#include "harness/tune/search_space.h"
#include "harness/tune/tuner.h"

#include <benchmark/benchmark.h>

#include <ctime>
#include <string>

using namespace tujit;

namespace {

tune::Problem problem(const char* einsum, const char* sizes, const char* dtype) {
  auto p = tune::make_problem(einsum, sizes, dtype);
  if (!p) std::abort();
  return *p;
}

void search(benchmark::State& state, const tune::Problem& p, bool bound) {
  tune::TuneOptions o;
  o.threads = 1;
  o.bound = bound;
  tune::TuneResult r;
  double cpu = 0;
  for (auto _ : state) {
    r = tune::tune(p, o);
    cpu += r.cpu_seconds;
  }
  const double runs = static_cast<double>(state.iterations());
  state.counters["candidates_per_cpu_s"] = static_cast<double>(r.searched) * runs / cpu;
  state.counters["space"] = static_cast<double>(r.space);
  state.counters["valid"] = static_cast<double>(r.valid);
  state.counters["modelled"] = static_cast<double>(r.modelled);
  state.counters["best_cycles"] =
      r.best.empty() ? 0.0 : static_cast<double>(r.best.front().score.cycles);
}

void BM_SearchScaledShape(benchmark::State& state) {
  search(state, problem("vmk,vnk->vmn", "V=32,M=1024,N=8,K=256", "bf16"), true);
}
BENCHMARK(BM_SearchScaledShape)->Iterations(1)->Unit(benchmark::kSecond);

void BM_SearchBookShape(benchmark::State& state) {
  search(state, problem("vmk,vnk->vmn", "V=32,M=32,N=8,K=32", "bf16"), true);
}
BENCHMARK(BM_SearchBookShape)->Iterations(1)->Unit(benchmark::kSecond);

void BM_SearchSmallEveryCandidateModelled(benchmark::State& state) {
  search(state, problem("mk,nk->mn", "M=32,N=8,K=64", "i8"), false);
}
BENCHMARK(BM_SearchSmallEveryCandidateModelled)->Iterations(1)->Unit(benchmark::kSecond);

// The scaled book shape's rank-1 choice (the first valid candidate of the enumeration on 512
// slices).
tune::Choice first_valid(const tune::Problem& p) {
  const tune::SearchSpace space = tune::make_search_space(p);
  for (std::uint64_t i = 0; i < space.size; ++i) {
    const tune::Choice c = tune::choice_at(p, space, i);
    const auto e = tune::evaluate(
        p, c, [](const tune::Score&, std::uint64_t, std::uint64_t) { return false; });
    if (e.verdict == tune::Verdict::Valid) return c;
  }
  std::abort();
}

void BM_VerifyOneCandidateFromScratch(benchmark::State& state) {
  const auto p = problem("vmk,vnk->vmn", "V=32,M=1024,N=8,K=256", "bf16");
  const tune::Choice c = first_valid(p);
  const tune::WorthModelling never = [](const tune::Score&, std::uint64_t, std::uint64_t) {
    return false;
  };
  for (auto _ : state) benchmark::DoNotOptimize(tune::evaluate(p, c, never));
}
BENCHMARK(BM_VerifyOneCandidateFromScratch)->Unit(benchmark::kMicrosecond);

void BM_LowerAndModelOneChain(benchmark::State& state) {
  const auto p = problem("vmk,vnk->vmn", "V=32,M=1024,N=8,K=256", "bf16");
  const tune::Choice c = first_valid(p);
  const auto chain = tune::build_chain(p, c);
  if (!chain) std::abort();
  for (auto _ : state) benchmark::DoNotOptimize(tune::model_chain(p, *chain, c.mode));
}
BENCHMARK(BM_LowerAndModelOneChain)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();

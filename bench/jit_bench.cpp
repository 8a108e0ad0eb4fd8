// tujit_bench: the JIT back end measured side by side in one process:
//   - simulated MAC/s of the JIT and of the reference interpreter on batched bf16 and i8 GEMMs
//     (the book's "M in Time" matmul, specs/bmatmul_m_in_time.rs, with K also walked in Time:
//     V = 32 slices × M × N = 8 lanes × K; the JIT runs M = 256, K = 1024: 67 M MACs; the
//     interpreter a smaller M, reported per MAC);
//   - OpenBLAS sgemm on the same logical GEMMs (32 × [M×K]·[K×N]), single-threaded, plus one
//     square-ish sgemm with the same MAC count as the machine's best GEMM shape;
//   - compile time parse → native, cold (no cache) and from the object cache;
//   - the JIT on 1 and 2 threads.
// Run: build/bench/tujit_bench [--benchmark_filter=...]. Counters: MAC/s (simulated
// multiply-accumulates per second) and GFLOP/s (2 flops per MAC).
#include "codegen/contraction_jit.h"
#include "ir/lang/kernel.h"
#include "ir/seq/lower_contraction.h"
#include "runtime/interp/interpreter.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#ifdef TUJIT_HAVE_OPENBLAS
#include <cblas.h>
extern "C" void openblas_set_num_threads(int);
#endif

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <random>

using namespace tujit;

namespace {

constexpr std::uint64_t kV = 32, kN = 8, kK = 1024, kM = 256, kInterpM = 8;

struct GemmKernel {
  ir::seq::ContractionProgram program;
  runtime::DeviceImage stream, trf;
  std::string spec;
  std::uint64_t macs = 0;
};

// The batched GEMM as spec text: V over Cluster × Slice, M and K / OP in Time, K % OP in the
// packet (PackSize 2), N in the lanes; the K time digit is reduced by the Time Reducer.
std::string gemm_spec(bool i8, std::uint64_t m) {
  const char* t = i8 ? "i8" : "bf16";
  const std::uint64_t fe = i8 ? 32 : 16, op = 2 * fe;
  return fmt::format(R"(use furiosa_opt_std::prelude::*;
axes![V = {v}, M = {m}, N = {n}, K = {k}];
type Chip    = m![1];
type Cluster = m![V / 16];
type Slice   = m![V % 16 # 256];
type Lane    = m![N];
fn gemm<'l, const T: Tu>(
    input: CollectTensor<'l, T, {t}, Chip, Cluster, Slice, m![M, K / {fe}], m![K % {fe}]>,
    trf: &TrfTensor<{t}, Chip, Cluster, Slice, Lane, m![K]>,
) -> ContractTensor<'l, T, {acc}, Chip, Cluster, Slice, m![M], m![N]> {{
    input
         .contract_outer::<m![M, K / {op}], m![K % {op}], _, _, _>(trf)
         .contract_packet::<m![1]>()
         .contract_time::<m![M]>()
         .contract_lane::<m![M], m![N]>(LaneMode::Interleaved)
}}
)",
                     fmt::arg("v", kV), fmt::arg("m", m), fmt::arg("n", kN), fmt::arg("k", kK),
                     fmt::arg("t", t), fmt::arg("fe", fe), fmt::arg("op", op),
                     fmt::arg("acc", i8 ? "i32" : "f32"));
}

std::optional<ir::seq::ContractionProgram> lower(const std::string& spec) {
  auto file = ir::analyze_spec(SourceBuffer("gemm.rs", spec));
  if (!file || file->kernels.empty()) return std::nullopt;
  auto p = ir::seq::lower_contraction(file->kernels[0]);
  if (!p) {
    for (const auto& d : p.diagnostics()) std::fprintf(stderr, "%s\n", render(d, nullptr).c_str());
    return std::nullopt;
  }
  return std::move(*p);
}

// Dense operands: every cell of a live slice is Live; bf16 values are small random normals,
// i8 values random.
runtime::DeviceImage image(const ir::seq::ContractionProgram& p, ir::ScalarType t,
                           std::uint64_t outer, std::uint64_t inner, std::uint64_t seed) {
  runtime::DeviceImage img(t, p.spatial, outer, inner);
  std::mt19937 rng(static_cast<std::uint32_t>(seed));
  for (std::uint64_t s = 0; s < p.spatial; ++s) {
    if (!p.spatial_live[s]) continue;
    for (std::uint64_t i = 0; i < outer * inner; ++i) {
      const std::uint64_t k = s * outer * inner + i;
      img.state[k] = runtime::CellState::Live;
      if (t == ir::ScalarType::I8)
        img.bits[k] = static_cast<std::uint32_t>(static_cast<std::int32_t>(rng() % 256) - 128);
      else // bf16 in ±[0.5, 2): sign, exponent 126/127, 7 random mantissa bits
        img.bits[k] = static_cast<std::uint32_t>(((rng() & 1u) << 15) |
                                                 ((126u + (rng() & 1u)) << 7) | (rng() & 0x7Fu));
    }
  }
  return img;
}

const GemmKernel& kernel(bool i8, std::uint64_t m) {
  static std::map<std::pair<bool, std::uint64_t>, GemmKernel> cache;
  auto it = cache.find({i8, m});
  if (it != cache.end()) return it->second;
  GemmKernel g;
  g.spec = gemm_spec(i8, m);
  auto p = lower(g.spec);
  if (!p) {
    std::fprintf(stderr, "the benchmark GEMM does not lower\n%s\n", g.spec.c_str());
    std::exit(1);
  }
  g.program = std::move(*p);
  g.stream = image(g.program, g.program.stream_type, g.program.time, g.program.packet, 1);
  g.trf = image(g.program, g.program.trf_type, g.program.lanes, g.program.element, 2);
  g.macs = runtime::present_products(g.program, g.stream, g.trf);
  return cache.emplace(std::make_pair(i8, m), std::move(g)).first->second;
}

codegen::ContractionJit& jit(bool cached = false) {
  static auto make = [](bool c) {
    codegen::JitOptions o;
    o.use_cache = c;
    if (c)
      o.cache_dir = std::filesystem::temp_directory_path() /
                    fmt::format("tujit-bench-cache-{}", static_cast<long>(getpid()));
    auto j = codegen::ContractionJit::create(o);
    if (!j) std::exit(1);
    return std::move(j).value();
  };
  static auto plain = make(false);
  static auto with_cache = make(true);
  return cached ? *with_cache : *plain;
}

void set_rates(benchmark::State& state, std::uint64_t macs) {
  state.counters["MAC/s"] =
      benchmark::Counter(static_cast<double>(macs), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["GFLOP/s"] = benchmark::Counter(2e-9 * static_cast<double>(macs),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Jit(benchmark::State& state, bool i8) {
  const GemmKernel& g = kernel(i8, kM);
  auto compiled = jit().compile(g.program);
  if (!compiled) {
    state.SkipWithError("JIT compile failed");
    return;
  }
  codegen::JitRunOptions ro;
  ro.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    auto r = codegen::run_contraction_jit(**compiled, g.program, g.stream, g.trf, ro);
    if (!r) state.SkipWithError("JIT run failed");
    benchmark::DoNotOptimize(r);
  }
  set_rates(state, g.macs);
}

void BM_Interpreter(benchmark::State& state, bool i8) {
  const GemmKernel& g = kernel(i8, kInterpM);
  for (auto _ : state) {
    auto r = runtime::run_contraction(g.program, g.stream, g.trf);
    benchmark::DoNotOptimize(r);
  }
  set_rates(state, g.macs);
}

#ifdef TUJIT_HAVE_OPENBLAS
// The same logical GEMMs as the bf16 kernel, in f32: 32 batches of [M×K]·[K×N].
void BM_Sgemm(benchmark::State& state) {
  openblas_set_num_threads(1);
  const std::uint64_t m = kM, n = kN, k = kK;
  std::vector<float> a(kV * m * k), b(kV * k * n), c(kV * m * n);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-2, 2);
  for (auto& x : a) x = u(rng);
  for (auto& x : b) x = u(rng);
  for (auto _ : state) {
    for (std::uint64_t v = 0; v < kV; ++v)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m),
                  static_cast<int>(n), static_cast<int>(k), 1.0f, &a[v * m * k],
                  static_cast<int>(k), &b[v * k * n], static_cast<int>(n), 0.0f, &c[v * m * n],
                  static_cast<int>(n));
    benchmark::DoNotOptimize(c.data());
  }
  set_rates(state, kV * m * n * k);
}

// The machine's best case with the same MAC count: one 512 × 128 × 1024 sgemm.
void BM_SgemmSquare(benchmark::State& state) {
  openblas_set_num_threads(1);
  const std::uint64_t m = 512, n = 128, k = 1024;
  std::vector<float> a(m * k, 0.5f), b(k * n, 0.25f), c(m * n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(k), 1.0f, a.data(), static_cast<int>(k), b.data(),
                static_cast<int>(n), 0.0f, c.data(), static_cast<int>(n));
    benchmark::DoNotOptimize(c.data());
  }
  set_rates(state, m * n * k);
}
#endif

// Parse → lower → native, every iteration a fresh compile (this JIT instance has no cache).
void BM_CompileCold(benchmark::State& state, bool i8) {
  const std::string spec = gemm_spec(i8, kM);
  double jit_ms = 0;
  for (auto _ : state) {
    auto p = lower(spec);
    auto c = jit().compile(*p);
    if (!c || (*c)->stats().cache_hit)
      state.SkipWithError("expected a fresh compile");
    else
      jit_ms += (*c)->stats().native_ms;
    benchmark::DoNotOptimize(c);
  }
  // The JIT's share (IR → native, without parse and lowering), per compile.
  state.counters["jit_ms"] = benchmark::Counter(jit_ms, benchmark::Counter::kAvgIterations);
}

// Parse → lower → native with the object already in the cache.
void BM_CompileCacheHit(benchmark::State& state, bool i8) {
  const std::string spec = gemm_spec(i8, kM);
  (void)jit(true).compile(*lower(spec)); // warm the cache
  double jit_ms = 0;
  for (auto _ : state) {
    auto p = lower(spec);
    auto c = jit(true).compile(*p);
    if (!c || !(*c)->stats().cache_hit)
      state.SkipWithError("expected a cache hit");
    else
      jit_ms += (*c)->stats().native_ms;
    benchmark::DoNotOptimize(c);
  }
  state.counters["jit_ms"] = benchmark::Counter(jit_ms, benchmark::Counter::kAvgIterations);
}

} // namespace

BENCHMARK_CAPTURE(BM_Jit, bf16, false)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Jit, i8, true)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Interpreter, bf16, false)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Interpreter, i8, true)->UseRealTime()->Unit(benchmark::kMillisecond);
#ifdef TUJIT_HAVE_OPENBLAS
BENCHMARK(BM_Sgemm)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SgemmSquare)->UseRealTime()->Unit(benchmark::kMillisecond);
#endif
BENCHMARK_CAPTURE(BM_CompileCold, bf16, false)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileCold, i8, true)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileCacheHit, bf16, false)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_CompileCacheHit, i8, true)->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();

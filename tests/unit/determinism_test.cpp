// docs/design.md §5.6 "same spec + seed ⇒ same bytes out": every kernel of
// specs/*.rs and specs/derived/*.rs that `tujit run` can feed, and a sample of generated kernels,
// run through run_kernel with the same seed on both engines, with 1, 2 and 3 JIT threads, twice
// (the second time from the JIT's object cache), and give the same output bytes, sha256, poison
// report and simulated MACs every time; the programs the engines ran and the cycle models' counts
// for them are the same every time; a kernel the run refuses is refused alike every time. Another
// seed gives other inputs and so another output.
#include "harness/cycles/cycle_model.h"
#include "harness/cycles/cycle_report.h"
#include "harness/run/run_pipeline.h"
#include "ir/lang/kernel.h"
#include "ir/seq/contraction_program.h"
#include "ir/verify/kernel_checker.h"
#include "runtime/tensor/sha256.h"
#include "tests/support/checked.h"
#include "tests/support/cli_capture.h"
#include "tests/support/reliability_generated.h"
#include "tests/support/spec_corpus.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

using namespace tujit;

namespace {

run::RunRequest request(run::Engine engine, unsigned threads, std::uint64_t seed) {
  run::RunRequest req;
  req.engine = engine;
  req.threads = threads;
  req.seed = seed;
  return req;
}

run::RunOutcome run_ok(const ir::SpecFile& file, const ir::Kernel& k,
                       const ir::seq::RunOperands& ops, const run::RunRequest& req) {
  auto r = run::run_kernel(file, testing::checked(k), ops, req);
  if (!r)
    for (const auto& d : r.diagnostics()) UNSCOPED_INFO(render(d, &file.source));
  REQUIRE(r.ok());
  return std::move(*r);
}

/// A refused run's diagnostics, code and message each, for comparing two refusals.
std::string refusal(const Result<run::RunOutcome>& r) {
  std::string s;
  for (const auto& d : r.diagnostics()) s += d.code + ": " + d.message + "\n";
  return s;
}

/// Everything the engines ran and the cycle models' counts, as one text, so two equal strings are
/// equal programs and equal cycle counts: the DM fetch programs, and for a contraction its
/// Sequencer IR program and both cycle models (every stage count, stall, cache and slot figure,
/// the totals).
std::string programs_and_cycles(const run::RunOutcome& r, const ir::Kernel& k) {
  std::string s;
  for (const auto& f : r.fetches) s += ir::seq::to_text(f) + "\n";
  if (r.shape != ir::seq::RunShape::Contraction) return s;
  s += ir::seq::to_text(r.program) + "\n";
  return s + cycles::cycle_report_json(
                 cycles::cycle_report(r.program.contraction().chain,
                                      cycles::cycle_options_for(testing::checked(k))))
                 .dump();
}

/// The runs compared: the interpreter and the JIT with 1, 2 and 3 threads, all twice (the JIT's
/// object cache starts empty, so the first JIT run compiles and the others load the object).
struct RunConfig {
  run::Engine engine;
  unsigned threads;
};
constexpr RunConfig kEveryRun[] = {
    {run::Engine::Interp, 1}, {run::Engine::Jit, 1}, {run::Engine::Jit, 2}, {run::Engine::Jit, 3},
    {run::Engine::Interp, 1}, {run::Engine::Jit, 1}, {run::Engine::Jit, 2}, {run::Engine::Jit, 3}};
/// A large kernel's runs cost ~0.5 s of CPU each (making and laying out its inputs, the DM fetch):
/// the interpreter against the JIT on 3 threads only.
constexpr RunConfig kLargeRuns[] = {{run::Engine::Interp, 1}, {run::Engine::Jit, 3}};

/// Runs the kernel with seed 7 in every configuration of `runs`: each gives the first run's
/// output, digest, poison, simulated MACs, programs and cycle counts. A kernel run_kernel refuses
/// (a `tujit run` user error, e.g. an output that holds only some digits of an axis, E-RUN-005)
/// must be refused the same way every time. Returns whether the kernel ran.
template <std::size_t N>
bool check_deterministic(const ir::SpecFile& file, const ir::Kernel& k,
                         const ir::seq::RunOperands& ops, const std::string& cache_dir,
                         const RunConfig (&runs)[N]) {
  std::optional<Result<run::RunOutcome>> first;
  std::string base;
  for (std::size_t i = 0; i < N; ++i) {
    run::RunRequest req = request(runs[i].engine, runs[i].threads, 7);
    req.jit.use_cache = true;
    req.jit.cache_dir = cache_dir;
    INFO("run " << i << ": " << run::engine_name(req.engine) << ", threads " << req.threads);
    auto r = run::run_kernel(file, testing::checked(k), ops, req);
    if (!first) {
      if (r) {
        // The digest is of the output bytes (docs/cli.md §6), so equal digests are equal outputs.
        CHECK(r->sha256 == runtime::sha256_hex(runtime::tensor_bytes(r->output)));
        base = programs_and_cycles(*r, k);
      }
      first = std::move(r);
      continue;
    }
    const auto& f = *first;
    if (!f) {
      REQUIRE_FALSE(r.ok());
      CHECK(refusal(r) == refusal(f));
      continue;
    }
    if (!r)
      for (const auto& d : r.diagnostics()) UNSCOPED_INFO(render(d, &file.source));
    REQUIRE(r.ok());
    CHECK(r->sha256 == f->sha256);
    CHECK(r->output == f->output);
    CHECK(runtime::tensor_bytes(r->output) == runtime::tensor_bytes(f->output));
    CHECK(r->output_axes == f->output_axes);
    CHECK(r->poisoned_outputs == f->poisoned_outputs);
    CHECK(r->simulated_macs == f->simulated_macs);
    CHECK(programs_and_cycles(*r, k) == base);
  }
  return first && first->ok();
}

/// Corpus kernels whose inputs hold up to 2^20 elements get every run; up to 2^26, kLargeRuns
/// (forward__lm_head: two 8192 x 1024 tiles, ir::seq::input_tiles). A larger kernel is not run
/// here; the test names it.
constexpr std::uint64_t kEveryRunElements = std::uint64_t{1} << 20;
constexpr std::uint64_t kLargeElements = std::uint64_t{1} << 26;

/// Logical elements of the run's random inputs (its cost grows with them).
std::uint64_t input_elements(const ir::SpecFile& file, const ir::Kernel& k,
                             const ir::seq::RunOperands& ops) {
  std::uint64_t sum = 0;
  auto tiles = ir::seq::input_tiles(file, k, ops);
  REQUIRE(tiles.ok());
  for (const auto& [name, axes] : *tiles) {
    std::uint64_t n = 1;
    for (const auto& axis : axes) n *= axis.size;
    sum += n;
  }
  return sum;
}

/// Calls `f(file, kernel, operands)` on every kernel of the corpus that `tujit run` can feed.
template <class F>
void for_each_fed_corpus_kernel(F&& f) {
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    if (!file) continue; // specs/ holds no invalid files, but a refused one is not runnable
    for (const auto& k : file->kernels) {
      if (!k.ok || !ir::verify::check_kernel(*file, k).ok()) continue;
      auto ops = ir::seq::find_run_operands(k);
      if (!ops) continue; // a shape `tujit run` does not feed yet (E-RUN-1xx)
      INFO(path.filename().string() << " kernel " << k.name);
      f(*file, k, *ops);
    }
  }
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

TEST_CASE("same spec and seed give the same bytes, another seed other bytes", "[determinism]") {
  std::size_t ran = 0;
  for_each_fed_corpus_kernel(
      [&](const ir::SpecFile& file, const ir::Kernel& k, const ir::seq::RunOperands& ops) {
        if (input_elements(file, k, ops) > kEveryRunElements) return; // the test below
        auto first =
            run::run_kernel(file, testing::checked(k), ops, request(run::Engine::Interp, 1, 7));
        if (!first) return; // refused alike every time: the test below
        const run::RunOutcome& a = *first;
        const run::RunOutcome b = run_ok(file, k, ops, request(run::Engine::Interp, 1, 7));
        CHECK(a.sha256 == b.sha256);
        CHECK(a.output == b.output);
        CHECK(runtime::tensor_bytes(a.output) == runtime::tensor_bytes(b.output));
        CHECK(a.poisoned_outputs == b.poisoned_outputs);
        CHECK(a.simulated_macs == b.simulated_macs);
        // The digest is of the output bytes (docs/cli.md §6), so equal digests are equal outputs.
        CHECK(a.sha256 == runtime::sha256_hex(runtime::tensor_bytes(a.output)));
        const run::RunOutcome c = run_ok(file, k, ops, request(run::Engine::Interp, 1, 8));
        CHECK(c.sha256 != a.sha256);
        ++ran;
      });
  // specs/ holds at least the book's batched matmuls and lane examples that `tujit run` feeds.
  CHECK(ran >= 5);
}

TEST_CASE("same spec and seed: same bytes and cycles for every engine, thread count and rerun",
          "[determinism]") {
  testing::TempDir cache("determinism_cache");
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t every = 0, large = 0;
  std::vector<std::string> refused, too_large;
  for_each_fed_corpus_kernel(
      [&](const ir::SpecFile& file, const ir::Kernel& k, const ir::seq::RunOperands& ops) {
        const std::uint64_t n = input_elements(file, k, ops);
        if (n > kLargeElements) {
          too_large.push_back(k.name);
          return;
        }
        const bool ran = n <= kEveryRunElements
                             ? check_deterministic(file, k, ops, cache.path.string(), kEveryRun)
                             : check_deterministic(file, k, ops, cache.path.string(), kLargeRuns);
        if (!ran)
          refused.push_back(k.name);
        else
          ++(n <= kEveryRunElements ? every : large);
      });
  const double corpus_s = seconds_since(t0);

  // Generated kernels of every form; those `tujit run` cannot feed yet (find_run_operands
  // refuses them) are counted, and another is drawn.
  constexpr std::size_t kGenerated = 40;
  testing::KernelGenOptions options;
  options.form = testing::KernelForm::Mixed;
  testing::KernelGenerator gen(20260311, options);
  std::size_t generated = 0, not_fed = 0;
  for (std::size_t i = 0; generated < kGenerated && i < 4 * kGenerated; ++i) {
    const testing::AnalyzedKernel a = testing::next_analyzed(gen);
    INFO(a.context());
    auto ops = ir::seq::find_run_operands(a.kernel());
    if (!ops) {
      for (const auto& d : ops.diagnostics()) {
        INFO(d.message);
        CHECK(d.code.rfind("E-RUN-1", 0) == 0); // "not supported yet" (harness/run/run_pipeline.h)
      }
      ++not_fed;
      continue;
    }
    // Generated kernels are valid and sized for the engines: each one runs.
    CHECK(check_deterministic(a.file, a.kernel(), *ops, cache.path.string(), kEveryRun));
    ++generated;
  }
  WARN(fmt::format("determinism: corpus kernels: {} with every run, {} large, {} refused alike "
                   "every time ({}), {} not run ({}), {:.1f} s; {} generated kernels ({} not fed "
                   "by tujit run), {:.1f} s in all",
                   every, large, refused.size(), fmt::join(refused, ", "), too_large.size(),
                   fmt::join(too_large, ", "), corpus_s, generated, not_fed, seconds_since(t0)));
  CHECK(every >= 20);
  CHECK(too_large.empty());
  CHECK(generated == kGenerated);
}

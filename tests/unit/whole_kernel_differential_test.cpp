// Generated whole kernels (tests/support/kernel_gen_whole.h, docs/kernels.md): each operand an
// HbmTensor parameter moved into DM by `to_dm` (implicit and explicit form, HBM layouts,
// broadcasts), the DM-fed contraction chain (or, in a move kernel, the collected stream), the
// output path (Cast Engine, commit_trim, commit_cast[_relu], commit) and `to_hbm`. Every generated
// kernel must check clean (a refusal is a generator bug), run on the interpreter and the JIT bit
// for bit (output, poison report) and agree with the float64 oracle of the whole path
// (run_kernel's --verify; a move's oracle is the input itself). On failure the seed, the kernel's
// index and its text are printed. The counts below keep the sample from silently losing a command
// of the output path or the DMA.
#include "harness/run/run_pipeline.h"
#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"
#include "tests/support/checked.h"
#include "tests/support/diagnostic_dump.h"
#include "tests/support/kernel_gen.h"
#include "tests/support/run_request.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <chrono>
#include <map>
#include <string>

using namespace tujit;
using namespace tujit::ir;

namespace {

constexpr std::uint64_t kSeed = 20270321; // fixed: deterministic
constexpr int kKernels = 600;

using testing::dump;

/// What the sample exercised: the commands of the checked kernels (not the generator's word for
/// them) and the generator's syntactic forms.
struct Coverage {
  std::map<std::string, int> n;
  void add(const Kernel& k, const testing::GeneratedKernel& g) {
    for (const Stage& s : k.stages) ++n[std::string(to_string(s.op))];
    // A plain commit: the trimmed stream written as it is, no cast on the path.
    bool cast = false;
    for (const Stage& s : k.stages)
      cast |=
          s.op == StageOp::Cast || s.op == StageOp::CommitCast || s.op == StageOp::CommitCastRelu;
    if (!cast) ++n["plain commit"];
    for (const auto& f : g.features.whole) ++n[f];
  }
  std::string text() const {
    std::string s;
    for (const auto& [k, v] : n) s += fmt::format(" {}={}", k, v);
    return s;
  }
};

} // namespace

TEST_CASE("whole kernel differential: generated HBM → DM → contraction → output path → HBM "
          "kernels check, run bit for bit on both engines and match the oracle",
          "[whole_kernel][kernel-gen]") {
  testing::KernelGenOptions opt;
  opt.form = testing::KernelForm::Whole;
  testing::KernelGenerator gen(kSeed, opt);
  Coverage cov;
  int poisoned = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < kKernels; ++i) {
    const testing::GeneratedKernel g = gen.next();
    INFO(fmt::format("generator seed {}, kernel {} ({})\n{}", kSeed, i, g.description, g.spec));
    SourceBuffer src(g.kernel_name + ".rs", g.spec);
    auto spec = analyze_spec(src);
    INFO((spec.ok() ? std::string() : dump(src, spec.diagnostics())));
    REQUIRE(spec.ok());
    REQUIRE(spec->warnings.empty());
    REQUIRE(spec->kernels.size() == 1);
    const Kernel& k = spec->kernels[0];
    const verify::KernelCheck kc = verify::check_kernel(*spec, k);
    INFO("check: " << dump(spec->source, kc.all_diagnostics()));
    REQUIRE(kc.ok());
    REQUIRE(kc.all_diagnostics().empty());
    cov.add(k, g);

    auto ops = seq::find_run_operands(k);
    INFO((ops.ok() ? std::string() : dump(spec->source, ops.diagnostics())));
    REQUIRE(ops.ok());
    REQUIRE(ops->commit != nullptr);
    const run::RunRequest req =
        testing::interp_verify_request(kSeed + static_cast<std::uint64_t>(i));
    auto run = run::run_kernel(*spec, testing::checked(k), *ops, req);
    INFO((run.ok() ? std::string() : dump(spec->source, run.diagnostics())));
    REQUIRE(run.ok());
    const bool move = g.description.find("move:") != std::string::npos;
    REQUIRE(run->fetches.size() == (move ? 1u : 2u));
    REQUIRE(run->verify.has_value());
    const auto& v = *run->verify;
    INFO("engines: " << v.engine_difference
                     << "; oracle: " << v.oracle_not_applicable.value_or("applicable") << ", "
                     << v.mismatches << " mismatches, worst " << v.worst << ", max abs err "
                     << v.oracle_max_abs_err << "; poisoned " << run->poisoned_outputs);
    CHECK(v.other_engine == "jit");
    CHECK(v.engines_bit_exact);
    REQUIRE_FALSE(v.oracle_not_applicable.has_value());
    CHECK(v.oracle_ok);
    CHECK((run->poisoned_outputs > 0) == g.expected_poison);
    poisoned += g.expected_poison ? 1 : 0;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Every command of the DMA and the output path, and both forms of to_dm, occur often enough
  // that a generator change dropping one fails here.
  INFO("coverage:" << cov.text());
  const std::map<std::string, int> minimum = {{"to_dm", kKernels},
                                              {"to_trf", kKernels / 2},
                                              {"to_hbm", kKernels},
                                              {"commit", kKernels},
                                              {"commit_trim", kKernels},
                                              {"cast", kKernels / 5},
                                              {"commit_cast", 8},
                                              {"commit_cast_relu", 8},
                                              {"plain commit", kKernels / 5},
                                              {"move:main", 12},
                                              {"move:sub", 4},
                                              {"stream:to_dm:implicit", kKernels / 5},
                                              {"stream:to_dm:explicit", kKernels / 5},
                                              {"trf:to_dm:implicit", kKernels / 5},
                                              {"trf:to_dm:explicit", kKernels / 5},
                                              {"stream:broadcast", 8},
                                              {"trf:broadcast", 8},
                                              {"out:trim-partial", 8},
                                              {"out:trim-pad", kKernels / 5},
                                              {"out:commit:explicit", kKernels / 5},
                                              {"out:commit-order", 8},
                                              {"out:commit-strip", 8},
                                              {"out:to_hbm:explicit", kKernels / 5}};
  for (const auto& [what, at_least] : minimum) {
    INFO(what);
    CHECK(cov.n[what] >= at_least);
  }
  WARN(fmt::format("whole kernel differential: {} kernels ({} expected to poison) in {:.1f} s;{}",
                   kKernels, poisoned, s, cov.text()));
}

TEST_CASE("whole kernel differential: a larger sample of generated whole kernels checks clean",
          "[whole_kernel][kernel-gen]") {
  // The checker alone is cheap: a wider sample reaches rarer combinations than the run above.
  constexpr int kChecked = 3000;
  testing::KernelGenOptions opt;
  opt.form = testing::KernelForm::Whole;
  testing::KernelGenerator gen(kSeed + 1, opt);
  std::map<std::string, int> n;
  for (int i = 0; i < kChecked; ++i) {
    const testing::GeneratedKernel g = gen.next();
    INFO(fmt::format("generator seed {}, kernel {} ({})\n{}", kSeed + 1, i, g.description, g.spec));
    SourceBuffer src(g.kernel_name + ".rs", g.spec);
    auto spec = analyze_spec(src);
    INFO((spec.ok() ? std::string() : dump(src, spec.diagnostics())));
    REQUIRE(spec.ok());
    const verify::KernelCheck kc = verify::check_kernel(*spec, spec->kernels[0]);
    INFO("check: " << dump(spec->source, kc.all_diagnostics()));
    REQUIRE(kc.all_diagnostics().empty());
    auto ops = seq::find_run_operands(spec->kernels[0]);
    INFO((ops.ok() ? std::string() : dump(spec->source, ops.diagnostics())));
    REQUIRE(ops.ok());
    REQUIRE(ops->commit != nullptr);
    for (const auto& f : g.features.whole) ++n[f];
  }
  std::string counts;
  for (const auto& [k, v] : n) counts += fmt::format(" {}={}", k, v);
  WARN("whole kernel check sample: " << kChecked << " kernels;" << counts);
}

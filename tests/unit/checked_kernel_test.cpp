// Lowering reads what the kernel checker derived (ir/verify/checked_kernel.h): the programs it
// builds from a checked kernel are the ones the verifiers give when run again on the lowered
// mappings, and a stage whose result the check lacks is refused rather than re-derived.
#include "ir/lang/kernel.h"
#include "ir/seq/fetch_program.h"
#include "ir/seq/lower_contraction.h"
#include "ir/seq/run_operands.h"
#include "ir/verify/checked_kernel.h"
#include "ir/verify/kernel_checker.h"
#include "tests/support/spec_corpus.h"

#include <catch2/catch.hpp>

#include <string>
#include <variant>

using namespace tujit;
using namespace tujit::ir;

namespace {

/// The same part of the chain lowered from its mappings alone: every stage verifier runs again.
Result<seq::ContractionProgram> from_mappings(const seq::ContractionProgram& p) {
  seq::ChainPart part;
  part.m = p.m;
  part.stream_type = p.stream_type;
  part.trf_type = p.trf_type;
  part.accumulator = p.accumulator;
  part.mode = p.mode;
  part.first = p.first;
  part.last = p.last;
  return seq::lower_contraction(part);
}

std::string code_of(const Diagnostics& ds) {
  return ds.empty() ? std::string() : ds.front().code;
}

} // namespace

TEST_CASE("a checked kernel's chain lowers to the program its mappings give", "[checked]") {
  std::size_t compared = 0;
  for (const auto& path : testing::spec_corpus()) {
    auto file = load_spec(path.string());
    REQUIRE(file.ok());
    for (const Kernel& k : file->kernels) {
      const verify::KernelCheck check = verify::check_kernel(k);
      if (!k.ok || !check.ok()) continue;
      auto stages = seq::find_contraction_stages(k);
      if (!stages) continue;
      INFO(path.filename().string() << " :: " << k.name);
      auto lowered = seq::lower_contraction({k, check}, stages->first, stages->last);
      REQUIRE(lowered.ok());
      auto again = from_mappings(*lowered);
      REQUIRE(again.ok());
      again->kernel_name = lowered->kernel_name;
      CHECK(seq::fingerprint(*lowered) == seq::fingerprint(*again));
      CHECK(seq::to_text(*lowered) == seq::to_text(*again));
      ++compared;
    }
  }
  // Every spec kernel with a contraction stage (47 when this was written): the chains of specs/,
  // specs/derived/ and specs/kernels/; a corpus that shrank would hide a regression.
  CHECK(compared >= 47);
}

TEST_CASE("a stage whose verifier result the check lacks is refused, not re-derived", "[checked]") {
  auto file = load_spec(std::string(TUJIT_SOURCE_DIR) + "/specs/derived/gemm_kernel.rs");
  REQUIRE(file.ok());
  const Kernel& k = file->kernels.at(0);
  const verify::KernelCheck check = verify::check_kernel(k);
  REQUIRE(check.ok());
  auto stages = seq::find_contraction_stages(k);
  REQUIRE(stages.ok());
  REQUIRE(seq::lower_contraction({k, check}, stages->first, stages->last).ok());

  SECTION("each contraction stage") {
    for (std::size_t i : stages->path) {
      INFO(to_string(k.stages[i].op));
      verify::KernelCheck without = check;
      without.stages[i].facts = std::monostate{};
      auto lowered = seq::lower_contraction({k, without}, stages->first, stages->last);
      REQUIRE_FALSE(lowered.ok());
      CHECK(code_of(lowered.diagnostics()) == "E-RUN-101");
      CHECK(lowered.diagnostics().front().message.find("without its verifier's result") !=
            std::string::npos);
    }
  }
  SECTION("the fetch and the collect of a data-path chain") {
    std::size_t collects = 0;
    for (std::size_t c = 0; c < k.stages.size(); ++c) {
      if (k.stages[c].unit() != StageUnit::Collect || !k.stages[c].producer) continue;
      ++collects;
      REQUIRE(seq::lower_fetch({k, check}, c).ok());
      for (std::size_t i = 0; i <= c; ++i) {
        const StageUnit u = k.stages[i].unit();
        if (u != StageUnit::Collect && u != StageUnit::FetchSequencer) continue;
        verify::KernelCheck without = check;
        without.stages[i].facts = std::monostate{};
        auto f = seq::lower_fetch({k, without}, c);
        if (i == c || (u == StageUnit::FetchSequencer && k.stages[i].chain == k.stages[c].chain)) {
          REQUIRE_FALSE(f.ok());
          CHECK(code_of(f.diagnostics()) == "E-RUN-101");
        }
      }
    }
    CHECK(collects == 2); // the TRF operand's and the stream's
  }
}

TEST_CASE("the check keeps each stage's derivation as a typed value", "[checked]") {
  auto file = load_spec(std::string(TUJIT_SOURCE_DIR) + "/specs/derived/gemm_kernel.rs");
  REQUIRE(file.ok());
  const Kernel& k = file->kernels.at(0);
  const verify::KernelCheck check = verify::check_kernel(k);
  REQUIRE(check.stages.size() == k.stages.size());
  const verify::CheckedKernel ck(k, check);
  for (std::size_t i = 0; i < k.stages.size(); ++i) {
    const Stage& s = k.stages[i];
    INFO(i << " " << to_string(s.op));
    // A stage that reports derived values holds them as a typed value too (fetch_cast and the
    // zero-point subtraction derive nothing).
    CHECK(check.stages[i].derived.empty() == std::holds_alternative<std::monostate>(ck.facts(s)));
    if (s.unit() == StageUnit::ContractOuter) {
      const auto* outer = ck.derived<verify::ContractOuterDerived>(s);
      REQUIRE(outer != nullptr);
      CHECK(std::get<std::uint64_t>(check.stages[i].derived.at("pack_size")) ==
            outer->stream_adapter.pack_size);
    }
  }
  // A stage of another kernel has no facts here.
  const Stage other = k.stages.front();
  CHECK(std::holds_alternative<std::monostate>(ck.facts(other)));
}

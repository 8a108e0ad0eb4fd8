// The run's preparation on more than one thread (harness/run/run_pipeline.cpp lower_and_prepare:
// the JIT is set up on another thread while the kernel is lowered) changes nothing: the program
// lowered with one thread and with two is the same field for field (ir::seq::FieldEqual, what the
// fingerprint reads), so is its fingerprint, and the outputs are the same bytes.
#include "harness/run/run_pipeline.h"
#include "ir/lang/kernel.h"
#include "ir/seq/field_hash.h"
#include "tests/support/checked.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace tujit;

TEST_CASE("run preparation: the program lowered with one thread and with two is the same",
          "[run-prepare]") {
  for (const char* spec : {"specs/bmatmul_m_in_time.rs", "specs/derived/gemm_kernel.rs",
                           "specs/lane_interleaved.rs"}) {
    INFO(spec);
    auto file = ir::load_spec((std::filesystem::path(TUJIT_SOURCE_DIR) / spec).string());
    REQUIRE(file.ok());
    const ir::Kernel& k = file->kernels.front();
    auto ops = ir::seq::find_run_operands(k);
    REQUIRE(ops.ok());
    std::optional<run::RunOutcome> first;
    for (unsigned threads : {1u, 2u}) {
      run::RunRequest req;
      req.engine = run::Engine::Jit;
      req.threads = threads;
      req.seed = 5;
      req.jit.use_cache = false;
      auto out = run::run_kernel(*file, testing::checked(k), *ops, req);
      REQUIRE(out.ok());
      if (!first) {
        first = std::move(*out);
        continue;
      }
      CHECK(ir::seq::FieldEqual{}(first->program, out->program));
      CHECK(ir::seq::fingerprint(first->program) == ir::seq::fingerprint(out->program));
      CHECK(first->output.data == out->output.data);
      CHECK(first->sha256 == out->sha256);
    }
  }
}

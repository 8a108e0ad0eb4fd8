// DESIGN.md "Determinism: same spec + seed ⇒ same bytes out" (issue 10): every kernel of
// specs/*.rs and specs/derived/*.rs that `tujit run` can feed runs twice with the same seed through
// run_kernel (the reference interpreter) and gives identical output bytes and sha256; another
// seed gives other inputs and so another output.
#include "harness/cli/run_kernel.h"
#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"
#include "runtime/tensor/sha256.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;
using namespace tujit;

namespace {

std::vector<fs::path> runnable_corpus() {
  std::vector<fs::path> out;
  for (const char* dir : {"specs", "specs/derived"})
    for (const auto& e : fs::directory_iterator(fs::path(TUJIT_SOURCE_DIR) / dir))
      if (e.is_regular_file() && e.path().extension() == ".rs") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

cli::RunOutcome run(const ir::SpecFile& file, const ir::Kernel& k, const cli::RunOperands& ops,
                    std::uint64_t seed) {
  cli::RunRequest req;
  req.engine = cli::Engine::Interp; // the JIT's determinism across thread counts: issue 6
  req.seed = seed;
  auto r = cli::run_kernel(file, k, ops, req);
  if (!r)
    for (const auto& d : r.diagnostics()) UNSCOPED_INFO(render(d, &file.source));
  REQUIRE(r.ok());
  return std::move(*r);
}

} // namespace

TEST_CASE("same spec and seed give the same bytes; another seed other bytes", "[determinism]") {
  std::size_t ran = 0;
  for (const auto& path : runnable_corpus()) {
    auto file = ir::load_spec(path.string());
    if (!file) continue; // specs/ holds no invalid files, but a refused one is not runnable
    for (const auto& k : file->kernels) {
      if (!k.ok || !ir::verify::check_kernel(*file, k).ok()) continue;
      auto ops = cli::find_run_operands(k);
      if (!ops) continue; // a shape `tujit run` does not feed yet (E-RUN-1xx)
      INFO(path.filename().string() << " kernel " << k.name);
      const cli::RunOutcome a = run(*file, k, *ops, 7);
      const cli::RunOutcome b = run(*file, k, *ops, 7);
      CHECK(a.sha256 == b.sha256);
      CHECK(a.output.bits == b.output.bits);
      CHECK(runtime::tensor_bytes(a.output) == runtime::tensor_bytes(b.output));
      CHECK(a.poisoned_outputs == b.poisoned_outputs);
      CHECK(a.simulated_macs == b.simulated_macs);
      // The digest is of the output bytes (spec/cli.md), so equal digests are equal outputs.
      CHECK(a.sha256 == runtime::sha256_hex(runtime::tensor_bytes(a.output)));
      const cli::RunOutcome c = run(*file, k, *ops, 8);
      CHECK(c.sha256 != a.sha256);
      ++ran;
    }
  }
  // specs/ holds at least the book's batched matmuls and lane examples that `tujit run` feeds.
  CHECK(ran >= 5);
}

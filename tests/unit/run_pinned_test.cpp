// Pinned outputs: every kernel of specs/ that `tujit run` feeds, run on fixed inputs, must give the
// output bytes (sha256), the poison count and the simulated MACs recorded below, on both engines.
// The table was recorded before the run path moved from device images to address streams over
// logical tensors; that rework (and any later one) must not move a single byte. The inputs do not
// come from the seeded generator (which may change): each element is a fixed function of its
// parameter's name and its row-major offset, a finite value of the parameter's type.
#include "harness/run/run_pipeline.h"
#include "harness/run/run_plan.h"
#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"
#include "tests/support/checked.h"
#include "tests/support/spec_corpus.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace tujit;

namespace {

struct Pinned {
  const char* file;
  const char* kernel;
  bool ftz;
  const char* sha256;
  std::uint64_t poisoned;
  std::uint64_t macs;
};

// clang-format off
constexpr Pinned kPinned[] = {
#include "tests/unit/run_pinned_table.inc"
};
// clang-format on

/// A fixed 32-bit hash of (name, offset): FNV-1a of the name, then a multiply-xorshift of the
/// offset. Written out here so that the inputs never depend on the product's generator.
std::uint32_t fixed_hash(const std::string& name, std::uint64_t offset) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ull;
  std::uint64_t x = h ^ (offset * 0x9E3779B97F4A7C15ull);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return static_cast<std::uint32_t>(x >> 16);
}

/// A finite element of `t` from the hash: integers over the type's range (i32 over ±2^20),
/// bf16 / f8 codes with a bounded exponent (never inf or NaN; subnormals of f8 included).
std::uint32_t fixed_element(ir::ScalarType t, std::uint32_t h) {
  switch (ir::encoding(t)) {
  case ir::Encoding::Bf16: // sign, exponent 120..127 (magnitudes 2^-7 … <2), 7 fraction bits
    return ((h & 1u) << 15) | ((120u + ((h >> 1) & 7u)) << 7) | ((h >> 4) & 0x7Fu);
  case ir::Encoding::F8E4M3: // exponent fields 0..14: no NaN (0x7F / 0xFF)
    return ((h & 1u) << 7) | ((h >> 1) % 0x78u);
  case ir::Encoding::F8E5M2: // exponent fields 0..30: no inf / NaN
    return ((h & 1u) << 7) | ((h >> 1) % 0x7Cu);
  case ir::Encoding::F32: // |v| in [2^-7, 2)
    return ((h & 1u) << 31) | ((120u + ((h >> 1) & 7u)) << 23) | ((h >> 4) & 0x7FFFFFu);
  case ir::Encoding::F4E2M1: // every code is a finite value
    return h & 0xFu;
  case ir::Encoding::TwosComplement: // integers: below
  case ir::Encoding::Unsigned:
    break;
  }
  std::int64_t lo = -(std::int64_t{1} << 20), hi = std::int64_t{1} << 20;
  if (auto r = ir::integer_range(t); r && t != ir::ScalarType::I32) {
    lo = r->first;
    hi = r->second;
  }
  const auto span = static_cast<std::uint64_t>(hi - lo + 1);
  return static_cast<std::uint32_t>(lo + static_cast<std::int64_t>(h % span));
}

runtime::LogicalTensor fixed_input(const ir::KernelParam& p, const std::vector<ir::Axis>& axes) {
  auto t = runtime::make_logical_tensor(p.tensor->dtype, axes);
  REQUIRE(t.ok());
  for (std::uint64_t i = 0; i < t->elements(); ++i)
    t->set(i, fixed_element(t->dtype, fixed_hash(p.name, i)));
  return std::move(*t);
}

struct Observed {
  std::string sha256;
  std::uint64_t poisoned = 0, macs = 0;
};

/// A kernel run command by command (docs/kernels.md §3) pins the result command's output; its
/// MACs are every command's.
Observed run_fixed(const ir::SpecFile& file, const run::RunPlan& plan, run::Engine engine,
                   bool ftz) {
  run::RunRequest req;
  req.engine = engine;
  req.threads = 2;
  req.ftz_results = ftz;
  req.jit.use_cache = false;
  auto axes = plan.input_tiles(file);
  REQUIRE(axes.ok());
  for (const ir::KernelParam* p : plan.inputs())
    req.given[p->name] = fixed_input(*p, axes->at(p->name));
  auto r = run::run_plan(file, plan, req);
  if (!r)
    for (const auto& d : r.diagnostics()) UNSCOPED_INFO(render(d, &file.source));
  REQUIRE(r.ok());
  return {r->sha256, r->poisoned_outputs, r->simulated_macs};
}

} // namespace

TEST_CASE("pinned outputs of every runnable spec kernel on fixed inputs", "[pinned][cli-run]") {
  std::map<std::string, const Pinned*> pinned;
  for (const Pinned& p : kPinned)
    pinned[fmt::format("{}:{}:{}", p.file, p.kernel, p.ftz ? "ftz" : "ieee")] = &p;
  const bool record = std::getenv("TUJIT_RECORD_PINNED") != nullptr;
  std::size_t checked = 0;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    const std::string rel = path.lexically_relative(TUJIT_SOURCE_DIR).generic_string();
    for (const auto& k : file->kernels) {
      const auto with_check = testing::checked(k);
      if (!k.ok || !with_check.check().ok()) continue;
      auto plan = run::plan_run(with_check);
      if (!plan) continue;
      for (bool ftz : {false, true}) {
        if (ftz && plan->result().ops.shape != ir::seq::RunShape::Contraction) continue;
        const std::string key = fmt::format("{}:{}:{}", rel, k.name, ftz ? "ftz" : "ieee");
        INFO(key);
        for (run::Engine e : {run::Engine::Interp, run::Engine::Jit}) {
          const Observed o = run_fixed(*file, *plan, e, ftz);
          if (record && e == run::Engine::Interp) {
            fmt::print("  {{\"{}\", \"{}\", {}, \"{}\", {}, {}}},\n", rel, k.name, ftz, o.sha256,
                       o.poisoned, o.macs);
            continue;
          }
          if (record) continue;
          auto it = pinned.find(key);
          REQUIRE(it != pinned.end()); // a new runnable kernel: add its row
          CHECK(o.sha256 == it->second->sha256);
          CHECK(o.poisoned == it->second->poisoned);
          CHECK(o.macs == it->second->macs);
        }
        ++checked;
      }
    }
  }
  CHECK_FALSE(record); // recording prints the table; it never passes as a check
  CHECK(checked == std::size(kPinned));
}

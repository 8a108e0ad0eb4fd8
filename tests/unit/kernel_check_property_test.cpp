// Property tests of the kernel checker: random valid kernels built the way the book's
// strategies do (tests/support/kernel_gen.h) are accepted with the derived values the book's
// formulas give, and single-token mutations of them are accepted or rejected with a diagnostic,
// never a crash.
#include "ir/lang/kernel.h"
#include "ir/lex/token.h"
#include "ir/verify/kernel_checker.h"
#include "tests/support/diagnostic_dump.h"
#include "tests/support/kernel_gen.h"

#include <catch2/catch.hpp>

#include <random>

using namespace tujit;
using namespace tujit::ir;

namespace {

std::uint64_t number(const verify::StageCheck& s, const std::string& key) {
  auto it = s.derived.find(key);
  if (it == s.derived.end()) return ~std::uint64_t{0};
  const auto* n = std::get_if<std::uint64_t>(&it->second);
  return n ? *n : ~std::uint64_t{0};
}

const verify::StageCheck* stage(const Kernel& k, const verify::KernelCheck& kc, StageOp op) {
  for (std::size_t i = 0; i < k.stages.size(); ++i)
    if (k.stages[i].op == op && i < kc.stages.size()) return &kc.stages[i];
  return nullptr;
}

using testing::dump;

} // namespace

TEST_CASE("kernel check: generated book-strategy kernels are accepted", "[kernel-check]") {
  testing::KernelGenerator gen(20261129); // fixed seed: deterministic
  const int cases = 1000;
  for (int i = 0; i < cases; ++i) {
    auto g = gen.next();
    INFO(g.description << "\n" << g.spec);
    SourceBuffer src(g.kernel_name + ".rs", g.spec);
    auto spec = analyze_spec(src);
    INFO((spec.ok() ? std::string() : dump(src, spec.diagnostics())));
    REQUIRE(spec.ok());
    REQUIRE(spec->kernels.size() == 1);
    const Kernel& k = spec->kernels[0];
    CHECK(k.name == g.kernel_name);
    auto kc = verify::check_kernel(*spec, k);
    INFO(dump(spec->source, kc.all_diagnostics()));
    REQUIRE(kc.ok());
    // The book's formulas (computed by the generator from its own choices, not by the verifiers).
    const auto* trf = stage(k, kc, StageOp::ToTrf);
    const auto* outer = stage(k, kc, StageOp::ContractOuter);
    const auto* packet = stage(k, kc, StageOp::ContractPacket);
    const auto* time = stage(k, kc, StageOp::ContractTime);
    const auto* lane = stage(k, kc, StageOp::ContractLane);
    REQUIRE((trf && outer && packet && time && lane));
    CHECK(number(*trf, "lanes") == g.expected.lanes);
    CHECK(number(*trf, "flits_per_lane") == g.expected.flits_per_lane);
    CHECK(number(*outer, "pack_size") == g.expected.pack_size);
    CHECK(number(*outer, "time_broadcast_size") == g.expected.time_broadcast);
    CHECK(number(*outer, "lane_broadcast") == g.expected.lanes);
    CHECK(number(*outer, "read_size") == g.expected.read_size);
    CHECK(number(*packet, "depth") == g.expected.depth);
    CHECK(number(*time, "inner_time") == g.expected.inner_time);
    CHECK(number(*lane, "inner_time") == g.expected.inner_time);
  }
}

TEST_CASE("kernel check: token mutations of generated kernels never crash", "[kernel-check]") {
  testing::KernelGenerator gen(7);
  std::mt19937_64 rng(99);
  const std::vector<std::string> replacements = {
      "1", "2", "3", "8", "16", "32", "64",   "K",   "M",  "N",          "B",
      "V", "/", "%", "#", ",",  "i8", "bf16", "f32", "i4", "Sequential", "Interleaved"};
  std::size_t accepted = 0, rejected = 0;
  for (int i = 0; i < 200; ++i) {
    auto g = gen.next();
    SourceBuffer src(g.kernel_name, g.spec);
    Diagnostics ignored;
    std::vector<Token> toks = lex(src, ignored);
    for (int j = 0; j < 15; ++j) {
      // Replace one token of the kernel body (after the axes line) with another token.
      std::uniform_int_distribution<std::size_t> pick_tok(0, toks.size() - 2);
      const Token& t = toks[pick_tok(rng)];
      std::uniform_int_distribution<std::size_t> pick_rep(0, replacements.size() - 1);
      std::string text = g.spec;
      const std::size_t mode = rng() % 3;
      if (mode == 0)
        text.replace(t.span.offset, t.span.length, replacements[pick_rep(rng)]);
      else if (mode == 1)
        text.erase(t.span.offset, t.span.length);
      else
        text.insert(t.span.offset, replacements[pick_rep(rng)] + " ");
      INFO(g.description << " mutant:\n" << text);
      SpecAnalysis a = analyze(SourceBuffer("mutant.rs", text));
      Diagnostics all = a.diagnostics;
      for (const auto& k : a.file.kernels) {
        if (!k.ok) continue;
        auto kc = verify::check_kernel(a.file, k);
        REQUIRE(kc.stages.size() == k.stages.size());
        auto more = kc.all_diagnostics();
        all.insert(all.end(), more.begin(), more.end());
        for (const auto& d : more) {
          CHECK(!d.code.empty());
          CHECK(!d.message.empty());
          CHECK(d.span.has_value());
        }
      }
      if (has_errors(all))
        ++rejected;
      else
        ++accepted;
    }
  }
  CHECK(accepted + rejected == 3000);
  CHECK(accepted > 0);
  CHECK(rejected > 0);
}

namespace {

/// The `m![…]` bodies of the kernel (after `pub fn`), as (offset, length) in the text.
std::vector<std::pair<std::size_t, std::size_t>> mapping_bodies(const std::string& text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t at = text.find("m![", text.find("pub fn")); at != std::string::npos;
       at = text.find("m![", at + 3)) {
    const std::size_t begin = at + 3, end = text.find(']', begin);
    if (end == std::string::npos) break;
    out.emplace_back(begin, end - begin);
  }
  return out;
}

std::vector<std::string> split_terms(const std::string& body) {
  std::vector<std::string> terms;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= body.size(); ++i)
    if (i == body.size() || body[i] == ',') {
      std::string t = body.substr(start, i - start);
      while (!t.empty() && t.front() == ' ') t.erase(0, 1);
      terms.push_back(t);
      start = i + 1;
    }
  return terms;
}

} // namespace

TEST_CASE("kernel check: term mutations of generated kernels are accepted or diagnosed",
          "[kernel-check]") {
  testing::KernelGenerator gen(4242);
  std::mt19937_64 rng(17);
  const std::vector<std::string> terms = {
      "1",      "1 # 2", "1 # 8", "K",     "K / 16", "K % 16", "K / 32", "K % 32",
      "K % 64", "M",     "N",     "N # 8", "B",      "V",      "M / 2",  "K / 8 % 2"};
  std::size_t accepted = 0, front_rejected = 0, verifier_rejected = 0;
  for (int i = 0; i < 200; ++i) {
    auto g = gen.next();
    auto bodies = mapping_bodies(g.spec);
    REQUIRE(!bodies.empty());
    for (int j = 0; j < 10; ++j) {
      const auto [off, len] = bodies[rng() % bodies.size()];
      auto parts = split_terms(g.spec.substr(off, len));
      const std::size_t which = rng() % parts.size();
      switch (rng() % 4) {
      case 0:
        parts[which] = terms[rng() % terms.size()];
        break; // replace a term
      case 1:
        if (parts.size() > 1) parts.erase(parts.begin() + static_cast<long>(which));
        break;
      case 2:
        parts.insert(parts.begin() + static_cast<long>(which), terms[rng() % terms.size()]);
        break; // add a term
      default:
        std::swap(parts[which], parts[(which + 1) % parts.size()]);
        break; // reorder
      }
      std::string body;
      for (const auto& p : parts) body += (body.empty() ? "" : ", ") + p;
      std::string text = g.spec;
      text.replace(off, len, body);
      INFO(g.description << " mutant:\n" << text);
      SpecAnalysis a = analyze(SourceBuffer("mutant.rs", text));
      if (has_errors(a.diagnostics)) {
        ++front_rejected;
        continue;
      }
      REQUIRE(a.file.kernels.size() == 1);
      auto kc = verify::check_kernel(a.file, a.file.kernels[0]);
      REQUIRE(kc.stages.size() == a.file.kernels[0].stages.size());
      const auto ds = kc.all_diagnostics();
      for (const auto& d : ds) {
        CHECK(!d.code.empty());
        CHECK(!d.message.empty());
        CHECK(d.span.has_value());
      }
      if (has_errors(ds))
        ++verifier_rejected;
      else
        ++accepted;
    }
  }
  CHECK(accepted + front_rejected + verifier_rejected == 2000);
  CHECK(accepted > 0);
  CHECK(front_rejected > 0);
  CHECK(verifier_rejected > 0);
}

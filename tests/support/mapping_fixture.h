// Test helpers shared by every suite that works on bare mappings: parse an axes list and
// mappings over it (a parse failure fails the test), compare by normal form, and assert on a
// verifier's rule failure.
#pragma once

#include "ir/mapping/factor.h"
#include "ir/mapping/mapping.h"
#include "ir/mapping/syntax.h"
#include "ir/support/diagnostic.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <string_view>

namespace tujit::testing {

/// Parsed axes plus a mapping parser over them.
struct Axes {
  explicit Axes(std::string_view text) {
    auto r = ir::parse_axes_text(text);
    INFO("axes: " << text);
    REQUIRE(r.ok());
    table = *r;
  }
  ir::Mapping operator()(std::string_view text) const {
    auto r = ir::parse_mapping_text(text, table);
    INFO("mapping: " << text);
    if (!r.ok())
      for (const auto& d : r.diagnostics()) INFO(d.message);
    REQUIRE(r.ok());
    return *r;
  }
  /// True when `m` normalizes to the same canonical list as `text` (docs/mapping.md §4, "≡").
  bool same(const ir::Mapping& m, std::string_view text) const {
    return ir::factorize(m) == ir::factorize((*this)(text));
  }
  ir::AxisTable table;
};

/// The first diagnostic of a failed result, after checking its code and reference rule name
/// (verifiers put "rule: <Name>" first among the notes).
template <class T>
Diagnostic expect_rule(const Result<T>& r, std::string_view code, std::string_view rule) {
  REQUIRE_FALSE(r.ok());
  REQUIRE_FALSE(r.diagnostics().empty());
  const Diagnostic& d = r.diagnostics().front();
  INFO("message: " << d.message);
  CHECK(d.code == code);
  CHECK(d.severity == Severity::Error);
  CHECK_FALSE(d.message.empty());
  const std::string want = "rule: " + std::string(rule);
  CHECK(std::find(d.notes.begin(), d.notes.end(), want) != d.notes.end());
  return d;
}

/// The diagnostics of a failed result as text, for INFO on unexpected failures.
template <class T>
std::string why(const Result<T>& r) {
  if (r.ok()) return "ok";
  std::string s;
  for (const auto& d : r.diagnostics()) s += d.code + ": " + d.message + "\n";
  return s;
}

inline bool contains(std::string_view hay, std::string_view needle) {
  return hay.find(needle) != std::string_view::npos;
}

} // namespace tujit::testing

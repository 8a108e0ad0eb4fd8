#include "ir/lex/token.h"
#include "ir/support/diagnostic.h"

#include <catch2/catch.hpp>

using namespace tujit;

TEST_CASE("diagnostic renders file:line:col, the line and a caret", "[diagnostic]") {
  SourceBuffer src("k.rs", "axes![A = 8];\ntype L = m![A / 3];\n");
  Diagnostic d = make_error("E-PARSE-010", "3 does not divide 8", SourceSpan{30, 1},
                            {"`x / s` needs s to divide SIZE(x) (docs/mapping.md §1.3)"});
  std::string r = render(d, &src);
  CHECK(r == "k.rs:2:17: error[E-PARSE-010]: 3 does not divide 8\n"
             "  type L = m![A / 3];\n"
             "                  ^\n"
             "  note: `x / s` needs s to divide SIZE(x) (docs/mapping.md §1.3)\n");
}

TEST_CASE("line_col maps offsets to 1-based positions", "[diagnostic]") {
  SourceBuffer src("f", "ab\ncd\n\nx");
  CHECK(src.line_col(0) == std::pair<std::uint32_t, std::uint32_t>{1, 1});
  CHECK(src.line_col(3) == std::pair<std::uint32_t, std::uint32_t>{2, 1});
  CHECK(src.line_col(4) == std::pair<std::uint32_t, std::uint32_t>{2, 2});
  CHECK(src.line_col(7) == std::pair<std::uint32_t, std::uint32_t>{4, 1});
  CHECK(src.line_text(2) == "cd");
  CHECK(src.line_text(3).empty());
}

TEST_CASE("a caret on a 10 MB line shows a window, not the line", "[diagnostic]") {
  std::string line(10'000'000, 'a');
  SourceBuffer src("big", line);
  Diagnostic d = make_error("E-PARSE-001", "here", SourceSpan{5'000'000, 1});
  std::string r = render(d, &src);
  CHECK(r.size() < 1000);
  CHECK(r.find("big:1:5000001:") == 0);
}

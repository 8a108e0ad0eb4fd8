// docs/errors.md lists every diagnostic code of the project: every code that appears in the
// sources under ir/, runtime/, codegen/ and harness/ (scanned at test time) has an entry with an
// example and a fix, and every entry is a code some source emits.
#include "tests/support/text_file.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>
#include <set>

namespace fs = std::filesystem;
using tujit::testing::read_text_file;

TEST_CASE("docs/errors.md has an entry for every code in the sources and no other", "[docs]") {
  const fs::path root = TUJIT_SOURCE_DIR;
  const std::string doc = read_text_file(root / "docs/errors.md");
  REQUIRE(!doc.empty());
  // An entry is a table row starting with the code; its last two cells are example and fix.
  std::set<std::string> entries;
  const std::regex row(R"(\n\| (E-[A-Z]+-[0-9]{3}) \|([^\n]*)\|[^|\n]*\|[^|\n]*\|)");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator();
       ++it)
    entries.insert((*it)[1]);
  const std::regex code(R"(E-[A-Z]+-[0-9]{3})");
  std::set<std::string> used;
  for (const char* folder : {"ir", "runtime", "codegen", "harness"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / folder)) {
      const auto ext = e.path().extension();
      if (ext != ".cpp" && ext != ".h") continue;
      const std::string text = read_text_file(e.path());
      for (auto it = std::sregex_iterator(text.begin(), text.end(), code);
           it != std::sregex_iterator(); ++it)
        used.insert(it->str());
    }
  }
  REQUIRE(used.size() >= 100);
  for (const auto& c : used) {
    INFO(c);
    CHECK(entries.count(c) == 1);
  }
  for (const auto& c : entries) {
    INFO(c << " is listed in docs/errors.md but no source emits it");
    CHECK(used.count(c) == 1);
  }
}

// docs/errors.md lists every diagnostic code of the project (issue 4): every code that appears in
// the sources under ir/, runtime/ and harness/ (scanned at test time) has an entry with an
// example and a fix.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace {
std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
} // namespace

TEST_CASE("docs/errors.md has an entry for every code in the sources", "[kernel-check]") {
  const fs::path root = TUJIT_SOURCE_DIR;
  const std::string doc = read(root / "docs" / "errors.md");
  REQUIRE(!doc.empty());
  // An entry is a table row starting with the code; its last two cells are example and fix.
  std::set<std::string> entries;
  const std::regex row(R"(\n\| (E-[A-Z]+-[0-9]{3}) \|([^\n]*)\|[^|\n]*\|[^|\n]*\|)");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator();
       ++it)
    entries.insert((*it)[1]);
  const std::regex code(R"(E-[A-Z]+-[0-9]{3})");
  std::set<std::string> used;
  for (const char* folder : {"ir", "runtime", "harness"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / folder)) {
      const auto ext = e.path().extension();
      if (ext != ".cpp" && ext != ".h") continue;
      const std::string text = read(e.path());
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
  // The partial files were merged here.
  CHECK(!fs::exists(root / "docs" / "errors-outer.md"));
  CHECK(!fs::exists(root / "docs" / "errors-reduce.md"));
  CHECK(!fs::exists(root / "ir" / "lang" / "error_codes.md"));
}

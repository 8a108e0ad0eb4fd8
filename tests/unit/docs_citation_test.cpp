// Every document the repository cites exists, with the cited section (docs/README.md §1, §3): a
// `*.md` named in a comment, diagnostic or document under the scanned folders must be a file of
// the repository (`docs/contraction.md`, `specs/README.md`, a sibling in docs/) or a page of the
// public furiosa-opt book listed in docs/README.md §3 — by its `docs/src/` path, or inside docs/
// by a unique tail of that path. Each `§N.M` that follows a docs/ file
// must be a numbered heading of that file. Code and comments name rules, never issue numbers.
#include "tests/support/text_file.h"

#include <catch2/catch.hpp>

#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;
using tujit::testing::read_text_file;

namespace {

bool is_path_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == '/';
}

/// The section number at `text[i]` ("9", "9.4"; a final `.` is punctuation), empty if none.
std::string section_number_at(std::string_view text, std::size_t i) {
  auto digit = [&](std::size_t k) {
    return k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]));
  };
  std::string num;
  while (i < text.size() && (digit(i) || (text[i] == '.' && digit(i + 1) && !num.empty())))
    num += text[i++];
  return num;
}

/// The numbered headings of a document: `## 9. Numerics` gives "9", `### 9.4 Padding` "9.4".
std::set<std::string> sections_of(const std::string& doc) {
  std::set<std::string> out;
  std::istringstream in(doc);
  std::string line;
  while (std::getline(in, line)) {
    std::size_t i = 0;
    while (i < line.size() && line[i] == '#') ++i;
    if (i == 0 || i >= line.size() || line[i] != ' ') continue;
    if (std::string num = section_number_at(line, i + 1); !num.empty()) out.insert(num);
  }
  return out;
}

/// The `§N.M` numbers that belong to a citation: from `text[pos]` up to the end of its clause
/// (a closing bracket, `;`, the end of the line, or the next document).
std::vector<std::string> cited_sections(std::string_view text, std::size_t pos) {
  std::size_t end = pos;
  while (end < text.size() && text[end] != '\n' && text[end] != ')' && text[end] != ']' &&
         text[end] != ';' && text.substr(end, 3) != ".md")
    ++end;
  std::vector<std::string> out;
  const std::string_view clause = text.substr(pos, end - pos);
  const std::string_view mark = "§";
  for (std::size_t at = clause.find(mark); at != std::string_view::npos;
       at = clause.find(mark, at + 1)) {
    std::size_t i = at + mark.size();
    while (i < clause.size() && clause[i] == ' ') ++i;
    if (std::string num = section_number_at(clause, i); !num.empty()) out.push_back(num);
  }
  return out;
}

bool scanned(const fs::path& p) {
  static const std::set<std::string> kExt = {".h",    ".cpp", ".py", ".txt", ".toml",
                                             ".dict", ".rs",  ".in", ".md",  ".sh"};
  return kExt.count(p.extension().string()) == 1;
}

/// The book's pages as docs/README.md §3 lists them: "docs/src/moving-tensors/sequencer.md", ….
std::set<std::string> book_pages(const std::string& readme) {
  std::set<std::string> out;
  const std::string marker = "furiosa-opt docs/src/";
  for (std::size_t at = readme.find(marker); at != std::string::npos;
       at = readme.find(marker, at + 1)) {
    std::size_t b = at + marker.size() - std::string("docs/src/").size(), e = b;
    while (e < readme.size() && is_path_char(readme[e])) ++e;
    const std::string path = readme.substr(b, e - b);
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".md") == 0) out.insert(path);
  }
  return out;
}

/// Whether `token` names a book page: its `docs/src/` path anywhere (`furiosa-opt
/// docs/src/introduction.md`), or, when `tail_ok`, the unique page whose path ends with `/token`.
bool is_book_page(const std::set<std::string>& pages, const std::string& token, bool tail_ok) {
  const std::size_t src = token.find("docs/src/");
  if (src != std::string::npos) {
    const std::string path = token.substr(src);
    return pages.count(path) == 1;
  }
  if (!tail_ok) return false;
  int matches = 0;
  for (const auto& p : pages)
    if (p.size() > token.size() && p.compare(p.size() - token.size(), token.size(), token) == 0 &&
        p[p.size() - token.size() - 1] == '/')
      ++matches;
  return matches == 1;
}

struct Finding {
  std::string where;
  std::string what;
};

} // namespace

TEST_CASE("every cited document and docs/ section exists and no issue number is named", "[docs]") {
  const fs::path root = TUJIT_SOURCE_DIR;
  std::map<std::string, std::set<std::string>> sections; // "docs/mapping.md" → its headings
  for (const auto& e : fs::directory_iterator(root / "docs"))
    if (e.path().extension() == ".md")
      sections["docs/" + e.path().filename().string()] = sections_of(read_text_file(e.path()));
  REQUIRE(sections.count("docs/contraction.md") == 1);
  REQUIRE(sections["docs/contraction.md"].count("9.4") == 1);
  const std::set<std::string> pages = book_pages(read_text_file(root / "docs/README.md"));
  REQUIRE(pages.size() > 40);

  std::vector<fs::path> files = {root / "README.md"};
  for (const char* folder :
       {"ir", "runtime", "codegen", "harness", "tests", "bench", "docs", "specs", "scripts"})
    for (auto it = fs::recursive_directory_iterator(root / folder);
         it != fs::recursive_directory_iterator(); ++it) {
      // Installed npm packages (tests/report/tools/node_modules) are not the repository's text.
      if (it->is_directory() && it->path().filename() == "node_modules") {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file() && scanned(it->path())) files.push_back(it->path());
    }
  REQUIRE(files.size() > 300);

  std::vector<Finding> bad;
  std::size_t citations = 0;
  for (const fs::path& file : files) {
    const std::string text = read_text_file(file);
    const std::string rel = fs::relative(file, root).generic_string();
    std::size_t line_no = 1, line_start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line_no;
        line_start = i + 1;
        continue;
      }
      // Issue numbers: the word "issue" (or "issues"), an optional `#`, then digits.
      if ((text[i] == 'i' || text[i] == 'I') && text.compare(i + 1, 4, "ssue") == 0 &&
          (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])))) {
        std::size_t j = i + 5;
        if (j < text.size() && text[j] == 's') ++j;
        if (j < text.size() && text[j] == ' ') ++j;
        if (j < text.size() && text[j] == '#') ++j;
        if (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
          bad.push_back(
              {rel + ":" + std::to_string(line_no),
               "an issue number: " + text.substr(i, j + 1 - i) + " (name the rule instead)"});
      }
      if (text.compare(i, 3, ".md") != 0 || (i + 3 < text.size() && is_path_char(text[i + 3]) &&
                                             text[i + 3] != '.' && text[i + 3] != '/'))
        continue;
      std::size_t b = i;
      while (b > line_start && is_path_char(text[b - 1])) --b;
      if (b == i) continue; // `".md"` or `*.md`: an extension, not a document
      std::string token = text.substr(b, i + 3 - b);
      while (!token.empty() && (token.front() == '.' || token.front() == '/')) token.erase(0, 1);
      if (token == ".md" || token.empty()) continue;
      ++citations;
      // A repository file, by its path from the root or from the citing file's folder.
      std::string resolved;
      if (fs::is_regular_file(root / token))
        resolved = token;
      else if (fs::is_regular_file(file.parent_path() / token))
        resolved = fs::relative(file.parent_path() / token, root).generic_string();
      if (resolved.empty()) {
        const bool in_docs = rel.rfind("docs/", 0) == 0;
        if (!is_book_page(pages, token, in_docs))
          bad.push_back({rel + ":" + std::to_string(line_no),
                         "cites `" + token + "`, which is neither a file of the repository nor " +
                             (in_docs ? "a page of the book (docs/README.md §3)"
                                      : "a book page cited as `furiosa-opt docs/src/…`")});
        continue;
      }
      auto doc = sections.find(resolved);
      if (doc == sections.end()) continue;
      for (const std::string& s : cited_sections(text, i + 3))
        if (doc->second.count(s) == 0)
          bad.push_back({rel + ":" + std::to_string(line_no),
                         "cites " + resolved + " §" + s + ", which has no such section"});
    }
  }
  CHECK(citations > 100);
  for (const Finding& f : bad) {
    INFO(f.where << ": " << f.what);
    CHECK(false);
  }
  CHECK(bad.empty());
}

TEST_CASE("README's layout table names every folder of the repository", "[docs]") {
  const fs::path root = TUJIT_SOURCE_DIR;
  const std::string readme = read_text_file(root / "README.md");
  const std::size_t begin = readme.find("\n## Layout\n");
  REQUIRE(begin != std::string::npos);
  const std::string layout = readme.substr(begin, readme.find("\n## ", begin + 1) - begin);
  // The top-level folders and the folders one level below them; build trees, hidden folders and
  // installed npm packages are not the repository's layout.
  const auto listed = [](const fs::path& p) {
    const std::string name = p.filename().string();
    return fs::is_directory(p) && name.front() != '.' && name.rfind("build", 0) != 0 &&
           name != "node_modules";
  };
  std::vector<std::string> folders;
  for (const auto& top : fs::directory_iterator(root)) {
    if (!listed(top.path())) continue;
    const std::string name = top.path().filename().string() + "/";
    folders.push_back(name);
    for (const auto& sub : fs::directory_iterator(top.path()))
      if (listed(sub.path())) folders.push_back(name + sub.path().filename().string() + "/");
  }
  REQUIRE(folders.size() > 30);
  for (const std::string& f : folders) {
    INFO("README's Layout table does not name `" << f << "`");
    CHECK(layout.find("`" + f) != std::string::npos);
  }
}

TEST_CASE("no document or source file holds a merge conflict marker", "[docs]") {
  // A conflict resolved in one half of a file and committed leaves the other half with both sides
  // and the markers, which no build step reads in a Markdown file.
  const fs::path root = TUJIT_SOURCE_DIR;
  std::size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const std::string rel = fs::relative(e.path(), root).string();
    if (!e.is_regular_file() || rel.rfind("build", 0) == 0 || rel.front() == '.' ||
        rel.find("node_modules") != std::string::npos)
      continue;
    const std::string ext = e.path().extension().string();
    if (ext != ".md" && ext != ".cpp" && ext != ".h" && ext != ".rs" && ext != ".txt" &&
        ext != ".toml" && ext != ".sh")
      continue;
    ++files;
    std::istringstream in(read_text_file(e.path()));
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      const bool marker =
          line.rfind("<<<<<<< ", 0) == 0 || line.rfind(">>>>>>> ", 0) == 0 || line == "=======";
      INFO(rel << ":" << n << ": " << line);
      CHECK_FALSE(marker);
    }
  }
  CHECK(files > 300);
}

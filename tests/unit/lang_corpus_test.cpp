// The kernel language against files: every spec of specs/ (globbed at run time) analyses
// cleanly; every tests/corpus/malformed/ file yields the diagnostic its first line announces; and
// thousands of token mutations of the specs never crash and always give kernels or diagnostics.
#include "ir/lang/kernel.h"
#include "ir/lex/token.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

using namespace tujit;
using namespace tujit::ir;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> rs_files(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".rs") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

const fs::path kRoot = TUJIT_SOURCE_DIR;

std::string dump(const SpecAnalysis& a) {
  std::string out;
  for (const auto& d : a.diagnostics) out += render(d, &a.file.source);
  return out;
}

/// What every analysis must satisfy, whatever the input.
void check_invariants(const SpecAnalysis& a) {
  CHECK((has_errors(a.diagnostics) || !a.file.kernels.empty()));
  const auto size = a.file.source.text().size();
  for (const auto& d : a.diagnostics) {
    CHECK(!d.code.empty());
    if (d.span) CHECK(d.span->end() <= size);
  }
  for (const auto& k : a.file.kernels)
    for (const auto& s : k.stages) CHECK(s.span.end() <= size);
}

} // namespace

TEST_CASE("lang corpus: every valid spec in specs/ and specs/derived/ types cleanly", "[lang]") {
  std::vector<fs::path> files = rs_files(kRoot / "specs");
  auto derived = rs_files(kRoot / "specs" / "derived");
  files.insert(files.end(), derived.begin(), derived.end());
  REQUIRE(!files.empty());
  for (const auto& f : files) {
    SpecAnalysis a = analyze(SourceBuffer(f.string(), read(f)));
    INFO(f.string() << "\n" << dump(a));
    CHECK(!has_errors(a.diagnostics));
    CHECK(!a.file.kernels.empty());
    for (const auto& k : a.file.kernels) {
      CHECK(k.ok);
      CHECK(!k.stages.empty());
      // A declared tensor return type is what the chain produces (checked by sema).
      if (k.declared_return) CHECK(k.returned.has_value());
    }
  }
}

TEST_CASE("lang corpus: every spec in specs/invalid/ parses", "[lang]") {
  auto files = rs_files(kRoot / "specs" / "invalid");
  REQUIRE(!files.empty());
  for (const auto& f : files) {
    SpecAnalysis a = analyze(SourceBuffer(f.string(), read(f)));
    INFO(f.string() << "\n" << dump(a));
    // Their errors belong to the stage verifiers; only pure type errors (operand pairs, §12 #26)
    // and the context rules (which context may run a command, docs/kernel-language.md §5) are
    // the front end's. Nothing may fail to parse.
    for (const auto& d : a.diagnostics) {
      if (d.severity != Severity::Error) continue;
      CHECK(d.stage != "parse");
      CHECK((d.code == "E-TYPE-014" || d.code.starts_with("E-CTX-")));
    }
    CHECK(!a.file.kernels.empty());
  }
}

TEST_CASE("lang corpus: each malformed file yields its announced diagnostic", "[lang]") {
  auto files = rs_files(kRoot / "tests" / "corpus" / "malformed");
  REQUIRE(files.size() >= 50);
  const std::regex expect(R"(^// expect: (E-[A-Z]+-[0-9]+) ([0-9]+):([0-9]+))");
  for (const auto& f : files) {
    std::string text = read(f);
    std::smatch m;
    std::string first = text.substr(0, text.find('\n'));
    INFO(f.string());
    REQUIRE(std::regex_search(first, m, expect));
    const std::string code = m[1];
    const auto line = static_cast<std::uint32_t>(std::stoul(m[2]));
    const auto col = static_cast<std::uint32_t>(std::stoul(m[3]));
    SpecAnalysis a = analyze(SourceBuffer(f.string(), text));
    INFO("want " << code << " at " << line << ":" << col << "\n" << dump(a));
    bool found = false;
    for (const auto& d : a.diagnostics)
      if (d.code == code && d.span &&
          a.file.source.line_col(d.span->offset) == std::make_pair(line, col))
        found = true;
    CHECK(found);
    check_invariants(a);
  }
}

TEST_CASE("lang corpus: token mutations of the specs never crash", "[lang]") {
  std::vector<fs::path> files = rs_files(kRoot / "specs");
  for (const char* sub : {"derived", "invalid"}) {
    auto more = rs_files(kRoot / "specs" / sub);
    files.insert(files.end(), more.begin(), more.end());
  }
  REQUIRE(!files.empty());
  std::mt19937_64 rng(20261129); // fixed seed: deterministic mutants
  std::size_t mutants = 0;
  const std::size_t per_file = std::max<std::size_t>(40, 4000 / files.size());
  for (const auto& f : files) {
    const std::string text = read(f);
    SourceBuffer src(f.string(), text);
    Diagnostics ignored;
    std::vector<Token> toks = lex(src, ignored);
    toks.pop_back(); // Eof
    if (toks.size() < 2) continue;
    // The file as (gap before token, token text) pieces; mutants edit the token texts.
    std::vector<std::string> gaps, texts;
    std::uint32_t pos = 0;
    for (const auto& t : toks) {
      gaps.emplace_back(text, pos, t.span.offset - pos);
      texts.emplace_back(t.text);
      pos = t.span.end();
    }
    const std::string tail(text, pos);
    for (std::size_t i = 0; i < per_file; ++i) {
      std::vector<std::string> mt = texts;
      std::size_t edits = 1 + rng() % 3;
      for (std::size_t e = 0; e < edits; ++e) {
        std::size_t t = rng() % mt.size();
        switch (rng() % 3) {
        case 0:
          mt[t].clear();
          break; // delete
        case 1:
          mt[t].append(" ").append(texts[t]);
          break; // duplicate
        default:
          std::swap(mt[t], mt[rng() % mt.size()]); // swap
        }
      }
      std::string m;
      for (std::size_t t = 0; t < mt.size(); ++t) m.append(gaps[t]).append(mt[t]);
      m.append(tail);
      SpecAnalysis r = analyze(SourceBuffer("mutant.rs", m));
      check_invariants(r);
      ++mutants;
    }
  }
  CHECK(mutants >= 3000);
}

TEST_CASE("lang corpus: hostile whole files give diagnostics, never a crash", "[lang]") {
  auto run = [](std::string text) { return analyze(SourceBuffer("hostile.rs", std::move(text))); };
  const std::string head = "axes![A = 2];\nfn k(x: TrfTensor<bf16, m![1], m![1], m![1], m![1], m![";
  const std::string tail = "]>) {}\n";

  SpecAnalysis empty = run("");
  REQUIRE(empty.diagnostics.size() == 1);
  CHECK(empty.diagnostics[0].code == "E-PARSE-206");

  // 100k-deep nesting inside a mapping: refused by the bracket pass (and the mapping parser).
  SpecAnalysis deep = run(head + std::string(100000, '(') + "A" + std::string(100000, ')') + tail);
  CHECK(has_errors(deep.diagnostics));
  bool limit = false;
  for (const auto& d : deep.diagnostics) limit = limit || d.code == "E-PARSE-202";
  CHECK(limit);
  REQUIRE(deep.file.kernels.size() == 1);
  CHECK(!deep.file.kernels[0].ok);

  // A 10 MB comment line and a 10 MB run of spaces inside a mapping: accepted.
  SpecAnalysis wide = run("// " + std::string(10'000'000, 'x') + "\n" + head + "A" +
                          std::string(10'000'000, ' ') + tail);
  CHECK(!has_errors(wide.diagnostics));
  REQUIRE(wide.file.kernels.size() == 1);
  CHECK(wide.file.kernels[0].params.at(0).tensor.has_value());

  // A binary file: its junk bytes are reported once, not one diagnostic per byte.
  SpecAnalysis binary =
      run("axes![A = 2];\n" + std::string(20000, '\xff') + std::string(30, '\x01'));
  REQUIRE(binary.diagnostics.size() == 1);
  CHECK(binary.diagnostics[0].code == "E-PARSE-001");
  CHECK(binary.diagnostics[0].message.find("20030 bytes") != std::string::npos);
  CHECK(binary.file.source.line_col(binary.diagnostics[0].span->offset) == std::make_pair(2u, 1u));

  // Unbalanced brackets and malformed UTF-8 everywhere.
  for (std::string junk : {std::string(1000, ')'), std::string(1000, '['), std::string("fn k(\xff"),
                           std::string("fn k(x: TrfTensor<\xc3\x28, m![\xe2\x82]>) {\n"),
                           std::string("fn fn fn ( ( ( < < < m ! [ ] ] ]")}) {
    SpecAnalysis a = run(junk);
    CHECK(has_errors(a.diagnostics));
    check_invariants(a);
  }
}

TEST_CASE("lang corpus: every front-end code of docs/errors.md has a malformed file", "[lang]") {
  const std::string table = read(kRoot / "docs/errors.md");
  std::string announced;
  for (const auto& f : rs_files(kRoot / "tests" / "corpus" / "malformed")) {
    std::string text = read(f);
    announced += text.substr(0, text.find('\n')) + "\n";
  }
  const std::regex row(R"(\| (E-(?:PARSE-2|TYPE-0)[0-9]+) \| (\w+))");
  std::size_t rows = 0;
  for (auto it = std::sregex_iterator(table.begin(), table.end(), row);
       it != std::sregex_iterator(); ++it) {
    const std::string code = (*it)[1];
    ++rows;
    if ((*it)[2] == "note") continue; // E-PARSE-204: the "too many errors" note (sema test)
    INFO(code);
    CHECK(announced.find("// expect: " + code + " ") != std::string::npos);
  }
  CHECK(rows >= 28);
}

// The man page and bash completion `tujit help --man` / `--bash-completion` print (docs/cli.md
// §15): every command, and every option each command's own --help text lists (read from that
// text, not from the tables the generator walks), in roff that stays ASCII.
#include "harness/cli/cli_reference.h"
#include "harness/cli/command.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace tujit;

namespace {

/// The long options an option line of a --help text starts with ("  --kernel arg", "  -h [ --help
/// ]").
std::set<std::string> options_in_help(const std::string& help) {
  static const std::regex line(R"(^  (?:-[a-z] \[ )?(--[a-z0-9-]+))");
  std::set<std::string> found;
  std::istringstream in(help);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_search(l, m, line)) found.insert(m[1]);
  }
  return found;
}

/// `--max-bytes` as the man page writes it: bold, each '-' a minus sign.
std::string roff_bold(const std::string& option) {
  std::string s = "\\fB";
  for (char c : option) s += c == '-' ? std::string("\\-") : std::string(1, c);
  return s + "\\fR";
}

/// The completion script's word list for `command`.
std::string completion_words(const std::string& script, const std::string& command) {
  const std::string key = "  " + command + ") options=\"";
  const auto at = script.find(key);
  if (at == std::string::npos) return {};
  const auto start = at + key.size();
  // Formatted: `" " + std::string` trips g++ 12's false -Wstringop-overflow at -O3.
  return fmt::format(" {} ", script.substr(start, script.find('"', start) - start));
}

} // namespace

TEST_CASE("tujit help --man and --bash-completion: every command and option", "[cli-reference]") {
  const testing::CliRun man = testing::run_tujit({"help", "--man"});
  const testing::CliRun completion = testing::run_tujit({"help", "--bash-completion"});
  REQUIRE(man.status == 0);
  REQUIRE(completion.status == 0);
  CHECK(man.out.starts_with(".TH TUJIT 1 "));
  std::size_t checked = 0;
  for (const auto& c : cli::commands()) {
    const std::string name(c.name);
    INFO(name);
    CHECK(man.out.find(".SS \"tujit " + name + "\"\n") != std::string::npos);
    const std::string words = completion_words(completion.out, name);
    REQUIRE(!words.empty());
    const testing::CliRun help = testing::run_tujit({name, "--help"});
    REQUIRE(help.status == 0);
    const std::set<std::string> options = options_in_help(help.out);
    CHECK(options.count("--help") == 1);
    CHECK(options.size() >= 2);
    for (const auto& o : options) {
      INFO(o);
      CHECK(man.out.find(roff_bold(o)) != std::string::npos);
      CHECK(words.find(" " + o + " ") != std::string::npos);
      ++checked;
    }
  }
  CHECK(checked > 60);
}

TEST_CASE("tujit help --man: roff that renders the help texts' characters", "[cli-reference]") {
  const std::string man = testing::run_tujit({"help", "--man"}).out;
  for (unsigned char ch : man) REQUIRE(ch < 0x80);
  // `tujit cycles --help` cites "docs/cycle-model.md §9" and writes "fetch → collect".
  CHECK(man.find("docs/cycle-model.md \\[u00A7]9") != std::string::npos);
  CHECK(man.find("fetch \\[u2192] collect") != std::string::npos);
  // No text line that roff would take for a request.
  std::istringstream lines(man);
  for (std::string l; std::getline(lines, l);) {
    if (l.starts_with(".") || l.starts_with("'")) {
      INFO(l);
      CHECK(std::regex_match(l, std::regex(R"(\.(TH|SH|SS|TP|PP|nf|fi|B|BR|I|RI)( .*)?)")));
    }
  }
}

TEST_CASE("command_docs: each command's options in its --help order", "[cli-reference]") {
  const auto docs = cli::command_docs();
  REQUIRE(docs.size() == cli::commands().size());
  for (const auto& d : docs) {
    INFO(d.command->name);
    REQUIRE(!d.options.empty());
    CHECK(d.options.front().names == std::vector<std::string>{"-h", "--help"});
    CHECK(d.preamble.starts_with("usage: tujit " + std::string(d.command->name)));
  }
}

// Running the outside programs that check tujit's CI reports (tests/report/: xmllint, node with
// the npm packages of tests/report/tools): the exit status and everything the program printed.
// scripts/install-deps.sh installs them; a missing tool fails the test, it never skips it.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace tujit::testing {

struct ToolRun {
  int status = -1;
  std::string output; // stdout and stderr
};

/// `sh -c command` (quote arguments yourself: paths of the test's own temporary files).
inline ToolRun run_tool(const std::string& command) {
  ToolRun r;
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  while (const std::size_t n = std::fread(buf.data(), 1, buf.size(), p))
    r.output.append(buf.data(), n);
  const int w = ::pclose(p);
  r.status = WIFEXITED(w) ? WEXITSTATUS(w) : -1;
  return r;
}

/// A path in single quotes for `sh`.
inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// `xmllint --schema tests/report/junit.xsd FILE`: 0 when FILE is a valid JUnit report.
inline ToolRun check_junit_schema(const std::string& file) {
  return run_tool("xmllint --noout --schema " +
                  shell_quote(std::string(TUJIT_SOURCE_DIR) + "/tests/report/junit.xsd") + " " +
                  shell_quote(file));
}

/// An XPath 1.0 expression over the XML file `file`, evaluated by xmllint (trailing newline
/// dropped); status nonzero when xmllint fails.
inline ToolRun xpath(const std::string& file, const std::string& expr) {
  ToolRun r = run_tool("xmllint --xpath " + shell_quote(expr) + " " + shell_quote(file));
  while (!r.output.empty() && r.output.back() == '\n') r.output.pop_back();
  return r;
}

/// The npm tools of tests/report/tools.
inline std::string report_tool(const std::string& script) {
  return "node " + shell_quote(std::string(TUJIT_SOURCE_DIR) + "/tests/report/tools/" + script);
}

} // namespace tujit::testing

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

/// The npm tools of tests/report/tools.
inline std::string report_tool(const std::string& script) {
  return "node " + shell_quote(std::string(TUJIT_SOURCE_DIR) + "/tests/report/tools/" + script);
}

} // namespace tujit::testing

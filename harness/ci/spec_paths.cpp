#include "harness/ci/spec_paths.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

namespace tujit::ci {

namespace {

namespace fs = std::filesystem;

bool is_glob(const std::string& p) {
  return p.find_first_of("*?[") != std::string::npos;
}

bool hidden(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.size() > 1 && name[0] == '.' && name != "..";
}

/// The glob as an ECMAScript regex over the whole path.
std::string glob_regex(std::string_view g) {
  std::string re;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const char c = g[i];
    if (c == '*' && i + 1 < g.size() && g[i + 1] == '*') {
      const bool dir = i + 2 < g.size() && g[i + 2] == '/';
      re += dir ? "(?:.*/)?" : ".*";
      i += dir ? 2 : 1;
    } else if (c == '*') {
      re += "[^/]*";
    } else if (c == '?') {
      re += "[^/]";
    } else if (c == '[' && g.find(']', i + 2) != std::string_view::npos) {
      const std::size_t close = g.find(']', i + 2);
      // A bracket expression: `!` negates as `^` does; other characters stand for themselves.
      re += '[';
      for (std::size_t k = i + 1; k < close; ++k) {
        const char m = g[k];
        if (k == i + 1 && (m == '!' || m == '^')) {
          re += '^';
          continue;
        }
        if (m == '\\' || m == '[' || m == ']') re += '\\';
        re += m;
      }
      re += ']';
      i = close;
    } else {
      if (std::string_view(".^$|()[]{}+\\").find(c) != std::string_view::npos) re += '\\';
      re += c;
    }
  }
  return re;
}

/// Regular files below `dir` (recursively, up to `max_depth` directory levels; hidden
/// directories skipped) for which `keep` holds, sorted.
template <class Keep>
std::vector<std::string> walk(const fs::path& dir, std::size_t max_depth, Keep keep) {
  std::vector<std::string> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const bool is_dir = it->is_directory(ec);
    if (is_dir && (hidden(it->path()) || static_cast<std::size_t>(it.depth()) + 1 >= max_depth))
      it.disable_recursion_pending();
    if (!is_dir && it->is_regular_file(ec) && keep(it->path())) out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> expand_glob(const std::string& pattern) {
  // The directory part before the first wildcard is walked; the rest is matched.
  const std::size_t wild = pattern.find_first_of("*?[");
  const std::size_t slash = pattern.rfind('/', wild);
  const std::string base = slash == std::string::npos ? "" : pattern.substr(0, slash + 1);
  const std::string rest = pattern.substr(base.size());
  const std::size_t depth =
      rest.find("**") != std::string::npos
          ? SIZE_MAX
          : static_cast<std::size_t>(std::count(rest.begin(), rest.end(), '/')) + 1;
  const std::regex re(glob_regex(pattern));
  const fs::path root = base.empty() ? fs::path(".") : fs::path(base);
  return walk(root, depth, [&](const fs::path& p) {
    // Paths below "." are matched without the "./" the walk adds.
    std::string s = p.string();
    if (base.empty() && s.starts_with("./")) s.erase(0, 2);
    return std::regex_match(s, re);
  });
}

} // namespace

Result<std::vector<std::string>> expand_spec_paths(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& p : paths) {
    std::error_code ec;
    const auto status = fs::status(p, ec);
    std::vector<std::string> found;
    std::string nothing;
    if (fs::is_directory(status)) {
      found = walk(p, SIZE_MAX, [](const fs::path& f) { return f.extension() == ".rs"; });
      nothing = fmt::format("the directory '{}' holds no .rs file", p);
    } else if (fs::exists(status) || !is_glob(p)) {
      if (fs::exists(status)) found = {p};
      nothing = fmt::format("no such file or directory: '{}'", p);
    } else {
      found = expand_glob(p);
      nothing = fmt::format("the pattern '{}' matches no file", p);
    }
    if (found.empty()) return make_error("E-CHECK-004", nothing);
    for (auto& f : found)
      if (seen.insert(f).second) out.push_back(std::move(f));
  }
  return out;
}

} // namespace tujit::ci

#include "ir/lang/module_files.h"

#include <system_error>

namespace tujit::ir::lang {

namespace fs = std::filesystem;

namespace {

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

bool is_crate_root_name(const fs::path& name) {
  return name == "lib.rs" || name == "main.rs";
}

} // namespace

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

CrateLocation crate_location(const fs::path& file) {
  CrateLocation out;
  out.src = file.parent_path();
  out.standalone = true;
  if (!is_file(file)) return out;
  std::error_code ec;
  const fs::path abs = fs::absolute(file, ec);
  if (ec) return out;
  // The nearest directory at or above the file's that holds the crate root.
  for (fs::path dir = abs.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (is_file(dir / "lib.rs") || is_file(dir / "main.rs")) {
      out.src = dir;
      out.standalone = false;
      break;
    }
    if (dir == dir.root_path()) break;
  }
  if (out.standalone) return out;
  const fs::path rel = abs.lexically_relative(out.src);
  std::vector<std::string> parts;
  for (const fs::path& part : rel) parts.push_back(part.string());
  if (parts.empty()) return out;
  const fs::path last = parts.back();
  parts.pop_back();
  if (last == "mod.rs" || (parts.empty() && is_crate_root_name(last))) {
    out.module_path = std::move(parts);
  } else {
    parts.push_back(fs::path(last).stem().string());
    out.module_path = std::move(parts);
  }
  return out;
}

std::vector<fs::path> module_file_candidates(const fs::path& src,
                                             const std::vector<std::string>& path) {
  if (path.empty()) return {src / "lib.rs", src / "main.rs"};
  fs::path dir = src;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) dir /= path[i];
  return {dir / (path.back() + ".rs"), dir / path.back() / "mod.rs"};
}

std::string crate_path_text(const std::vector<std::string>& path) {
  std::string out = "crate";
  for (const std::string& s : path) out += "::" + s;
  return out;
}

} // namespace tujit::ir::lang

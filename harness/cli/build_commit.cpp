#include "harness/cli/build_commit.h"

#include <utility>

namespace tujit::cli {

namespace {

std::string& commit_slot() {
  static std::string commit = "unknown";
  return commit;
}

} // namespace

void set_build_commit(std::string commit) {
  if (!commit.empty()) commit_slot() = std::move(commit);
}

const std::string& build_commit() {
  return commit_slot();
}

} // namespace tujit::cli

#include "codegen/host_target.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/TargetParser/Host.h>

#include <set>
#include <sstream>

namespace tujit::codegen {

HostTarget host_target() {
  HostTarget t;
  t.llvm_version = LLVM_VERSION_STRING;
  t.triple = llvm::sys::getProcessTriple();
  t.cpu = llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  auto has = [&](const char* f) {
    auto it = features.find(f);
    return it != features.end() && it->second;
  };
  t.avx2 = has("avx2");
  t.avx512f = has("avx512f");
  t.fma = has("fma");
  return t;
}

HostDot host_dot(const std::string& features) {
  std::set<std::string> on;
  std::istringstream in(features);
  for (std::string f; std::getline(in, f, ',');)
    if (!f.empty() && f[0] == '+') on.insert(f.substr(1));
  HostDot h;
  h.avx2 = on.count("avx2") > 0;
  h.vnni = on.count("avxvnni") > 0 || (on.count("avx512vnni") > 0 && on.count("avx512vl") > 0);
  h.vnni512 = on.count("avx512vnni") > 0;
  h.avx512f = on.count("avx512f") > 0;
  return h;
}

} // namespace tujit::codegen

#include "codegen/host_target.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/TargetParser/Host.h>

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

} // namespace tujit::codegen

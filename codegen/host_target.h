// What the JIT will generate code for: the host as LLVM sees it. Reports (bench, version) state
// it so that numbers from different machines are never compared blind.
#pragma once

#include <string>

namespace tujit::codegen {

struct HostTarget {
  std::string llvm_version; // e.g. "19.1.7"
  std::string triple;       // e.g. "x86_64-pc-linux-gnu"
  std::string cpu;          // e.g. "znver3"
  bool avx2 = false;        // 8 f32 lanes in one register: one TRF lane group per vector
  bool avx512f = false;
  bool fma = false;
};

HostTarget host_target();

} // namespace tujit::codegen

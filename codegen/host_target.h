// What the JIT will generate code for: the host as LLVM sees it. Reports (bench, version) state
// it so that numbers from different machines are never compared blind.
#pragma once

#include "runtime/exec/operand_staging.h"

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

/// The integer dot-product instructions a host has (codegen/pair_madd.h, codegen/quad_madd.h).
struct HostDot {
  bool avx2 = false; // vpmaddwd on 256 bits
  bool vnni = false; // vpdpwssd and vpdpbusd on 256 bits (AVX-VNNI, or AVX512-VNNI with AVX512VL)
  bool vnni512 = false; // vpdpbusd on 512 bits (AVX512-VNNI)
  bool avx512f = false; // f32 products and sums on 16 lanes (contraction_emit.cpp, HALF PACKETS)
  bool operator==(const HostDot&) const = default;
};
/// From LLVM's feature string of the target ("+avx2,-avx512f,…").
HostDot host_dot(const std::string& features);
/// This process's host, as the JIT compiles for it: from CPUID (host_cpu.h cpuid_host_dot), equal
/// to host_dot of the features LLVM detects, which the compile path checks; computed once. The run
/// stages operands in the layout the code compiled for this host reads (operand_staging.h).
const HostDot& native_host_dot();
/// The byte dot products code compiled for `host` uses (codegen/quad_madd.h), which decide how
/// the run stages the TRF.
inline runtime::exec::ByteDot byte_dot(const HostDot& host) {
  return runtime::exec::ByteDot{host.vnni, host.vnni512};
}

} // namespace tujit::codegen

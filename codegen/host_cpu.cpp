#include "codegen/host_cpu.h"

#include <fmt/format.h>

#include <cpuid.h>

namespace tujit::codegen {
namespace {

struct Words {
  unsigned a = 0, b = 0, c = 0, d = 0;
};

/// Leaf `leaf`, subleaf `sub`, or zeros beyond the maximum leaf of its range.
Words cpuid(unsigned leaf, unsigned sub, unsigned max) {
  Words w;
  if (leaf <= max) __cpuid_count(leaf, sub, w.a, w.b, w.c, w.d);
  return w;
}

/// XCR0's low word: which register states the OS saves (zero without OSXSAVE).
unsigned xcr0(const Words& leaf1) {
  if (((leaf1.c >> 27) & 1) == 0) return 0;
  unsigned lo = 0, hi = 0;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return lo;
}

} // namespace

const std::string& host_cpu_key() {
  static const std::string key = [] {
    // Each CPUID traps to the hypervisor in a VM (~8 µs here): only the leaves LLVM reads.
    const Words l0 = cpuid(0, 0, 0xFFFFFFFFu);
    const unsigned max = l0.a;
    const Words l1 = cpuid(1, 0, max), l7 = cpuid(7, 0, max);
    const Words l7s1 = l7.a >= 1 ? cpuid(7, 1, max) : Words{};
    const Words ld1 = cpuid(0xD, 1, max), l14 = cpuid(0x14, 0, max), l19 = cpuid(0x19, 0, max),
                l24 = cpuid(0x24, 0, max);
    const Words e0 = cpuid(0x80000000u, 0, 0xFFFFFFFFu);
    const Words e1 = cpuid(0x80000001u, 0, e0.a), e8 = cpuid(0x80000008u, 0, e0.a);
    // Leaf 1 EBX holds the APIC ID and the logical processor count: not part of the key.
    return fmt::format("x86-64 cpuid 0:{:08x}.{:08x}.{:08x}.{:08x} 1:{:08x}.{:08x}.{:08x} "
                       "7.0:{:08x}.{:08x}.{:08x}.{:08x} 7.1:{:08x}.{:08x}.{:08x}.{:08x} "
                       "d.1:{:08x} 14:{:08x} 19:{:08x} 24:{:08x} 80000000:{:08x} "
                       "80000001:{:08x}.{:08x} 80000008:{:08x} xcr0:{:08x}",
                       l0.a, l0.b, l0.c, l0.d, l1.a, l1.c, l1.d, l7.a, l7.b, l7.c, l7.d, l7s1.a,
                       l7s1.b, l7s1.c, l7s1.d, ld1.a, l14.b, l19.b, l24.b, e0.a, e1.c, e1.d, e8.b,
                       xcr0(l1));
  }();
  return key;
}

HostDot cpuid_host_dot() {
  const unsigned max = cpuid(0, 0, 0xFFFFFFFFu).a;
  const Words l1 = cpuid(1, 0, max), l7 = cpuid(7, 0, max);
  const Words l7s1 = l7.a >= 1 ? cpuid(7, 1, max) : Words{};
  const unsigned xcr = xcr0(l1);
  const bool avx_save = ((l1.c >> 28) & 1) && (xcr & 0x6) == 0x6;
  const bool avx512_save = avx_save && (xcr & 0xE0) == 0xE0;
  const auto bit = [](unsigned w, int i) { return ((w >> i) & 1) != 0; };
  HostDot h;
  h.avx2 = bit(l7.b, 5) && avx_save;
  h.avx512f = bit(l7.b, 16) && avx512_save;
  const bool avx512vl = bit(l7.b, 31) && avx512_save;
  const bool avx512vnni = bit(l7.c, 11) && avx512_save;
  const bool avxvnni = bit(l7s1.a, 4) && avx_save;
  h.vnni = avxvnni || (avx512vnni && avx512vl);
  h.vnni512 = avx512vnni;
  return h;
}

const HostDot& native_host_dot() {
  static const HostDot host = cpuid_host_dot();
  return host;
}

} // namespace tujit::codegen

// The host as CPUID reports it (codegen/host_cpu.h), which a cached run uses instead of LLVM's host
// queries: its dot-product instructions are the ones LLVM's detected features give (the run stages
// operands for the code LLVM compiled), and the cache key's host part is stable and names XCR0.
#include "codegen/host_cpu.h"
#include "codegen/native_compiler.h"

#include <catch2/catch.hpp>

#include <thread>

using namespace tujit;

TEST_CASE("host cpu: CPUID's dot-product instructions are LLVM's", "[jit]") {
  auto target = codegen::native_target();
  REQUIRE(target.ok());
  const codegen::HostDot llvm = codegen::host_dot(target->features);
  const codegen::HostDot cpuid = codegen::cpuid_host_dot();
  CHECK(cpuid.avx2 == llvm.avx2);
  CHECK(cpuid.avx512f == llvm.avx512f);
  CHECK(cpuid.vnni == llvm.vnni);
  CHECK(cpuid.vnni512 == llvm.vnni512);
  CHECK(codegen::native_host_dot() == llvm);
}

TEST_CASE("host cpu: the cache key's host part is the same on every thread", "[jit]") {
  const std::string& key = codegen::host_cpu_key();
  CHECK(key.starts_with("x86-64 cpuid "));
  CHECK(key.find(" xcr0:") != std::string::npos);
  // Computed once; a thread elsewhere sees the same text.
  std::string other;
  std::thread([&] { other = codegen::host_cpu_key(); }).join();
  CHECK(other == key);
}

// The host's CPU as the processor itself reports it (CPUID and XGETBV, Intel SDM vol. 2A
// "CPUID"), read without LLVM: the object cache key's host part and the dot-product
// instructions the run stages operands for (host_target.h HostDot), so that a cached kernel runs
// without starting LLVM's host queries or its target machine.
#pragma once

#include "codegen/host_target.h"

#include <string>

namespace tujit::codegen {

/// Every CPUID word LLVM's host detection reads (the CPU name and the feature string the JIT
/// compiles for are functions of them) and XCR0, as text: equal text, equal code from one LLVM.
/// Per-core fields (the APIC ID, the logical processor count) are left out. Computed once.
const std::string& host_cpu_key();

/// The HostDot of this host from CPUID, with LLVM's rules for each feature (its instructions and
/// the OS saving the registers they use: XCR0 bits 1–2 for ymm, 5–7 for zmm).
HostDot cpuid_host_dot();

} // namespace tujit::codegen

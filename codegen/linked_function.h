// One piece of generated code placed in this process: the address of its function and the
// callback that frees it. Made by the object loader (object_loader.h) or LLVM's linker
// (native_compiler.h JitSession); the runners only call it.
#pragma once

#include <cstdint>
#include <functional>

namespace tujit::codegen {

/// One linked function: its address, and the callback that frees its code (call it once, when no
/// thread can still run the function).
struct LinkedFunction {
  std::uintptr_t address = 0;
  std::function<void()> release;
  template <typename Fn>
  Fn as() const {
    return reinterpret_cast<Fn>(address);
  }
};

} // namespace tujit::codegen

// For the JIT tests that build LLVM modules themselves (their sources see LLVM's headers,
// tests/CMakeLists.txt): a module optimised, compiled and linked exactly as the engines' code is.
#pragma once

#include "codegen/native_compiler.h"

#include <catch2/catch.hpp>
#include <llvm/IR/Module.h>

#include <memory>
#include <string>

namespace tujit::testing {

/// `module`'s function `symbol`, linked into `session` (created here; it must outlive the
/// function). REQUIREs every step to succeed.
inline codegen::LinkedFunction link_module(llvm::Module& module,
                                           const codegen::NativeTarget& target,
                                           const std::string& symbol,
                                           std::shared_ptr<codegen::JitSession>& session) {
  const std::string name = module.getName().str();
  REQUIRE(codegen::optimise_module(module, target, name));
  auto object = codegen::emit_native(module, target, codegen::NativeOutput::Object, name);
  REQUIRE(object);
  auto s = codegen::JitSession::create(target);
  REQUIRE(s);
  session = *s;
  auto linked = session->link(*object, symbol, name, name);
  REQUIRE(linked);
  return *linked;
}

} // namespace tujit::testing

// tujit's own loader of the objects the code generator compiles (docs/design.md §2.4): an ELF64
// x86-64 relocatable object, as LLVM writes it for the host, placed in fresh memory (code
// read + execute, constants read-only, data read + write), its relocations applied, its undefined
// symbols taken from a fixed table of the host functions generated code may call. A cache hit runs
// through this loader instead of LLVM's linker, so a run of a cached kernel never starts LLVM.
//
// What it accepts is exactly what it knows (System V x86-64 psABI §4.4, relocation types):
// R_X86_64_64, PC32, PLT32, 32, 32S, PC64, GOTPCREL, GOTPCRELX and REX_GOTPCRELX (a GOT slot of
// its own per symbol, never relaxed; a PLT32 call to a host function through a stub of its own).
// Anything else — another machine or class, a REL section, an unknown relocation or section
// type, TLS, common or unresolved symbols, a value that does not fit its field, sizes or offsets
// outside the file — is refused with the reason, never guessed: the caller treats a refusal as a
// cache miss and compiles the kernel again.
#pragma once

#include "codegen/linked_function.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tujit::codegen {

/// A host function (or datum) generated code may name, and its address in this process.
struct ExternalSymbol {
  std::string_view name;
  std::uintptr_t address = 0;
};

/// The table objects compiled by tujit resolve against: memset, memcpy, memmove (LLVM lowers its
/// memory intrinsics to them) and tujit_ve_transcendental (codegen/vector_apply.h).
std::span<const ExternalSymbol> runtime_symbols();

/// A placed object: its memory (unmapped when the image dies) and its defined global symbols.
class LoadedImage {
public:
  LoadedImage(void* base, std::size_t size,
              std::vector<std::pair<std::string, std::uintptr_t>> globals);
  ~LoadedImage();
  LoadedImage(const LoadedImage&) = delete;
  LoadedImage& operator=(const LoadedImage&) = delete;

  /// The address of the defined global symbol `name`, or 0.
  std::uintptr_t symbol(std::string_view name) const;

private:
  void* base_;
  std::size_t size_;
  std::vector<std::pair<std::string, std::uintptr_t>> globals_;
};

/// The loaded image, or (image null) why the object was refused.
struct LoadOutcome {
  std::shared_ptr<LoadedImage> image;
  std::string refusal;
};

/// Places `object` with its undefined symbols resolved from `externals`.
LoadOutcome load_object(std::string_view object, std::span<const ExternalSymbol> externals);

/// The function `symbol` of `image` as a LinkedFunction that keeps the image alive until released;
/// nullopt when the image defines no such symbol.
std::optional<LinkedFunction> loaded_function(std::shared_ptr<LoadedImage> image,
                                              std::string_view symbol);

} // namespace tujit::codegen

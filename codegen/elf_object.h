// The checked reading of an ELF64 little-endian x86-64 relocatable object (System V gABI ch. 4,
// x86-64 psABI §4.4) for the object loader (object_loader.h): its sections, symbols and RELA
// relocations, every size, offset and index checked against the file before it is used. What the
// loader cannot place is refused here with the reason.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::codegen::elf {

/// Empty when accepted; else why not.
using Refusal = std::string;

inline constexpr std::uint64_t kShfWrite = 0x1, kShfAlloc = 0x2, kShfExecinstr = 0x4,
                               kShfTls = 0x400;
inline constexpr std::uint16_t kShnUndef = 0, kShnAbs = 0xFFF1;

// Relocation types of the x86-64 psABI (table 4.9).
inline constexpr std::uint32_t kRNone = 0, kR64 = 1, kRPc32 = 2, kRPlt32 = 4, kRGotpcrel = 9,
                               kR32 = 10, kR32S = 11, kRPc64 = 24, kRGotpcrelx = 41,
                               kRRexGotpcrelx = 42;
/// The bytes a relocation of `type` writes; 0 for a type the loader does not know.
int field_bytes(std::uint32_t type);
inline bool uses_got(std::uint32_t type) {
  return type == kRGotpcrel || type == kRGotpcrelx || type == kRRexGotpcrelx;
}

struct Section {
  std::string_view name;
  std::uint32_t type = 0;
  std::uint64_t flags = 0, file_offset = 0, size = 0, align = 0;
  bool loaded = false; // SHF_ALLOC: placed in the image
  bool nobits = false; // SHT_NOBITS: zero-filled
};

struct Symbol {
  std::string_view name;
  std::uint16_t shndx = 0;
  std::uint64_t value = 0;
  bool global = false; // STB_GLOBAL or STB_WEAK
};

struct Relocation {
  std::uint64_t offset = 0;
  std::uint32_t type = 0, symbol = 0;
  std::int64_t addend = 0;
};

/// The relocations of one section.
struct RelocationSection {
  std::size_t target = 0;
  std::vector<Relocation> entries;
};

struct Object {
  std::vector<Section> sections;
  std::vector<Symbol> symbols;
  std::vector<RelocationSection> relocations;
};

/// Reads `file` into `out` (views into `file`, which must outlive it).
Refusal parse(std::string_view file, Object& out);

} // namespace tujit::codegen::elf

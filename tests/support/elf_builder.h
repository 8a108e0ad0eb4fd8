// Hand-made ELF64 x86-64 relocatable objects for the object loader's tests
// (codegen/object_loader.h): sections with given bytes, symbols and RELA relocations, written in
// the layout of the System V gABI (ch. 4) independently of the loader's reader.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tujit::testing {

struct ElfSection {
  std::string name;
  std::uint32_t type = 1;    // SHT_PROGBITS
  std::uint64_t flags = 0x2; // SHF_ALLOC
  std::string bytes;         // the contents (for SHT_NOBITS: its size in zeros, not written)
  std::uint64_t align = 16;
};

struct ElfSymbol {
  std::string name;
  std::uint16_t section = 0; // 1-based index into the builder's sections, 0 undefined, 0xFFF1 abs
  std::uint64_t value = 0;
  bool global = true;
  std::uint8_t type = 0; // STT_NOTYPE; 2 = STT_FUNC, 3 = STT_SECTION
};

struct ElfRelocation {
  std::size_t section = 1; // 1-based index of the section it patches
  std::uint64_t offset = 0;
  std::uint32_t type = 0;
  std::uint32_t symbol = 0; // 1-based index into the builder's symbols
  std::int64_t addend = 0;
};

struct ElfObject {
  std::vector<ElfSection> sections;
  std::vector<ElfSymbol> symbols; // locals first
  std::vector<ElfRelocation> relocations;
  std::uint16_t machine = 62;                // EM_X86_64
  std::uint32_t relocation_section_type = 4; // SHT_RELA
};

/// The object's bytes: header, section contents, .rela.* sections, .symtab, .strtab, .shstrtab,
/// section headers.
std::string write_elf(const ElfObject& object);

} // namespace tujit::testing

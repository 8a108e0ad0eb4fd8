#include "codegen/elf_object.h"

#include <fmt/format.h>

#include <cstring>

#include <elf.h>

namespace tujit::codegen::elf {

int field_bytes(std::uint32_t type) {
  switch (type) {
  case kRNone:
    return 0;
  case kR64:
  case kRPc64:
    return 8;
  case kRPc32:
  case kRPlt32:
  case kR32:
  case kR32S:
  case kRGotpcrel:
  case kRGotpcrelx:
  case kRRexGotpcrelx:
    return 4;
  default:
    return -1;
  }
}

namespace {

/// `count` records of T at `offset`, when they lie inside the file (the host is little-endian
/// x86-64, as the objects are: the records are read as they are stored).
template <typename T>
bool read_records(std::string_view file, std::uint64_t offset, std::uint64_t count,
                  std::vector<T>& out) {
  if (offset > file.size() || count > (file.size() - offset) / sizeof(T)) return false;
  out.resize(count);
  if (count != 0) std::memcpy(out.data(), file.data() + offset, count * sizeof(T));
  return true;
}

/// The NUL-terminated string at `at` of the string table `table`.
bool string_at(std::string_view file, const Elf64_Shdr& table, std::uint64_t at,
               std::string_view& out) {
  if (table.sh_type != SHT_STRTAB || table.sh_offset > file.size() ||
      table.sh_size > file.size() - table.sh_offset || at >= table.sh_size)
    return false;
  std::string_view strings = file.substr(table.sh_offset, table.sh_size);
  const auto end = strings.find('\0', at);
  if (end == std::string_view::npos) return false;
  out = strings.substr(at, end - at);
  return true;
}

Refusal check_header(std::string_view file, Elf64_Ehdr& h) {
  if (file.size() < sizeof h) return "the object is shorter than an ELF header";
  std::memcpy(&h, file.data(), sizeof h);
  if (std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0) return "not an ELF file";
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB ||
      h.e_ident[EI_VERSION] != EV_CURRENT)
    return "not a little-endian ELF64 file";
  if (h.e_type != ET_REL || h.e_machine != EM_X86_64) return "not an x86-64 relocatable object";
  if (h.e_shentsize != sizeof(Elf64_Shdr) || h.e_shnum == 0 || h.e_shstrndx >= h.e_shnum)
    return "the section header table is malformed";
  return {};
}

/// A placed section's type must be one whose bytes the loader knows how to place.
Refusal check_section(const Section& s, std::uint64_t file_size) {
  if (s.flags & kShfTls) return fmt::format("section {} is thread-local", s.name);
  if (!s.loaded) return {};
  if (s.type == SHT_REL) return fmt::format("section {} holds REL relocations", s.name);
  if (s.type != SHT_PROGBITS && s.type != SHT_NOBITS && s.type != SHT_X86_64_UNWIND &&
      s.type != SHT_NOTE)
    return fmt::format("section {} has type {:#x}", s.name, s.type);
  if (!s.nobits && (s.file_offset > file_size || s.size > file_size - s.file_offset))
    return fmt::format("section {} lies outside the file", s.name);
  return {};
}

Refusal read_sections(std::string_view file, const Elf64_Ehdr& h, std::vector<Elf64_Shdr>& raw,
                      Object& out) {
  if (!read_records(file, h.e_shoff, h.e_shnum, raw))
    return "the section headers lie outside the file";
  out.sections.resize(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    Section& s = out.sections[i];
    const Elf64_Shdr& r = raw[i];
    if (i != 0 && !string_at(file, raw[h.e_shstrndx], r.sh_name, s.name))
      return fmt::format("section {} has no name", i);
    s.type = r.sh_type;
    s.flags = r.sh_flags;
    s.file_offset = r.sh_offset;
    s.size = r.sh_size;
    s.align = r.sh_addralign;
    s.loaded = i != 0 && (r.sh_flags & kShfAlloc) != 0;
    s.nobits = r.sh_type == SHT_NOBITS;
    if (r.sh_type == SHT_REL) return fmt::format("section {} holds REL relocations", s.name);
    if (auto why = check_section(s, file.size()); !why.empty()) return why;
  }
  return {};
}

Refusal read_symbols(std::string_view file, const std::vector<Elf64_Shdr>& raw, Object& out) {
  const Elf64_Shdr* symtab = nullptr;
  for (const auto& r : raw) {
    if (r.sh_type == SHT_DYNSYM) return "the object has a dynamic symbol table";
    if (r.sh_type != SHT_SYMTAB) continue;
    if (symtab != nullptr) return "the object has two symbol tables";
    symtab = &r;
  }
  if (symtab == nullptr) return "the object has no symbol table";
  if (symtab->sh_entsize != sizeof(Elf64_Sym) || symtab->sh_link >= raw.size())
    return "the symbol table is malformed";
  std::vector<Elf64_Sym> syms;
  if (!read_records(file, symtab->sh_offset, symtab->sh_size / sizeof(Elf64_Sym), syms))
    return "the symbol table lies outside the file";
  out.symbols.resize(syms.size());
  for (std::size_t i = 0; i < syms.size(); ++i) {
    const Elf64_Sym& e = syms[i];
    Symbol& s = out.symbols[i];
    if (!string_at(file, raw[symtab->sh_link], e.st_name, s.name))
      return fmt::format("symbol {} has no name", i);
    const unsigned type = ELF64_ST_TYPE(e.st_info), bind = ELF64_ST_BIND(e.st_info);
    if (type == STT_TLS || type == STT_GNU_IFUNC || type == STT_COMMON)
      return fmt::format("symbol `{}` has type {}", s.name, type);
    if (e.st_shndx == SHN_COMMON || e.st_shndx == SHN_XINDEX)
      return fmt::format("symbol `{}` is in section {:#x}", s.name, e.st_shndx);
    s.shndx = e.st_shndx;
    s.value = e.st_value;
    s.global = bind == STB_GLOBAL || bind == STB_WEAK;
  }
  return {};
}

Refusal read_relocations(std::string_view file, const std::vector<Elf64_Shdr>& raw, Object& out) {
  for (const auto& r : raw) {
    if (r.sh_type != SHT_RELA) continue;
    if (r.sh_entsize != sizeof(Elf64_Rela) || r.sh_info >= raw.size())
      return "a relocation section is malformed";
    RelocationSection rs;
    rs.target = r.sh_info;
    const Section& target = out.sections[rs.target];
    std::vector<Elf64_Rela> entries;
    if (!read_records(file, r.sh_offset, r.sh_size / sizeof(Elf64_Rela), entries))
      return "a relocation section lies outside the file";
    if (!target.loaded) continue; // relocations of what is not placed (debug info)
    for (const auto& e : entries) {
      Relocation rel{e.r_offset, static_cast<std::uint32_t>(ELF64_R_TYPE(e.r_info)),
                     static_cast<std::uint32_t>(ELF64_R_SYM(e.r_info)), e.r_addend};
      const int width = field_bytes(rel.type);
      if (width < 0) return fmt::format("relocation type {} is not supported", rel.type);
      if (rel.offset > target.size || static_cast<std::uint64_t>(width) > target.size - rel.offset)
        return fmt::format("a relocation lies outside section {}", target.name);
      if (rel.type != kRNone && (rel.symbol == 0 || rel.symbol >= out.symbols.size()))
        return fmt::format("a relocation names symbol {}", rel.symbol);
      rs.entries.push_back(rel);
    }
    out.relocations.push_back(std::move(rs));
  }
  return {};
}

} // namespace

Refusal parse(std::string_view file, Object& out) {
  Elf64_Ehdr h;
  if (auto why = check_header(file, h); !why.empty()) return why;
  std::vector<Elf64_Shdr> raw;
  if (auto why = read_sections(file, h, raw, out); !why.empty()) return why;
  if (auto why = read_symbols(file, raw, out); !why.empty()) return why;
  return read_relocations(file, raw, out);
}

} // namespace tujit::codegen::elf

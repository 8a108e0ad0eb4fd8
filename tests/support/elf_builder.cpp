#include "tests/support/elf_builder.h"

#include <cstring>
#include <map>

#include <elf.h>

namespace tujit::testing {
namespace {

template <typename T>
void append(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

std::uint32_t add_string(std::string& table, const std::string& s) {
  const auto at = static_cast<std::uint32_t>(table.size());
  table += s;
  table += '\0';
  return at;
}

void pad_to(std::string& out, std::size_t align) {
  while (out.size() % align != 0) out += '\0';
}

} // namespace

std::string write_elf(const ElfObject& o) {
  std::string file(sizeof(Elf64_Ehdr), '\0');
  std::string shstr(1, '\0'), str(1, '\0');
  std::vector<Elf64_Shdr> headers(1, Elf64_Shdr{});
  for (const auto& s : o.sections) {
    Elf64_Shdr h{};
    h.sh_name = add_string(shstr, s.name);
    h.sh_type = s.type;
    h.sh_flags = s.flags;
    h.sh_addralign = s.align;
    h.sh_size = s.bytes.size();
    pad_to(file, 16);
    h.sh_offset = file.size();
    if (s.type != SHT_NOBITS) file += s.bytes;
    headers.push_back(h);
  }
  // Symbols: the null symbol, then the builder's.
  const std::size_t symtab_index = headers.size() + [&] {
    std::map<std::size_t, int> with;
    for (const auto& r : o.relocations) with[r.section] = 1;
    return with.size();
  }();
  std::map<std::size_t, std::string> relas;
  for (const auto& r : o.relocations) {
    Elf64_Rela e{};
    e.r_offset = r.offset;
    e.r_info = ELF64_R_INFO(r.symbol, r.type);
    e.r_addend = r.addend;
    if (o.relocation_section_type == SHT_REL) {
      Elf64_Rel rel{e.r_offset, e.r_info};
      append(relas[r.section], rel);
    } else {
      append(relas[r.section], e);
    }
  }
  for (const auto& [target, bytes] : relas) {
    Elf64_Shdr h{};
    h.sh_name = add_string(shstr, (o.relocation_section_type == SHT_REL ? ".rel" : ".rela") +
                                      o.sections[target - 1].name);
    h.sh_type = o.relocation_section_type;
    h.sh_flags = SHF_INFO_LINK;
    h.sh_link = static_cast<std::uint32_t>(symtab_index);
    h.sh_info = static_cast<std::uint32_t>(target);
    h.sh_entsize = o.relocation_section_type == SHT_REL ? sizeof(Elf64_Rel) : sizeof(Elf64_Rela);
    h.sh_addralign = 8;
    pad_to(file, 8);
    h.sh_offset = file.size();
    h.sh_size = bytes.size();
    file += bytes;
    headers.push_back(h);
  }
  std::string symbols(sizeof(Elf64_Sym), '\0');
  std::uint32_t first_global = 1;
  for (std::size_t i = 0; i < o.symbols.size(); ++i) {
    const auto& s = o.symbols[i];
    Elf64_Sym e{};
    e.st_name = add_string(str, s.name);
    e.st_info =
        static_cast<unsigned char>(ELF64_ST_INFO(s.global ? STB_GLOBAL : STB_LOCAL, s.type));
    e.st_shndx = s.section;
    e.st_value = s.value;
    append(symbols, e);
    if (!s.global) first_global = static_cast<std::uint32_t>(i + 2);
  }
  Elf64_Shdr symtab{};
  symtab.sh_name = add_string(shstr, ".symtab");
  symtab.sh_type = SHT_SYMTAB;
  symtab.sh_link = static_cast<std::uint32_t>(symtab_index + 1);
  symtab.sh_info = first_global;
  symtab.sh_entsize = sizeof(Elf64_Sym);
  symtab.sh_addralign = 8;
  pad_to(file, 8);
  symtab.sh_offset = file.size();
  symtab.sh_size = symbols.size();
  file += symbols;
  headers.push_back(symtab);
  Elf64_Shdr strtab{};
  strtab.sh_name = add_string(shstr, ".strtab");
  strtab.sh_type = SHT_STRTAB;
  strtab.sh_offset = file.size();
  strtab.sh_size = str.size();
  strtab.sh_addralign = 1;
  file += str;
  headers.push_back(strtab);
  Elf64_Shdr shstrtab{};
  shstrtab.sh_name = add_string(shstr, ".shstrtab");
  shstrtab.sh_type = SHT_STRTAB;
  shstrtab.sh_offset = file.size();
  shstrtab.sh_size = shstr.size();
  shstrtab.sh_addralign = 1;
  file += shstr;
  headers.push_back(shstrtab);

  pad_to(file, 8);
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_REL;
  eh.e_machine = o.machine;
  eh.e_version = EV_CURRENT;
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = static_cast<std::uint16_t>(headers.size());
  eh.e_shstrndx = static_cast<std::uint16_t>(headers.size() - 1);
  eh.e_shoff = file.size();
  for (const auto& h : headers) append(file, h);
  std::memcpy(file.data(), &eh, sizeof eh);
  return file;
}

} // namespace tujit::testing

#include "codegen/build_identity.h"

#include "ir/support/input_file.h"
#include "runtime/tensor/sha256.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tujit::codegen {

namespace {

struct Search {
  std::uintptr_t address = 0; // an address inside the binary we look for
  std::string build_id;       // hex, when found
  std::string file;           // the binary's path ("" = the main program)
  bool found = false;
};

// The NT_GNU_BUILD_ID note of one PT_NOTE segment, hex; empty when it holds none.
std::string build_id_note(const char* p, std::size_t size) {
  const auto align4 = [](std::size_t n) { return (n + 3) & ~std::size_t{3}; };
  for (std::size_t at = 0; at + sizeof(ElfW(Nhdr)) <= size;) {
    ElfW(Nhdr) h;
    std::memcpy(&h, p + at, sizeof h);
    const std::size_t name_at = at + sizeof h;
    const std::size_t desc_at = name_at + align4(h.n_namesz);
    const std::size_t next = desc_at + align4(h.n_descsz);
    if (next > size) break;
    if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && std::memcmp(p + name_at, "GNU", 4) == 0) {
      std::string hex;
      for (std::size_t i = 0; i < h.n_descsz; ++i)
        hex += fmt::format("{:02x}", static_cast<unsigned char>(p[desc_at + i]));
      return hex;
    }
    at = next;
  }
  return {};
}

int visit(dl_phdr_info* info, std::size_t, void* data) {
  auto* s = static_cast<Search*>(data);
  bool holds = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && s->address >= start && s->address < start + ph.p_memsz)
      holds = true;
  }
  if (!holds) return 0;
  s->found = true;
  s->file = info->dlpi_name ? info->dlpi_name : "";
  for (int i = 0; i < info->dlpi_phnum && s->build_id.empty(); ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_NOTE)
      s->build_id =
          build_id_note(reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr), ph.p_memsz);
  }
  return 1;
}

std::string file_digest(const std::string& path) {
  auto f = InputFile::open(path);
  if (!f) return {};
  runtime::Sha256 h;
  std::vector<std::uint8_t> buf(std::size_t{1} << 20);
  for (std::uint64_t left = f->size(); left > 0;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, buf.size()));
    if (f->read(buf.data(), n)) return {};
    h.update(std::span(buf.data(), n));
    left -= n;
  }
  std::string hex;
  for (auto b : h.finish()) hex += fmt::format("{:02x}", b);
  return hex;
}

std::string compute() {
  Search s;
  s.address = reinterpret_cast<std::uintptr_t>(&build_identity);
  dl_iterate_phdr(&visit, &s);
  if (!s.build_id.empty()) return s.build_id;
  if (!s.found) return {};
  return file_digest(s.file.empty() ? "/proc/self/exe" : s.file);
}

} // namespace

std::string file_build_id(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat st {};
  const std::uint64_t size = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : 0;
  // Reads of whole records inside the file only; a note segment is a few dozen bytes.
  const auto read = [&](std::uint64_t at, std::uint64_t n, std::string& out) {
    if (at > size || n > size - at || n > (std::uint64_t{1} << 20)) return false;
    out.assign(static_cast<std::size_t>(n), '\0');
    return ::pread(fd, out.data(), out.size(), static_cast<off_t>(at)) ==
           static_cast<ssize_t>(out.size());
  };
  std::string id, header, phdrs, note;
  ElfW(Ehdr) eh;
  if (read(0, sizeof eh, header)) {
    std::memcpy(&eh, header.data(), sizeof eh);
    if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
        eh.e_phentsize == sizeof(ElfW(Phdr)) &&
        read(eh.e_phoff, std::uint64_t{eh.e_phnum} * sizeof(ElfW(Phdr)), phdrs))
      for (std::size_t i = 0; i < eh.e_phnum && id.empty(); ++i) {
        ElfW(Phdr) ph;
        std::memcpy(&ph, phdrs.data() + i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_NOTE && read(ph.p_offset, ph.p_filesz, note))
          id = build_id_note(note.data(), note.size());
      }
  }
  ::close(fd);
  return id;
}

const std::string& build_identity() {
  static const std::string id = compute();
  return id;
}

} // namespace tujit::codegen

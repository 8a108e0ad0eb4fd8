#include "codegen/object_loader.h"

#include "codegen/elf_object.h"
#include "codegen/vector_apply.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>

#include <sys/mman.h>
#include <unistd.h>

namespace tujit::codegen {

std::span<const ExternalSymbol> runtime_symbols() {
  static const ExternalSymbol table[] = {
      {"memset", reinterpret_cast<std::uintptr_t>(&std::memset)},
      {"memcpy", reinterpret_cast<std::uintptr_t>(&std::memcpy)},
      {"memmove", reinterpret_cast<std::uintptr_t>(&std::memmove)},
      {kTranscendentalSymbol, reinterpret_cast<std::uintptr_t>(&tujit_ve_transcendental)},
  };
  return table;
}

LoadedImage::LoadedImage(void* base, std::size_t size,
                         std::vector<std::pair<std::string, std::uintptr_t>> globals)
    : base_(base), size_(size), globals_(std::move(globals)) {}

LoadedImage::~LoadedImage() {
  if (base_ != nullptr) ::munmap(base_, size_);
}

std::uintptr_t LoadedImage::symbol(std::string_view name) const {
  for (const auto& [n, address] : globals_)
    if (n == name) return address;
  return 0;
}

namespace {

using elf::Refusal;

/// The three regions of an image, each of whole pages so that each gets its own protection: code
/// (with the PLT stubs), constants (with the GOT), data.
enum Region { kCode, kConst, kData, kRegions };

struct Placement {
  std::size_t region_offset[kRegions] = {};
  std::size_t region_size[kRegions] = {};
  std::vector<std::size_t> section_offset; // within the image; npos when not loaded
  std::size_t got_offset = 0, stub_offset = 0, total = 0;
};

constexpr std::size_t kNotLoaded = static_cast<std::size_t>(-1);
constexpr std::size_t kStubBytes = 8; // jmp *slot(%rip), padded
// Relative fields are 32-bit: an image must fit well inside ±2 GiB.
constexpr std::size_t kMaxImageBytes = std::size_t{1} << 30;

Region region_of(const elf::Section& s) {
  if (s.flags & elf::kShfExecinstr) return kCode;
  if (s.flags & elf::kShfWrite) return kData;
  return kConst;
}

std::size_t align_up(std::size_t v, std::size_t a) {
  return (v + a - 1) / a * a;
}

Refusal place(const elf::Object& obj, std::size_t got_slots, std::size_t stubs, Placement& p) {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::size_t cursor[kRegions] = {};
  p.section_offset.assign(obj.sections.size(), kNotLoaded);
  std::vector<std::size_t> local(obj.sections.size(), 0);
  for (std::size_t i = 0; i < obj.sections.size(); ++i) {
    const auto& s = obj.sections[i];
    if (!s.loaded) continue;
    const std::size_t align = std::max<std::uint64_t>(s.align, 1);
    if ((align & (align - 1)) != 0 || align > page)
      return fmt::format("section {} has alignment {}", s.name, s.align);
    Region r = region_of(s);
    local[i] = align_up(cursor[r], align);
    cursor[r] = local[i] + s.size;
    if (cursor[r] > kMaxImageBytes) return "the object is too large to place";
  }
  p.stub_offset = align_up(cursor[kCode], 16);
  cursor[kCode] = p.stub_offset + stubs * kStubBytes;
  p.got_offset = align_up(cursor[kConst], 8);
  cursor[kConst] = p.got_offset + got_slots * 8;
  std::size_t at = 0;
  for (int r = 0; r < kRegions; ++r) {
    p.region_offset[r] = at;
    p.region_size[r] = align_up(cursor[r], page);
    at += p.region_size[r];
  }
  p.total = at;
  for (std::size_t i = 0; i < obj.sections.size(); ++i)
    if (obj.sections[i].loaded)
      p.section_offset[i] = p.region_offset[region_of(obj.sections[i])] + local[i];
  p.stub_offset += p.region_offset[kCode];
  p.got_offset += p.region_offset[kConst];
  return {};
}

/// Every symbol's address (S of the psABI), and for each symbol a relocation reaches through the
/// GOT or a PLT stub, the slot and stub of its own.
struct SymbolTable {
  std::vector<std::uintptr_t> address;
  std::vector<bool> external;
  std::map<std::uint32_t, std::size_t> got_slot, stub;
};

void resolve(const elf::Object& obj, std::span<const ExternalSymbol> externals, std::uintptr_t base,
             const Placement& p, SymbolTable& t) {
  t.address.assign(obj.symbols.size(), 0);
  t.external.assign(obj.symbols.size(), false);
  for (std::size_t i = 1; i < obj.symbols.size(); ++i) {
    const auto& sym = obj.symbols[i];
    if (sym.shndx == elf::kShnUndef) {
      auto it = std::find_if(externals.begin(), externals.end(),
                             [&](const ExternalSymbol& e) { return e.name == sym.name; });
      t.external[i] = true;
      if (it != externals.end()) t.address[i] = it->address;
    } else if (sym.shndx == elf::kShnAbs) {
      t.address[i] = static_cast<std::uintptr_t>(sym.value);
    } else if (sym.shndx >= obj.sections.size() || p.section_offset[sym.shndx] == kNotLoaded) {
      // A symbol of a section that is not placed (debug info, COMMON, XINDEX) is never named by
      // a relocation of a placed section; its address stays 0 and is checked when used.
      continue;
    } else {
      t.address[i] = base + p.section_offset[sym.shndx] + static_cast<std::uintptr_t>(sym.value);
    }
  }
}

/// An undefined symbol outside the table is refused, whether or not a relocation names it: the
/// object was compiled against something this loader does not know.
Refusal unresolved(const elf::Object& obj, const SymbolTable& t) {
  for (std::size_t i = 1; i < obj.symbols.size(); ++i)
    if (t.external[i] && t.address[i] == 0)
      return fmt::format("undefined symbol `{}`", obj.symbols[i].name);
  return {};
}

/// Which symbols need a GOT slot or a stub, from the relocations of placed sections.
void count_indirections(const elf::Object& obj, SymbolTable& t, std::size_t& slots,
                        std::size_t& stubs) {
  for (const auto& rs : obj.relocations) {
    if (!obj.sections[rs.target].loaded) continue;
    for (const auto& r : rs.entries) {
      if (elf::uses_got(r.type) && !t.got_slot.count(r.symbol)) t.got_slot[r.symbol] = slots++;
      if (r.type == elf::kRPlt32 && r.symbol < obj.symbols.size() &&
          obj.symbols[r.symbol].shndx == elf::kShnUndef && !t.stub.count(r.symbol)) {
        t.stub[r.symbol] = stubs++;
        if (!t.got_slot.count(r.symbol)) t.got_slot[r.symbol] = slots++;
      }
    }
  }
}

template <typename T>
void store(std::uint8_t* at, T v) {
  std::memcpy(at, &v, sizeof v);
}

Refusal store_checked32(std::uint8_t* at, std::int64_t v, bool is_signed, const char* what) {
  const bool fits = is_signed ? (v >= INT32_MIN && v <= INT32_MAX) : (v >= 0 && v <= UINT32_MAX);
  if (!fits) return fmt::format("a {} relocation does not fit its 32-bit field", what);
  store<std::uint32_t>(at, static_cast<std::uint32_t>(v));
  return {};
}

Refusal apply_one(const elf::Relocation& r, std::uint8_t* place, std::uintptr_t p_address,
                  std::uintptr_t s, std::uintptr_t slot, std::uintptr_t stub) {
  const auto a = r.addend;
  const auto S = static_cast<std::int64_t>(s), P = static_cast<std::int64_t>(p_address);
  switch (r.type) {
  case elf::kR64:
    store<std::uint64_t>(place, static_cast<std::uint64_t>(S + a));
    return {};
  case elf::kRPc64:
    store<std::uint64_t>(place, static_cast<std::uint64_t>(S + a - P));
    return {};
  case elf::kRPc32:
    return store_checked32(place, S + a - P, true, "PC32");
  case elf::kRPlt32:
    return store_checked32(place, (stub != 0 ? static_cast<std::int64_t>(stub) : S) + a - P, true,
                           "PLT32");
  case elf::kR32:
    return store_checked32(place, S + a, false, "32");
  case elf::kR32S:
    return store_checked32(place, S + a, true, "32S");
  case elf::kRGotpcrel:
  case elf::kRGotpcrelx:
  case elf::kRRexGotpcrelx:
    return store_checked32(place, static_cast<std::int64_t>(slot) + a - P, true, "GOTPCREL");
  default:
    return fmt::format("relocation type {} is not supported", r.type);
  }
}

Refusal relocate(const elf::Object& obj, std::uint8_t* image, const Placement& p,
                 const SymbolTable& t) {
  const auto base = reinterpret_cast<std::uintptr_t>(image);
  for (const auto& [symbol, slot] : t.got_slot)
    store<std::uint64_t>(image + p.got_offset + 8 * slot, t.address[symbol]);
  for (const auto& [symbol, stub] : t.stub) {
    // jmp *disp32(%rip) to the symbol's slot, padded with int3.
    std::uint8_t* at = image + p.stub_offset + kStubBytes * stub;
    const std::size_t next = p.stub_offset + kStubBytes * stub + 6;
    const auto disp = static_cast<std::int64_t>(p.got_offset + 8 * t.got_slot.at(symbol)) -
                      static_cast<std::int64_t>(next);
    at[0] = 0xFF;
    at[1] = 0x25;
    store<std::int32_t>(at + 2, static_cast<std::int32_t>(disp));
    at[6] = at[7] = 0xCC;
  }
  for (const auto& rs : obj.relocations) {
    if (!obj.sections[rs.target].loaded) continue;
    for (const auto& r : rs.entries) {
      if (r.type == elf::kRNone) continue;
      const auto& sym = obj.symbols[r.symbol];
      if (sym.shndx != elf::kShnUndef && sym.shndx != elf::kShnAbs &&
          (sym.shndx >= obj.sections.size() || p.section_offset[sym.shndx] == kNotLoaded))
        return fmt::format("a relocation names `{}`, which is not placed", sym.name);
      const std::size_t at = p.section_offset[rs.target] + r.offset;
      auto slot = t.got_slot.find(r.symbol);
      auto stub = t.stub.find(r.symbol);
      if (auto why =
              apply_one(r, image + at, base + at, t.address[r.symbol],
                        slot == t.got_slot.end() ? 0 : base + p.got_offset + 8 * slot->second,
                        r.type == elf::kRPlt32 && stub != t.stub.end()
                            ? base + p.stub_offset + kStubBytes * stub->second
                            : 0);
          !why.empty())
        return why;
    }
  }
  return {};
}

std::vector<std::pair<std::string, std::uintptr_t>> globals_of(const elf::Object& obj,
                                                               const SymbolTable& t) {
  std::vector<std::pair<std::string, std::uintptr_t>> out;
  for (std::size_t i = 1; i < obj.symbols.size(); ++i) {
    const auto& sym = obj.symbols[i];
    if (sym.global && !t.external[i] && t.address[i] != 0 && !sym.name.empty())
      out.emplace_back(std::string(sym.name), t.address[i]);
  }
  return out;
}

Refusal protect(std::uint8_t* image, const Placement& p) {
  const int prot[kRegions] = {PROT_READ | PROT_EXEC, PROT_READ, PROT_READ | PROT_WRITE};
  for (int r = 0; r < kRegions; ++r)
    if (p.region_size[r] != 0 &&
        ::mprotect(image + p.region_offset[r], p.region_size[r], prot[r]) != 0)
      return "the image's protection cannot be set";
  return {};
}

} // namespace

LoadOutcome load_object(std::string_view object, std::span<const ExternalSymbol> externals) {
  elf::Object obj;
  if (auto why = elf::parse(object, obj); !why.empty()) return {nullptr, why};
  SymbolTable table;
  std::size_t slots = 0, stubs = 0;
  count_indirections(obj, table, slots, stubs);
  Placement p;
  if (auto why = place(obj, slots, stubs, p); !why.empty()) return {nullptr, why};
  const std::size_t size = std::max<std::size_t>(p.total, 1);
  void* mem = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return {nullptr, "no memory for the image"};
  struct Unmap {
    void* mem;
    std::size_t size;
    ~Unmap() {
      if (mem != nullptr) ::munmap(mem, size);
    }
  } unmap{mem, size};
  auto* bytes = static_cast<std::uint8_t*>(mem);
  for (std::size_t i = 0; i < obj.sections.size(); ++i) {
    const auto& s = obj.sections[i];
    if (s.loaded && !s.nobits)
      std::memcpy(bytes + p.section_offset[i], object.data() + s.file_offset, s.size);
  }
  resolve(obj, externals, reinterpret_cast<std::uintptr_t>(mem), p, table);
  if (auto why = unresolved(obj, table); !why.empty()) return {nullptr, why};
  if (auto why = relocate(obj, bytes, p, table); !why.empty()) return {nullptr, why};
  if (auto why = protect(bytes, p); !why.empty()) return {nullptr, why};
  unmap.mem = nullptr; // the image owns the mapping now
  return {std::make_shared<LoadedImage>(mem, size, globals_of(obj, table)), {}};
}

std::optional<LinkedFunction> loaded_function(std::shared_ptr<LoadedImage> image,
                                              std::string_view symbol) {
  const std::uintptr_t address = image ? image->symbol(symbol) : 0;
  if (address == 0) return std::nullopt;
  LinkedFunction f;
  f.address = address;
  f.release = [image = std::move(image)]() mutable { image.reset(); };
  return f;
}

} // namespace tujit::codegen

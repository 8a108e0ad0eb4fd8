// tujit's object loader (codegen/object_loader.h) on hand-made objects (tests/support/
// elf_builder.h): every relocation type it accepts patches the value the x86-64 psABI §4.4 defines
// (read back from the placed data, or by running hand-assembled code), and what it does not know —
// another machine, REL, an unknown type, an unresolved symbol, a value too wide for its field, any
// truncation, any single flipped byte — is refused or placed without a crash, never guessed.
#include "codegen/object_loader.h"
#include "tests/support/elf_builder.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace tujit;
using testing::ElfObject;
using testing::ElfRelocation;
using testing::ElfSection;
using testing::ElfSymbol;

extern "C" int tujit_loader_test_seven() {
  return 7;
}

namespace {

// psABI relocation types, spelled out here rather than taken from the loader.
constexpr std::uint32_t R_64 = 1, R_PC32 = 2, R_GOT32 = 3, R_PLT32 = 4, R_GOTPCREL = 9, R_32 = 10,
                        R_32S = 11, R_PC64 = 24, R_GOTPCRELX = 41, R_REX_GOTPCRELX = 42;
constexpr std::uint16_t kText = 1, kRodata = 2, kData = 3, kBss = 4, kAbs = 0xFFF1;
// Symbol indices (1-based) of sample_object() that its relocations name.
constexpr std::uint32_t kSymRodata = 1, kSymK = 2, kSymSeven = 4, kSymSmall = 5, kSymGetK = 6;

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int v : b) s += static_cast<char>(v);
  return s;
}

// .text: get_k (mov eax, [rip + k]; ret) at 0; got_load (mov rax, [rip + slot]; ret) at 8;
// call_seven (sub rsp, 8; call seven; add rsp, 8; ret) at 16; tail_seven (movabs rax, seven;
// jmp rax) at 32; call_get_k (as call_seven, to the local get_k) at 48.
std::string text() {
  std::string t = bytes({0x8b, 0x05, 0, 0, 0, 0, 0xc3, 0x90});
  t += bytes({0x48, 0x8b, 0x05, 0, 0, 0, 0, 0xc3});
  t += bytes({0x48, 0x83, 0xec, 0x08, 0xe8, 0, 0, 0, 0, 0x48, 0x83, 0xc4, 0x08, 0xc3, 0x90, 0x90});
  t += bytes({0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xe0, 0x90, 0x90, 0x90, 0x90});
  t += bytes({0x48, 0x83, 0xec, 0x08, 0xe8, 0, 0, 0, 0, 0x48, 0x83, 0xc4, 0x08, 0xc3});
  return t;
}

/// The sample: `got_type` is the relocation of got_load, against `got_symbol`.
ElfObject sample_object(std::uint32_t got_type = R_GOTPCREL, std::uint32_t got_symbol = kSymSeven) {
  ElfObject o;
  o.sections = {{".text", 1, 0x6, text(), 16},
                {".rodata", 1, 0x2, bytes({0x11, 0x11, 0x11, 0x11, 0x78, 0x56, 0x34, 0x12}), 8},
                {".data", 1, 0x3, std::string(32, '\0'), 8},
                {".bss", 8, 0x3, std::string(64, '\0'), 32}};
  o.symbols = {{".rodata", kRodata, 0, false, 3},  {"k", kRodata, 4, true, 1},
               {"table", kData, 0, true, 1},       {"tujit_loader_test_seven", 0, 0, true, 2},
               {"small", kAbs, 0x1234, true, 0},   {"get_k", kText, 0, true, 2},
               {"got_load", kText, 8, true, 2},    {"call_seven", kText, 16, true, 2},
               {"tail_seven", kText, 32, true, 2}, {"call_get_k", kText, 48, true, 2},
               {"zeros", kBss, 0, true, 1}};
  o.relocations = {{kText, 2, R_PC32, kSymK, -4},          {kText, 11, got_type, got_symbol, -4},
                   {kText, 21, R_PLT32, kSymSeven, -4},    {kText, 34, R_64, kSymSeven, 0},
                   {kText, 53, R_PLT32, kSymGetK, -4},     {kData, 0, R_64, kSymK, 8},
                   {kData, 8, R_PC32, kSymRodata, 0},      {kData, 12, R_32, kSymSmall, 1},
                   {kData, 16, R_32S, kSymSmall, -0x2000}, {kData, 24, R_PC64, kSymK, 0}};
  return o;
}

const codegen::ExternalSymbol kTable[] = {
    {"tujit_loader_test_seven", reinterpret_cast<std::uintptr_t>(&tujit_loader_test_seven)}};

codegen::LoadOutcome load(const ElfObject& o) {
  return codegen::load_object(write_elf(o), kTable);
}

template <typename T>
T read_at(std::uintptr_t address) {
  T v;
  std::memcpy(&v, reinterpret_cast<const void*>(address), sizeof v);
  return v;
}

template <typename Fn>
Fn function(const codegen::LoadedImage& image, const char* name) {
  const std::uintptr_t a = image.symbol(name);
  REQUIRE(a != 0);
  return reinterpret_cast<Fn>(a);
}

} // namespace

TEST_CASE("object loader: data relocations hold S + A and S + A - P", "[jit]") {
  auto loaded = load(sample_object());
  INFO(loaded.refusal);
  REQUIRE(loaded.image);
  const auto& image = *loaded.image;
  const std::uintptr_t k = image.symbol("k"), table = image.symbol("table");
  REQUIRE(k != 0);
  REQUIRE(table != 0);
  CHECK(read_at<std::uint32_t>(k) == 0x12345678u);
  CHECK(read_at<std::uint64_t>(table) == k + 8);                                  // R_64
  CHECK(read_at<std::int32_t>(table + 8) ==                                       // R_PC32
        static_cast<std::int64_t>(k - 4) - static_cast<std::int64_t>(table + 8)); // .rodata + 0
  CHECK(read_at<std::uint32_t>(table + 12) == 0x1235u);                           // R_32
  CHECK(read_at<std::int32_t>(table + 16) == 0x1234 - 0x2000);                    // R_32S
  CHECK(read_at<std::int64_t>(table + 24) ==                                      // R_PC64
        static_cast<std::int64_t>(k) - static_cast<std::int64_t>(table + 24));
  // .bss is placed and zero.
  const std::uintptr_t zeros = image.symbol("zeros");
  REQUIRE(zeros != 0);
  for (int i = 0; i < 64; ++i) CHECK(read_at<std::uint8_t>(zeros + static_cast<unsigned>(i)) == 0);
  CHECK(image.symbol("no such symbol") == 0);
}

TEST_CASE("object loader: code relocations run: PC32, PLT32 through a stub, R_64 calls", "[jit]") {
  auto loaded = load(sample_object());
  INFO(loaded.refusal);
  REQUIRE(loaded.image);
  CHECK(function<int (*)()>(*loaded.image, "get_k")() == 0x12345678);
  CHECK(function<int (*)()>(*loaded.image, "call_seven")() == 7);
  CHECK(function<int (*)()>(*loaded.image, "tail_seven")() == 7);
  CHECK(function<int (*)()>(*loaded.image, "call_get_k")() == 0x12345678);
  // loaded_function keeps the image alive until released.
  auto fn = codegen::loaded_function(loaded.image, "tail_seven");
  REQUIRE(fn);
  loaded.image.reset();
  CHECK(fn->as<int (*)()>()() == 7);
  fn->release();
  CHECK_FALSE(codegen::loaded_function(nullptr, "tail_seven"));
}

TEST_CASE("object loader: GOTPCREL, GOTPCRELX and REX_GOTPCRELX read the symbol's own slot",
          "[jit]") {
  for (std::uint32_t type : {R_GOTPCREL, R_GOTPCRELX, R_REX_GOTPCRELX}) {
    INFO("type " << type);
    auto external = load(sample_object(type, kSymSeven));
    INFO(external.refusal);
    REQUIRE(external.image);
    CHECK(function<std::uintptr_t (*)()>(*external.image, "got_load")() ==
          reinterpret_cast<std::uintptr_t>(&tujit_loader_test_seven));
    auto local = load(sample_object(type, kSymK));
    REQUIRE(local.image);
    CHECK(function<std::uintptr_t (*)()>(*local.image, "got_load")() == local.image->symbol("k"));
  }
}

TEST_CASE("object loader: what it does not know is refused", "[jit]") {
  SECTION("an unknown relocation type") {
    auto o = sample_object();
    o.relocations.push_back({kData, 0, R_GOT32, kSymK, 0});
    auto r = load(o);
    CHECK_FALSE(r.image);
    CHECK_THAT(r.refusal, Catch::Contains("relocation type 3"));
  }
  SECTION("a symbol outside the table") {
    auto o = sample_object();
    o.symbols[kSymSeven - 1].name = "system";
    auto r = load(o);
    CHECK_FALSE(r.image);
    CHECK_THAT(r.refusal, Catch::Contains("undefined symbol `system`"));
  }
  SECTION("an address too wide for a 32-bit field") {
    auto o = sample_object();
    o.relocations.push_back({kData, 12, R_32, kSymK, 0});
    auto r = load(o);
    CHECK_FALSE(r.image);
    CHECK_THAT(r.refusal, Catch::Contains("does not fit"));
  }
  SECTION("a relocation past its section") {
    auto o = sample_object();
    o.relocations.push_back({kData, 30, R_64, kSymK, 0});
    CHECK_FALSE(load(o).image);
  }
  SECTION("REL relocations") {
    auto o = sample_object();
    o.relocation_section_type = 9; // SHT_REL
    CHECK_THAT(load(o).refusal, Catch::Contains("REL"));
  }
  SECTION("another machine") {
    auto o = sample_object();
    o.machine = 183; // EM_AARCH64
    CHECK_THAT(load(o).refusal, Catch::Contains("x86-64"));
  }
  SECTION("a thread-local section") {
    auto o = sample_object();
    o.sections[kData - 1].flags |= 0x400; // SHF_TLS
    CHECK_FALSE(load(o).image);
  }
}

TEST_CASE("object loader: truncated or corrupted objects are refused or placed, never a crash",
          "[jit]") {
  const std::string whole = write_elf(sample_object());
  REQUIRE(codegen::load_object(whole, kTable).image);
  // Every proper prefix lacks the section headers at the end.
  for (std::size_t n = 0; n < whole.size(); ++n)
    CHECK_FALSE(codegen::load_object(std::string_view(whole).substr(0, n), kTable).image);
  // Each byte flipped in turn: the loader checks every size, offset and index it reads.
  std::size_t refused = 0;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    std::string bad = whole;
    bad[i] = static_cast<char>(bad[i] ^ 0xA5);
    if (!codegen::load_object(bad, kTable).image) ++refused;
  }
  CHECK(refused > 0);
}

TEST_CASE("object loader: the runtime table names the host functions generated code calls",
          "[jit]") {
  bool memset_found = false, transcendental = false;
  for (const auto& s : codegen::runtime_symbols()) {
    CHECK(s.address != 0);
    memset_found = memset_found || s.name == "memset";
    transcendental = transcendental || s.name == "tujit_ve_transcendental";
  }
  CHECK(memset_found);
  CHECK(transcendental);
}

// The JIT's object cache and its dumps ("[jit]"): a second compile of the same program is a
// cache hit (also from a new JIT instance), a truncated or corrupted cache file is detected and
// recompiled (never trusted, never a crash), checked mode has its own entry, entries are keyed by
// the build (the binary's GNU build ID) and loaded only whole with the right SHA-256, a
// directory in an entry's place is a miss, an entry whose object the loader refuses is a miss, a
// directory others can write is not used, emit_llvm_ir / emit_assembly produce the contraction
// function, and the parts of a chain and the poison shadow are the only modules on the back end's
// cold tier.
#include "tests/support/spec_corpus.h"
#include "tests/unit/jit_test_support.h"

#include "codegen/build_identity.h"
#include "codegen/object_cache.h"
#include "codegen/partial_emit.h"
#include "ir/lang/kernel.h"
#include "runtime/tensor/sha256.h"
#include "tests/support/checked.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace tujit;
using namespace tujit::testing::jit;

namespace {

fs::path fresh_dir(const char* tag) {
  const fs::path d = fs::temp_directory_path() /
                     fmt::format("tujit-jit-cache-test-{}-{}", tag, static_cast<long>(getpid()));
  fs::remove_all(d);
  return d;
}

std::unique_ptr<codegen::ContractionJit> jit_in(const fs::path& dir, bool checked = false) {
  codegen::JitOptions o;
  o.cache_dir = dir;
  o.checked = checked;
  auto j = codegen::ContractionJit::create(o);
  REQUIRE(j.ok());
  return std::move(j).value();
}

std::vector<fs::path> cache_files(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path());
  return out;
}

// The compiled program (of the chain `p` run alone) still computes the interpreter's bits.
void check_runs(const codegen::CompiledContraction& c, const ir::seq::ContractionProgram& p) {
  CHECK(jit_vs_interp(c, p, operands_for(p, 77)) == 0);
}

} // namespace

TEST_CASE("jit cache: a second compile is a hit, corrupt files are recompiled", "[jit]") {
  const auto chain = bmatmul();
  const auto p = testing::chain_run_of(chain).program;
  const fs::path dir = fresh_dir("hit");
  auto jit = jit_in(dir);
  auto first = jit->compile(p);
  REQUIRE(first.ok());
  CHECK_FALSE((*first)->stats().cache_hit);
  CHECK((*first)->stats().fingerprint == ir::seq::fingerprint(p));
  REQUIRE(cache_files(dir).size() == 1);

  auto second = jit->compile(p);
  REQUIRE(second.ok());
  CHECK((*second)->stats().cache_hit);
  check_runs(**second, chain);
  auto other_instance = jit_in(dir)->compile(p);
  REQUIRE(other_instance.ok());
  CHECK((*other_instance)->stats().cache_hit);

  const fs::path file = cache_files(dir).front();
  const auto size = fs::file_size(file);
  SECTION("truncated") {
    fs::resize_file(file, size / 2);
  }
  SECTION("one byte of the object flipped") {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(size - 100));
    char c = 0;
    f.get(c);
    f.seekp(static_cast<std::streamoff>(size - 100));
    f.put(static_cast<char>(c ^ 0x40));
  }
  SECTION("garbage") {
    std::ofstream f(file, std::ios::binary | std::ios::trunc);
    f << "not an object";
  }
  SECTION("empty") {
    std::ofstream f(file, std::ios::binary | std::ios::trunc);
  }
  auto again = jit->compile(p);
  REQUIRE(again.ok());
  CHECK_FALSE((*again)->stats().cache_hit);
  check_runs(**again, chain);
  CHECK(fs::file_size(file) == size); // rewritten whole
  auto healed = jit->compile(p);
  REQUIRE(healed.ok());
  CHECK((*healed)->stats().cache_hit);
  fs::remove_all(dir);
}

TEST_CASE("jit cache: checked and unchecked code are separate entries", "[jit]") {
  const auto chain = bmatmul();
  const auto p = testing::chain_run_of(chain).program;
  const fs::path dir = fresh_dir("checked");
  REQUIRE(jit_in(dir)->compile(p).ok());
  auto checked = jit_in(dir, true)->compile(p);
  REQUIRE(checked.ok());
  CHECK_FALSE((*checked)->stats().cache_hit);
  // The unchecked code, the checked code and the checked code's poison shadow (poison_emit.h).
  CHECK(cache_files(dir).size() == 3);
  check_runs(**checked, chain);
  fs::remove_all(dir);
}

TEST_CASE("jit cache: the cache directory resolution order", "[jit]") {
  CHECK(codegen::resolve_cache_dir("/x/y") == fs::path("/x/y"));
  const char* old = std::getenv("TUJIT_CACHE_DIR");
  const std::string saved = old ? old : "";
  setenv("TUJIT_CACHE_DIR", "/tmp/tujit-env-cache", 1);
  CHECK(codegen::resolve_cache_dir("") == fs::path("/tmp/tujit-env-cache"));
  if (old)
    setenv("TUJIT_CACHE_DIR", saved.c_str(), 1);
  else
    unsetenv("TUJIT_CACHE_DIR");
}

TEST_CASE("jit: --emit llvm and --emit asm show the contraction function", "[jit]") {
  const auto p = testing::chain_run_of(bmatmul()).program;
  auto ir_text = codegen::emit_llvm_ir(p);
  REQUIRE(ir_text.ok());
  CHECK(ir_text->find("define") != std::string::npos);
  CHECK(ir_text->find("@tujit_contraction") != std::string::npos);
  // No fast-math flag on any float operation (docs/contraction.md §9.2: no reassociation, no
  // fusion).
  for (const char* op : {"fadd ", "fmul ", "call "})
    for (const char* flag : {"fast", "reassoc", "contract", "nnan", "ninf", "nsz", "arcp", "afn"})
      CHECK(ir_text->find(std::string(op) + flag) == std::string::npos);
  auto asm_text = codegen::emit_assembly(p);
  REQUIRE(asm_text.ok());
  CHECK(asm_text->find("tujit_contraction:") != std::string::npos);
  auto checked_ir = codegen::emit_llvm_ir(p, true);
  REQUIRE(checked_ir.ok());
  // Checked code guards its accesses: branches to blocks named `inbounds*` (contraction_emit.cpp)
  // and a return of kRunBoundsViolation (1) on the other side.
  CHECK(checked_ir->find("inbounds") != std::string::npos);
  CHECK(checked_ir->find("i32 1") != std::string::npos);
  CHECK(ir_text->find("label %inbounds") == std::string::npos);
  // Checked code comes with its poison shadow (poison_emit.h), printed after the run function.
  const auto shadow_at = checked_ir->find("@tujit_poison");
  REQUIRE(shadow_at != std::string::npos);
  CHECK(shadow_at > checked_ir->find("@tujit_contraction"));
  CHECK(ir_text->find("tujit_poison") == std::string::npos);
  auto checked_asm = codegen::emit_assembly(p, true);
  REQUIRE(checked_asm.ok());
  CHECK(checked_asm->find("tujit_poison:") != std::string::npos);
}

TEST_CASE("jit cache: entries are keyed by the build, and another build's entry is a miss",
          "[jit]") {
  const fs::path dir = fresh_dir("build");
  const codegen::ObjectCache a(dir, "build-a"), b(dir, "build-b");
  REQUIRE(a.store(7, "key", "object of build a"));
  CHECK(a.load(7, "key") == std::optional<std::string>("object of build a"));
  CHECK_FALSE(b.load(7, "key"));
  // The default is the GNU build ID the linker put into this binary, as readelf shows it.
  const std::string& id = codegen::build_identity();
  std::string readelf;
  const std::string cmd = fmt::format("readelf -n /proc/{}/exe 2>/dev/null", ::getpid());
  if (std::FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    while (std::fgets(buf, sizeof buf, p)) readelf += buf;
    ::pclose(p);
  }
  const auto at = readelf.find("Build ID: ");
  REQUIRE(at != std::string::npos);
  CHECK(id == readelf.substr(at + 10, readelf.find('\n', at) - at - 10));
  CHECK(id.size() == 40); // --build-id=sha1
  fs::remove_all(dir);
}

TEST_CASE("jit cache: only a whole entry with the right SHA-256 is loaded", "[jit]") {
  const fs::path dir = fresh_dir("digest");
  const codegen::ObjectCache cache(dir, "build-a");
  const std::string key = "key", object = "machine code";
  const fs::path file = cache.path_of(9, key);
  // The earlier format: an FNV-1a checksum over key and object, which anyone can recompute.
  // Its magic and sizes are right, its checksum valid; it is still not loaded.
  const std::string full_key = "tujit build build-a\n" + key;
  std::uint64_t fnv = 0xCBF29CE484222325ull;
  for (char c : full_key + object) {
    fnv ^= static_cast<unsigned char>(c);
    fnv *= 0x100000001B3ull;
  }
  std::string old = "TUJITOBJ";
  const auto put = [&old](std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) old.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  };
  put(1, 4);
  put(full_key.size(), 4);
  put(object.size(), 8);
  put(fnv, 8);
  old += full_key + object;
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace);
  std::ofstream(file, std::ios::binary) << old;
  CHECK_FALSE(cache.load(9, key));
  // A current entry with one byte of its digest changed.
  REQUIRE(cache.store(9, key, object));
  REQUIRE(cache.load(9, key) == std::optional<std::string>(object));
  {
    // Its digest is the SHA-256 of key and object, as libcrypto computes it.
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(bytes.size() >= 8 + 4 + 4 + 8 + 32);
    runtime::Sha256 h;
    const std::string covered = full_key + object;
    h.update({reinterpret_cast<const std::uint8_t*>(covered.data()), covered.size()});
    const auto want = h.finish();
    CHECK(bytes.compare(8 + 4 + 4 + 8, 32,
                        std::string(reinterpret_cast<const char*>(want.data()), want.size())) == 0);
  }
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(8 + 4 + 4 + 8); // the digest's first byte
    f.put('\0');
    f.seekp(8 + 4 + 4 + 8 + 1);
    f.put('\0');
  }
  CHECK_FALSE(cache.load(9, key));
  fs::remove_all(dir);
}

// An entry whose digest is right but whose object the loader (codegen/object_loader.h) refuses —
// here its first relocation's type changed to R_X86_64_GOT32, which the loader does not place — is
// a miss: the kernel is compiled again, runs right, and the entry is replaced.
TEST_CASE("jit cache: an object the loader refuses is a miss and recompiled", "[jit]") {
  const auto chain = bmatmul();
  const auto p = testing::chain_run_of(chain).program;
  const fs::path dir = fresh_dir("refused");
  auto jit = jit_in(dir);
  REQUIRE(jit->compile(p).ok());
  const fs::path file = cache_files(dir).front();
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  constexpr std::size_t kHeader = 8 + 4 + 4 + 8 + 32;
  REQUIRE(bytes.size() > kHeader);
  std::uint32_t key_bytes = 0;
  std::memcpy(&key_bytes, bytes.data() + 12, 4);
  const std::size_t object_at = kHeader + key_bytes;
  // The ELF64 section headers: find the first SHT_RELA (4) and its first entry's r_info.
  const auto u64 = [&](std::size_t at) {
    std::uint64_t v = 0;
    std::memcpy(&v, bytes.data() + object_at + at, 8);
    return v;
  };
  const std::uint64_t shoff = u64(0x28);
  std::uint16_t shnum = 0;
  std::memcpy(&shnum, bytes.data() + object_at + 0x3C, 2);
  std::size_t rela_at = 0;
  for (std::size_t i = 0; i < shnum && rela_at == 0; ++i) {
    std::uint32_t type = 0;
    std::memcpy(&type, bytes.data() + object_at + shoff + 64 * i + 4, 4);
    if (type == 4) rela_at = static_cast<std::size_t>(u64(shoff + 64 * i + 0x18));
  }
  REQUIRE(rela_at != 0);
  bytes[object_at + rela_at + 8] = 3; // r_info's type byte: R_X86_64_GOT32
  runtime::Sha256 h;
  h.update({reinterpret_cast<const std::uint8_t*>(bytes.data()) + kHeader, bytes.size() - kHeader});
  const auto sum = h.finish();
  std::memcpy(bytes.data() + 8 + 4 + 4 + 8, sum.data(), sum.size());
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;

  auto again = jit_in(dir)->compile(p);
  REQUIRE(again.ok());
  CHECK_FALSE((*again)->stats().cache_hit);
  check_runs(**again, chain);
  auto healed = jit_in(dir)->compile(p);
  REQUIRE(healed.ok());
  CHECK((*healed)->stats().cache_hit);
  check_runs(**healed, chain);
  fs::remove_all(dir);
}

TEST_CASE("jit cache: a directory where an entry belongs is a miss, not a crash", "[jit]") {
  const auto chain = bmatmul();
  const auto p = testing::chain_run_of(chain).program;
  const fs::path dir = fresh_dir("entrydir");
  auto jit = jit_in(dir);
  auto first = jit->compile(p);
  REQUIRE(first.ok());
  const fs::path entry = cache_files(dir).front();
  fs::remove(entry);
  fs::create_directory(entry);
  auto again = jit_in(dir)->compile(p); // reads the directory: a miss; the store is refused
  REQUIRE(again.ok());
  CHECK_FALSE((*again)->stats().cache_hit);
  CHECK(fs::is_directory(entry));
  check_runs(**again, chain);
  fs::remove_all(dir);
}

TEST_CASE("jit cache: a directory others can write is not used", "[jit]") {
  const fs::path dir = fresh_dir("shared");
  const codegen::ObjectCache cache(dir, "build-a");
  REQUIRE(cache.store(3, "key", "object")); // creates the directory, private
  CHECK((fs::status(dir).permissions() & (fs::perms::group_all | fs::perms::others_all)) ==
        fs::perms::none);
  REQUIRE(cache.load(3, "key"));
  fs::permissions(dir, fs::perms::others_write | fs::perms::others_exec, fs::perm_options::add);
  CHECK_FALSE(codegen::trusted_cache_dir(dir));
  CHECK_FALSE(cache.load(3, "key"));
  CHECK_FALSE(cache.store(4, "key", "object"));
  fs::remove_all(dir);
}

// The cold tier (codegen/native_compiler.h) is for code that runs once per kernel on small data:
// every part of a chain of specs/ and every poison shadow; whole chains and moves stay hot. The
// tier is the module flag `tujit.codegen_tier` (1 = cold) of the `--emit llvm` text.
TEST_CASE("jit: parts of a chain and the poison shadow compile on the cold tier, the rest hot",
          "[jit]") {
  const std::string cold_flag = "!\"tujit.codegen_tier\", i32 1}";
  std::size_t cold = 0, hot = 0;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& kernel : file->kernels) {
      auto ops = ir::seq::find_run_operands(kernel);
      if (!ops) continue;
      auto tiles = ir::seq::input_tiles(*file, kernel, *ops);
      if (!tiles) continue;
      auto rp = ir::seq::lower_run(*file, testing::checked(kernel), *ops, *tiles, false);
      if (!rp) continue;
      INFO(path.filename().string() << " :: " << kernel.name);
      // Checked text: the run module, then its poison shadow's (poison_emit.h).
      auto text = codegen::emit_llvm_ir(*rp, true);
      REQUIRE(text.ok());
      const auto shadow = text->find("@tujit_poison");
      REQUIRE(shadow != std::string::npos);
      const bool partial = codegen::is_partial(*rp);
      CHECK((text->substr(0, shadow).find(cold_flag) != std::string::npos) == partial);
      CHECK(text->find(cold_flag, shadow) != std::string::npos);
      ++(partial ? cold : hot);
    }
  }
  // The book's Outer-only and partial-read kernels are parts; its matmuls are whole chains.
  CHECK(cold >= 3);
  CHECK(hot >= 20);
}

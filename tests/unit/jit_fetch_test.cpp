// The JIT back end of the data path from DM ("[jit-fetch]", codegen/fetch_jit.h): every fetch of
// the spec corpus (each Collect whose chain starts at a fetch, lowered by ir::seq::lower_fetch)
// runs in the JIT and in the reference interpreter (runtime/interp/fetch_exec.h) on the same DM
// image, and the collected streams are identical bit for bit and state for state — with
// unchecked and checked code, on 1, 2 and 3 threads, and from the object cache (the few DM
// images past 2^22 cells are compared values-only with the reference, to bound memory). The Fetch
// Adapter's conversions are checked against runtime::fetch_cast_bits / zero_point_sub_bits (the
// interpreter's conversions, runtime/scalar/fetch_adapter.h) on every bit pattern of each
// ≤ 16-bit source type (sampled and adversarial for f32), and hand-made sequencer shapes
// (broadcast, reordering, packets that do not fill their flits) against SequencerConfig::offset_at.
#include "tests/support/fetch_jit.h"

#include "codegen/object_cache.h"
#include "ir/lang/kernel.h"
#include "runtime/engine/result_diff.h"
#include "runtime/layout/layout.h"
#include "runtime/scalar/fetch_adapter.h"
#include "runtime/tensor/logical_tensor.h"
#include "runtime/tensor/random_fill.h"
#include "tests/support/adversarial_dm.h"
#include "tests/support/checked.h"
#include "tests/support/device_layout.h"
#include "tests/support/fetch_emit.h"
#include "tests/support/fetch_exec.h"
#include "tests/support/spec_corpus.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <limits>
#include <random>
#include <set>

namespace fs = std::filesystem;
using namespace tujit;
using ir::ScalarType;
using runtime::CellState;
using runtime::DeviceImage;

namespace {

testing::FetchJit& shared_jit(bool checked = false) {
  static auto make = [](bool c) {
    codegen::JitOptions o;
    o.use_cache = false;
    o.checked = c;
    auto j = testing::FetchJit::create(o);
    if (!j)
      for (const auto& d : j.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
    REQUIRE(j.ok());
    return std::move(j).value();
  };
  static std::unique_ptr<testing::FetchJit> plain = make(false);
  static std::unique_ptr<testing::FetchJit> with_checks = make(true);
  return checked ? *with_checks : *plain;
}

std::shared_ptr<const testing::CompiledFetch> compile(const ir::seq::FetchProgram& p,
                                                      bool checked = false) {
  auto c = shared_jit(checked).compile(p);
  if (!c)
    for (const auto& d : c.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(c.ok());
  return *c;
}

struct CorpusFetch {
  std::string where; // "file :: kernel :: collect #i"
  ir::seq::FetchProgram program;
  std::shared_ptr<const ir::AxisTable> table; // the spec file's axes
  std::uint64_t seed = 0;
  std::uint64_t dm_cells() const { return program.spatial * program.buffer; }
};

/// Every Collect of the corpus whose chain starts at a fetch (lowered once). Fetches whose
/// program has the fingerprint of an earlier one are left out: the generated code, and so the
/// values, would be the same (the cell states are run_fetch's in both engines).
const std::vector<CorpusFetch>& corpus_fetches() {
  static const std::vector<CorpusFetch> all = [] {
    std::vector<CorpusFetch> out;
    std::set<std::uint64_t> seen;
    std::uint64_t seed = 1;
    for (const auto& path : testing::spec_corpus()) {
      auto file = ir::load_spec(path.string());
      REQUIRE(file.ok());
      const auto table = std::make_shared<const ir::AxisTable>(file->axes);
      for (const auto& kernel : file->kernels)
        for (std::size_t i = 0; i < kernel.stages.size(); ++i) {
          if (kernel.stages[i].op != ir::StageOp::Collect) continue;
          const std::string where =
              fmt::format("{} :: {} :: collect #{}", path.filename().string(), kernel.name, i);
          INFO(where);
          auto p = ir::seq::lower_fetch(testing::checked(kernel), i);
          if (!p) {
            // Only a collect whose chain does not start at a fetch may be refused.
            for (const auto& d : p.diagnostics()) {
              INFO(render(d, nullptr));
              CHECK(d.code == "E-RUN-101");
            }
            continue;
          }
          if (p->switch_engine) continue; // slices are not independent: the run test's
          if (seen.insert(ir::seq::fingerprint(*p)).second)
            out.push_back(CorpusFetch{where, std::move(*p), table, ++seed});
        }
    }
    return out;
  }();
  return all;
}

/// The DM image of a fetch: a seeded random logical tensor over the DM parameter's type, laid
/// out by it (testing::to_device); with `adversarial`, every Live cell holds an adversarial code
/// instead (NaN payloads, ±inf, subnormals, integer extremes).
DeviceImage dm_image(const CorpusFetch& f, bool adversarial) {
  const ir::TensorType& type = f.program.dm;
  const auto axes = runtime::tensor_axes(type, *f.table);
  std::uint64_t elements = 1;
  for (const auto& a : axes) elements *= a.size;
  if (!adversarial && elements <= 4 * f.dm_cells()) {
    auto t = runtime::make_logical_tensor(type.dtype, axes);
    REQUIRE(t.ok());
    runtime::fill_random(*t, f.seed);
    auto dm = testing::to_device(*t, type);
    REQUIRE(dm.ok());
    return std::move(*dm);
  }
  // Adversarial codes, or a DM parameter that holds only part of a large logical tensor (e.g. a
  // vocabulary tile): the layout's cells without materialising the tensor.
  auto dm = testing::adversarial_dm_image(type, *f.table, f.seed);
  REQUIRE(dm.ok());
  return std::move(*dm);
}

/// The thread-count and cache tests run the fetches whose DM image has at most kSmallImage
/// cells; the first test compares images up to kLargeImage cells with the interpreter and the
/// larger ones (up to 2^24 cells in the corpus) values-only with the reference.
constexpr std::uint64_t kSmallImage = std::uint64_t{1} << 20;
constexpr std::uint64_t kLargeImage = std::uint64_t{1} << 22;

DeviceImage interpret(const CorpusFetch& f, const DeviceImage& dm) {
  auto want = testing::run_fetch(f.program, dm, *f.table);
  if (!want)
    for (const auto& d : want.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(want.ok());
  return std::move(*want);
}

/// The JIT's collected stream, or a failed test.
DeviceImage jit_run(const testing::CompiledFetch& c, const CorpusFetch& f, const DeviceImage& dm,
                    unsigned threads) {
  codegen::JitRunOptions ro;
  ro.threads = threads;
  auto got = testing::run_fetch_jit(c, f.program, dm, *f.table, ro);
  if (!got)
    for (const auto& d : got.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(got.ok());
  return std::move(*got);
}

/// Empty when identical; else the first difference.
std::string difference(const DeviceImage& want, const DeviceImage& got) {
  return testing::first_image_difference(want, got, "collected stream", "time", "element")
      .value_or("");
}

// A hand-made program over one DM buffer per slice (the fingerprint covers every field the
// generated code reads; the TensorTypes are not needed by the values-only runner).
ir::seq::FetchProgram synthetic(ScalarType in, ScalarType out, std::optional<std::int64_t> zp,
                                std::vector<ir::datapath::SeqEntry> entries, std::uint64_t packet,
                                std::uint64_t flits, std::uint64_t flit_elements,
                                std::uint64_t buffer, std::uint64_t spatial,
                                std::optional<ScalarType> lookup = std::nullopt) {
  ir::seq::FetchProgram p;
  p.kernel_name = "synthetic";
  // Not `= "x"`: that assignment trips g++ 12's false -Wstringop-overflow at -O3.
  p.source.push_back('x');
  p.dm_type = in;
  p.stream_type = out;
  p.lookup_to = lookup;
  if (lookup.value_or(in) != out && !zp) p.cast_to = out;
  p.zero_point = zp;
  p.sequencer = ir::datapath::make_config(std::move(entries), packet);
  p.spatial = spatial;
  p.buffer = buffer;
  p.packet = packet;
  p.time = packet == 0 ? 0 : p.sequencer.stream_size() / packet;
  p.flits_per_packet = flits;
  p.flit_elements = flit_elements;
  return p;
}

constexpr std::uint32_t kUntouched = 0xDEADBEEFu;

/// The Fetch Adapter as the interpreter applies it (tests/support/fetch_exec.cpp).
std::uint32_t adapt(const ir::seq::FetchProgram& p, std::uint32_t bits) {
  return runtime::fetch_adapter_bits(p.dm_type, p.lookup_to, p.cast_to, p.zero_point, bits);
}

/// The values-only JIT output of `p` on `dm` (cells the fetch does not write keep kUntouched).
std::vector<std::uint32_t> jit_values(const testing::CompiledFetch& c,
                                      const ir::seq::FetchProgram& p,
                                      const std::vector<std::uint32_t>& dm) {
  std::vector<std::uint32_t> got(p.spatial * p.collected_time() * p.flit_elements, kUntouched);
  codegen::JitRunOptions ro;
  ro.threads = 2;
  auto ok = testing::run_fetch_values_jit(c, p, dm, got, ro);
  if (!ok)
    for (const auto& d : ok.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(ok.ok());
  return got;
}

/// Differences between `got` and the expected stream, computed independently of both engines'
/// loop walks: cell (t, r) of a slice's F·E cells per time step holds position pos = t·|P| + r
/// when r < |P|, i.e. adapt(dm[s·buffer + offset_at(pos)]); the other cells keep kUntouched.
std::uint64_t value_differences(const ir::seq::FetchProgram& p,
                                const std::vector<std::uint32_t>& dm,
                                const std::vector<std::uint32_t>& got) {
  const std::uint64_t span = p.flits_per_packet * p.flit_elements;
  const std::uint64_t per_slice = p.collected_time() * p.flit_elements;
  std::uint64_t bad = 0;
  for (std::uint64_t s = 0; s < p.spatial; ++s)
    for (std::uint64_t c = 0; c < per_slice; ++c) {
      const std::uint64_t t = c / span, r = c % span;
      const std::uint32_t want =
          r < p.packet ? adapt(p, dm[s * p.buffer + p.sequencer.offset_at(t * p.packet + r)])
                       : kUntouched;
      const std::uint32_t have = got[s * per_slice + c];
      if (want != have && bad++ < 4)
        UNSCOPED_INFO(
            fmt::format("slice {} cell {}: want {:#010x}, got {:#010x}", s, c, want, have));
    }
  return bad;
}

/// Runs `p` (values only) on `dm` in plain and checked code; the differences from the expected
/// stream (value_differences).
std::uint64_t check_values(const ir::seq::FetchProgram& p, const std::vector<std::uint32_t>& dm) {
  std::uint64_t bad = 0;
  for (bool checked : {false, true}) {
    INFO((checked ? "checked code" : "plain code"));
    bad += value_differences(p, dm, jit_values(*compile(p, checked), p, dm));
  }
  return bad;
}

/// Every source pattern of `t` the conversion test feeds: the whole container domain for ≤ 16-bit
/// types (integers as their sign- / zero-extended values, float codes in the low bits), sampled
/// and special values for i32 / f32, and some containers with garbage in the unused high bits
/// (the reference conversions read only the source type's bits; so must the JIT).
std::vector<std::uint32_t> source_patterns(ScalarType t) {
  std::vector<std::uint32_t> v;
  std::mt19937_64 rng(static_cast<std::uint64_t>(t) + 1000);
  if (t == ScalarType::F32 || t == ScalarType::I32) {
    for (std::uint32_t x :
         {0x00000000u, 0x80000000u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x00000001u, 0x7F800000u,
          0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFBFFFFFu, 0x7FFFFFFFu,
          0x00000001u, 0x807FFFFFu, 0x00400000u, 0x00800000u, 0x80800000u, 0x7F7FFFFFu,
          0xFF7FFFFFu, 0x7F7F8000u, 0x7F7F7FFFu, 0x3F808000u, 0x3F818000u, 0x3F808001u,
          0x3F807FFFu, 0x3F800000u, 0x0080FFFFu, 0x007FFFFFu})
      v.push_back(x);
    // Every tie / sticky combination of narrow_bf16's rounding, around a few exponents.
    for (std::uint32_t hi : {0x3F80u, 0x3F81u, 0x7F7Fu, 0x0080u, 0x8080u, 0xFF7Fu})
      for (std::uint32_t lo : {0x0000u, 0x0001u, 0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu})
        v.push_back(hi << 16 | lo);
    for (int i = 0; i < 200000; ++i) v.push_back(static_cast<std::uint32_t>(rng()));
    return v;
  }
  if (ir::is_integer(t)) {
    const auto range = *ir::integer_range(t);
    for (std::int64_t x = range.first; x <= range.second; ++x)
      v.push_back(static_cast<std::uint32_t>(static_cast<std::int32_t>(x)));
  } else {
    const std::uint32_t codes = t == ScalarType::BF16     ? 0x10000u
                                : t == ScalarType::F4E2M1 ? 16u
                                                          : 256u;
    for (std::uint32_t c = 0; c < codes; ++c) v.push_back(c);
  }
  for (int i = 0; i < 64; ++i) v.push_back(static_cast<std::uint32_t>(rng()));
  return v;
}

/// One conversion over all patterns of its source: two slices (the patterns, then reversed),
/// packets of 8 in flits of 16 (half of every flit is Collect's fill).
std::uint64_t check_conversion(ScalarType in, ScalarType out, std::optional<std::int64_t> zp,
                               std::optional<ScalarType> lookup = std::nullopt) {
  std::vector<std::uint32_t> patterns = source_patterns(in);
  while (patterns.size() % 8 != 0) patterns.push_back(patterns[patterns.size() % 8]);
  const std::uint64_t n = patterns.size();
  const auto p = synthetic(in, out, zp, {{n / 8, 8}, {8, 1}}, 8, 1, 16, n, 2, lookup);
  std::vector<std::uint32_t> dm = patterns;
  dm.insert(dm.end(), patterns.rbegin(), patterns.rend());
  return check_values(p, dm);
}

fs::path fresh_dir(const char* tag) {
  const fs::path d = fs::temp_directory_path() /
                     fmt::format("tujit-jit-fetch-test-{}-{}", tag, static_cast<long>(getpid()));
  fs::remove_all(d);
  return d;
}

std::size_t file_count(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

} // namespace

TEST_CASE("jit fetch: every corpus fetch equals the interpreter bit for bit and state for state",
          "[jit-fetch]") {
  const auto& all = corpus_fetches();
  std::size_t casts = 0, zero_points = 0, broadcasts = 0, padded = 0, large = 0;
  for (const CorpusFetch& f : all) {
    INFO(f.where << "\n" << ir::seq::to_text(f.program));
    auto c = compile(f.program);
    CHECK_FALSE(c->stats().cache_hit);
    CHECK(c->stats().fingerprint == ir::seq::fingerprint(f.program));
    if (f.dm_cells() > kLargeImage) {
      // The largest images (2^23 – 2^24 cells): values only, against the reference at every
      // position, which needs a fraction of the interpreter's memory and time (the cell states
      // are run_fetch's own in both engines, checked on every other fetch).
      std::mt19937_64 rng(f.seed);
      std::vector<std::uint32_t> dm(f.dm_cells());
      for (auto& b : dm) b = testing::adversarial_code(f.program.dm_type, rng());
      CHECK(value_differences(f.program, dm, jit_values(*c, f.program, dm)) == 0);
      ++large;
      continue;
    }
    for (bool adversarial : {false, true}) {
      const DeviceImage dm = dm_image(f, adversarial);
      const DeviceImage want = interpret(f, dm);
      CHECK(difference(want, jit_run(*c, f, dm, 2)) == "");
    }
    casts += f.program.cast_to.has_value();
    zero_points += f.program.zero_point.has_value();
    for (const auto& e : f.program.sequencer.entries) broadcasts += e.stride == 0 && e.size > 1;
    padded += f.program.flits_per_packet * f.program.flit_elements != f.program.packet;
  }
  INFO("fetches " << all.size() << ", casts " << casts << ", zero points " << zero_points
                  << ", broadcast entries " << broadcasts << ", padded collects " << padded
                  << ", values-only (large) " << large);
  CHECK(all.size() >= 20);
  CHECK(zero_points >= 1);
}

TEST_CASE("jit fetch: checked code and 1, 2, 3 threads give the interpreter's image",
          "[jit-fetch]") {
  std::size_t run = 0;
  for (const CorpusFetch& f : corpus_fetches()) {
    if (f.dm_cells() > kSmallImage) continue;
    INFO(f.where);
    auto plain = compile(f.program);
    auto checked = compile(f.program, true);
    const DeviceImage dm = dm_image(f, true);
    const DeviceImage want = interpret(f, dm);
    for (unsigned threads : {1u, 2u, 3u}) {
      INFO("threads " << threads);
      CHECK(difference(want, jit_run(*plain, f, dm, threads)) == "");
      CHECK(difference(want, jit_run(*checked, f, dm, threads)) == "");
    }
    ++run;
  }
  CHECK(run >= 15);
}

TEST_CASE("jit fetch: a cache hit runs identically, fetch and contraction keys never collide",
          "[jit-fetch]") {
  std::vector<const CorpusFetch*> all;
  for (const CorpusFetch& f : corpus_fetches())
    if (f.dm_cells() <= kSmallImage) all.push_back(&f);
  REQUIRE(all.size() >= 2);
  const fs::path dir = fresh_dir("cache");
  const auto jit_in = [&](bool checked) {
    codegen::JitOptions o;
    o.cache_dir = dir;
    o.checked = checked;
    auto j = testing::FetchJit::create(o);
    REQUIRE(j.ok());
    return std::move(j).value();
  };
  for (std::size_t k : {std::size_t{0}, all.size() - 1}) {
    const CorpusFetch& f = *all[k];
    INFO(f.where);
    const std::size_t before = fs::exists(dir) ? file_count(dir) : 0;
    auto first = jit_in(false)->compile(f.program);
    REQUIRE(first.ok());
    CHECK_FALSE((*first)->stats().cache_hit);
    CHECK(file_count(dir) == before + 1);
    auto second = jit_in(false)->compile(f.program);
    REQUIRE(second.ok());
    CHECK((*second)->stats().cache_hit);
    // Checked code is another object.
    auto checked = jit_in(true)->compile(f.program);
    REQUIRE(checked.ok());
    CHECK_FALSE((*checked)->stats().cache_hit);
    CHECK(file_count(dir) == before + 2);
    const DeviceImage dm = dm_image(f, true);
    const DeviceImage want = interpret(f, dm);
    CHECK(difference(want, jit_run(**first, f, dm, 2)) == "");
    CHECK(difference(want, jit_run(**second, f, dm, 3)) == "");
  }
  // A contraction object stored under the same fingerprint is not a fetch object: the fetch
  // compile misses (the key differs), stores its own file and still runs correctly.
  const CorpusFetch& f = *all.front();
  const std::uint64_t fp = ir::seq::fingerprint(f.program);
  const fs::path other = fresh_dir("collide");
  codegen::ObjectCache cache(other);
  REQUIRE(cache.store(fp, "tujit contraction object; not a fetch", "not an object"));
  codegen::JitOptions o;
  o.cache_dir = other;
  auto jit = testing::FetchJit::create(o);
  REQUIRE(jit.ok());
  auto c = (*jit)->compile(f.program);
  REQUIRE(c.ok());
  CHECK_FALSE((*c)->stats().cache_hit);
  CHECK(file_count(other) == 2);
  const DeviceImage dm = dm_image(f, false);
  CHECK(difference(interpret(f, dm), jit_run(**c, f, dm, 1)) == "");
  fs::remove_all(dir);
  fs::remove_all(other);
}

TEST_CASE("jit fetch: every fetch_cast pair and zero-point subtraction equals the reference on "
          "every source pattern",
          "[jit-fetch]") {
  std::size_t pairs = 0;
  for (ScalarType in : ir::kAllScalarTypes)
    for (ScalarType out : ir::kAllScalarTypes) {
      if (!ir::is_fetch_cast(in, out)) continue;
      INFO(ir::name(in) << " → " << ir::name(out));
      CHECK(check_conversion(in, out, std::nullopt) == 0);
      ++pairs;
    }
  // 12 identities, i4 / i8 / i16 → i32, f8e4m3 / f8e5m2 / bf16 → f32, f32 → bf16.
  CHECK(pairs == 19);
  // Zero points: the whole source range of i4 (in range the wrap never triggers), the extremes
  // and a few inner values of i8, and out-of-range values that only a hand-made program can hold
  // (the subtraction then wraps to 5 / 9 bits exactly as zero_point_sub_bits's does; a zero
  // point past i32 is truncated to 32 bits like zero_point_sub_bits's).
  for (std::int64_t zp = -8; zp <= 7; ++zp) {
    INFO("i4 → i5, zp " << zp);
    CHECK(check_conversion(ScalarType::I4, ScalarType::I5, zp) == 0);
  }
  for (std::int64_t zp : {std::int64_t{-128}, std::int64_t{-1}, std::int64_t{0}, std::int64_t{3},
                          std::int64_t{127}}) {
    INFO("i8 → i9, zp " << zp);
    CHECK(check_conversion(ScalarType::I8, ScalarType::I9, zp) == 0);
  }
  for (std::int64_t zp :
       {std::int64_t{100}, std::int64_t{-300}, std::int64_t{1000},
        std::int64_t{std::numeric_limits<std::int32_t>::min()}, (std::int64_t{1} << 40) + 5}) {
    INFO("out-of-range zp " << zp);
    CHECK(check_conversion(ScalarType::I4, ScalarType::I5, zp) == 0);
    CHECK(check_conversion(ScalarType::I8, ScalarType::I9, zp) == 0);
  }
}

TEST_CASE("jit fetch: every table lookup, alone and followed by a cast, equals the reference on "
          "every source pattern",
          "[jit-fetch]") {
  std::size_t lookups = 0;
  for (ScalarType in : ir::kAllScalarTypes)
    for (ScalarType to : ir::kAllScalarTypes) {
      if (!ir::is_table_lookup(in, to)) continue;
      INFO(ir::name(in) << " → " << ir::name(to));
      CHECK(check_conversion(in, to, std::nullopt, to) == 0);
      ++lookups;
      for (ScalarType out : ir::kAllScalarTypes) {
        if (out == to || !ir::is_fetch_cast(to, out)) continue;
        INFO("then fetch_cast to " << ir::name(out));
        CHECK(check_conversion(in, out, std::nullopt, to) == 0);
      }
    }
  CHECK(lookups == 4); // docs/scalars.md §4.5
}

TEST_CASE("jit fetch: hand-made sequencer shapes follow offset_at and Collect's placement",
          "[jit-fetch]") {
  using E = ir::datapath::SeqEntry;
  std::vector<std::uint32_t> dm;
  const auto fill = [&](std::uint64_t cells) {
    dm.resize(cells);
    for (std::uint64_t i = 0; i < cells; ++i) dm[i] = static_cast<std::uint32_t>(i * 2654435761u);
  };
  SECTION("broadcast, a reordered nest, a packet of 6 in one flit of 8") {
    // [3:0, 5:7, 6:1] : 6 → 90 positions, footprint 4·7 + 5 + 1 = 34.
    const auto p = synthetic(ScalarType::I32, ScalarType::I32, std::nullopt,
                             {E{3, 0}, E{5, 7}, E{6, 1}}, 6, 1, 8, 40, 3);
    fill(p.spatial * p.buffer);
    CHECK(check_values(p, dm) == 0);
  }
  SECTION("a transposed read: packets across the outer stride, two flits per packet") {
    // [4:1, 16:4] : 16 (a column of a 16 × 4 buffer per packet), f32 → bf16, each packet
    // spread over F = 2 flits of E = 10 (a hand-made split: 4 cells of fill per packet).
    const auto p = synthetic(ScalarType::F32, ScalarType::BF16, std::nullopt, {E{4, 1}, E{16, 4}},
                             16, 2, 10, 64, 2);
    fill(p.spatial * p.buffer);
    CHECK(check_values(p, dm) == 0);
  }
  SECTION("a packet split across loop levels and size-1 entries") {
    // [2:100, 3:1, 1:5, 4:10] : 8 → 24 positions, 3 packets of 8 (a packet boundary inside the
    // middle entry).
    const auto p = synthetic(ScalarType::BF16, ScalarType::F32, std::nullopt,
                             {E{2, 100}, E{3, 1}, E{1, 5}, E{4, 10}}, 8, 1, 8, 140, 2);
    fill(p.spatial * p.buffer);
    CHECK(check_values(p, dm) == 0);
  }
  SECTION("no entries: one position reads cell 0") {
    const auto p = synthetic(ScalarType::I8, ScalarType::I32, std::nullopt, {}, 1, 1, 8, 3, 4);
    fill(p.spatial * p.buffer);
    CHECK(check_values(p, dm) == 0);
  }
}

TEST_CASE("jit fetch: checked code stops an out-of-range write (E-JIT-003), unchecked code "
          "refuses to run it, a read past the buffer skips the over-read positions",
          "[jit-fetch]") {
  using E = ir::datapath::SeqEntry;
  // 4 packets of 8 placed into flits for 2 time steps only: past the collected stream.
  auto past_out =
      synthetic(ScalarType::I32, ScalarType::I32, std::nullopt, {E{4, 8}, E{8, 1}}, 8, 1, 8, 32, 2);
  past_out.time = 2;
  {
    const std::uint64_t out_cells = past_out.spatial * past_out.collected_time() * 8;
    std::vector<std::uint32_t> dm(past_out.spatial * past_out.buffer, 1);
    std::vector<std::uint32_t> out(out_cells, kUntouched);
    auto checked = testing::run_fetch_values_jit(*compile(past_out, true), past_out, dm, out);
    REQUIRE_FALSE(checked.ok());
    CHECK(checked.diagnostics().front().code == "E-JIT-003");
    auto plain = testing::run_fetch_values_jit(*compile(past_out), past_out, dm, out);
    REQUIRE_FALSE(plain.ok());
    CHECK(plain.diagnostics().front().code == "E-RUN-102");
  }
  // The sequencer reads 16 cells of an 8-cell buffer (docs/datapath.md §4.2, reads may over-read):
  // the loads of positions 8…15 are skipped in both modes, their cells keep what was there.
  const auto past_dm =
      synthetic(ScalarType::I32, ScalarType::I32, std::nullopt, {E{16, 1}}, 16, 1, 16, 8, 2);
  for (bool checked : {true, false}) {
    INFO((checked ? "checked" : "unchecked"));
    std::vector<std::uint32_t> dm(past_dm.spatial * past_dm.buffer);
    for (std::uint64_t i = 0; i < dm.size(); ++i) dm[i] = static_cast<std::uint32_t>(100 + i);
    std::vector<std::uint32_t> out(past_dm.spatial * 16, kUntouched);
    auto r = testing::run_fetch_values_jit(*compile(past_dm, checked), past_dm, dm, out);
    REQUIRE(r.ok());
    for (std::uint64_t s = 0; s < past_dm.spatial; ++s)
      for (std::uint64_t i = 0; i < 16; ++i)
        CHECK(out[s * 16 + i] == (i < 8 ? 100 + s * 8 + i : kUntouched));
  }
}

TEST_CASE("jit fetch: image, program and `#{!}` errors are the interpreter's", "[jit-fetch]") {
  const auto& all = corpus_fetches();
  REQUIRE(!all.empty());
  const CorpusFetch& f = all.front();
  auto c = compile(f.program);
  const DeviceImage dm = dm_image(f, false);

  // Another program than the one compiled.
  ir::seq::FetchProgram other = f.program;
  other.buffer += 1;
  auto wrong = testing::run_fetch_jit(*c, other, dm, *f.table);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.diagnostics().front().code == "E-JIT-002");

  // A DM image of another shape: run_fetch's E-RUN-102.
  DeviceImage small = dm;
  small.inner -= 1;
  small.bits.resize(small.cells());
  small.state.resize(small.cells());
  auto shape = testing::run_fetch_jit(*c, f.program, small, *f.table);
  REQUIRE_FALSE(shape.ok());
  CHECK(shape.diagnostics().front().code == "E-RUN-102");

  // A read of a never-touched cell: both engines refuse with E-RUN-111.
  DeviceImage bottom = dm;
  bottom.state[f.program.sequencer.offset_at(0)] = CellState::Bottom;
  auto want = testing::run_fetch(f.program, bottom, *f.table);
  auto got = testing::run_fetch_jit(*c, f.program, bottom, *f.table);
  REQUIRE_FALSE(want.ok());
  REQUIRE_FALSE(got.ok());
  CHECK(want.diagnostics().front().code == "E-RUN-111");
  CHECK(got.diagnostics().front().code == "E-RUN-111");
}

TEST_CASE("jit fetch: the generated code is integer-only and names its function", "[jit-fetch]") {
  for (const CorpusFetch& f : corpus_fetches()) {
    if (!f.program.cast_to) continue;
    INFO(f.where);
    auto ir_text = testing::emit_llvm_ir(f.program);
    REQUIRE(ir_text.ok());
    CHECK(ir_text->find(testing::kFetchSymbol) != std::string::npos);
    for (const char* op : {"float", "fadd", "fmul", "fpext", "fptrunc", "fcmp"})
      CHECK(ir_text->find(op) == std::string::npos);
    auto asm_text = testing::emit_assembly(f.program, true);
    REQUIRE(asm_text.ok());
    CHECK(asm_text->find(testing::kFetchSymbol) != std::string::npos);
  }
}

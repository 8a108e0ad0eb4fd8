#include "runtime/tensor/random_fill.h"

#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"
#include "runtime/tensor/float_round.h"

#include <algorithm>
#include <cstring>
#include <thread>

namespace tujit::runtime {

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t SplitMix64::below(std::uint64_t n) {
  __extension__ typedef unsigned __int128 U128; // GCC/Clang; exact 64x64→128 multiply
  return static_cast<std::uint64_t>((static_cast<U128>(next()) * n) >> 64);
}

std::uint64_t parameter_seed(std::uint64_t run_seed, std::string_view name) {
  std::uint64_t h = 0xCBF29CE484222325ull; // FNV-1a 64
  for (unsigned char c : name) h = (h ^ c) * 0x100000001B3ull;
  SplitMix64 g(run_seed ^ h);
  return g.next();
}

namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;

std::uint64_t splitmix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// splitmix's bits 33 to 63: its last step, z ^ (z >> 31), leaves them as they are (z >> 31 has
/// no bit there), so a draw read only above bit 32 skips that step, bit-identically.
std::uint64_t splitmix_high(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  return (z ^ (z >> 27)) * 0x94D049BB133111EBull;
}

/// Uniform in [0, n) from one 64-bit draw by 128-bit multiply-shift (SplitMix64::below).
std::uint64_t scale_below(std::uint64_t draw, std::uint64_t n) {
  __extension__ typedef unsigned __int128 U128;
  return static_cast<std::uint64_t>((static_cast<U128>(draw) * n) >> 64);
}

} // namespace

std::uint64_t TileIndex::whole_offset(std::uint64_t tile_offset) const {
  std::uint64_t off = 0;
  for (std::size_t a = extent.size(); a-- > 0;) {
    off += (tile_offset % extent[a]) * whole_stride[a];
    tile_offset /= extent[a];
  }
  return off;
}

TileIndex tile_index(const std::vector<ir::Axis>& tile, const std::vector<ir::Axis>& whole) {
  TileIndex ix;
  ix.extent.resize(tile.size());
  ix.whole_stride.assign(tile.size(), 1);
  for (std::size_t a = 0; a < tile.size(); ++a) ix.extent[a] = tile[a].size;
  for (std::size_t a = tile.size(); a-- > 1;)
    ix.whole_stride[a - 1] = ix.whole_stride[a] * whole[a].size;
  return ix;
}

std::uint32_t random_element(ir::ScalarType dtype, std::uint64_t seed, std::uint64_t index) {
  // The (index + 1)-th output of SplitMix64(seed): the generator is its own counter.
  const std::uint64_t draw = splitmix(seed + (index + 1) * kGolden);
  // 24 random bits → k in [-2^23, 2^23) → k / 2^23 in [-1, 1), exact in a double.
  const auto k = static_cast<std::int64_t>(draw >> 40) - (std::int64_t{1} << 23);
  const float v = static_cast<float>(k) / 8388608.0f; // exact: 24 significant bits
  switch (ir::encoding(dtype)) {
  case ir::Encoding::TwosComplement:
  case ir::Encoding::Unsigned: {
    std::int64_t lo = -(std::int64_t{1} << 20), hi = std::int64_t{1} << 20;
    if (dtype != ir::ScalarType::I32) {
      auto r = ir::integer_range(dtype);
      lo = r->first;
      hi = r->second;
    }
    const auto span = static_cast<std::uint64_t>(hi - lo + 1);
    return static_cast<std::uint32_t>(lo + static_cast<std::int64_t>(scale_below(draw, span)));
  }
  case ir::Encoding::F4E2M1:
    return static_cast<std::uint32_t>(scale_below(draw, 16));
  // bf16 / f8e4m3 (|v| < 1, no saturation): the literal RNE encoders equal round_double_to on
  // these exact values and are much cheaper (tensor_float_round_test checks this).
  case ir::Encoding::F32:
    return f32_bits(v);
  case ir::Encoding::Bf16:
    return bf16_literal_from_f32(f32_bits(v));
  case ir::Encoding::F8E4M3:
    return enc_e4m3(f32_bits(v));
  case ir::Encoding::F8E5M2:
    break;
  }
  return round_double_to(dtype, static_cast<double>(v)).bits;
}

namespace {

// Elements [begin, end) of the tile, a row segment at a time: `row(dst, index, n)` stores the n
// elements whose whole-tensor indices are index, index + 1, ... at dst. A tile's row (its
// innermost axis) is contiguous in both the tile and the whole tensor, so each row needs one
// whole_offset. Always inlined, so each caller below compiles it for its own target.
template <class T, class Row>
[[gnu::always_inline]] inline void fill_elements(std::uint8_t* out, const TileIndex& ix,
                                                 std::uint64_t begin, std::uint64_t end, Row row) {
  const std::uint64_t len = ix.extent.empty() ? 1 : std::max<std::uint64_t>(1, ix.extent.back());
  for (std::uint64_t i = begin; i < end;) {
    const std::uint64_t in_row = i % len, n = std::min(len - in_row, end - i);
    row(out + (i - begin) * sizeof(T), ix.whole_offset(i - in_row) + in_row, n);
    i += n;
  }
}

// A row segment of the generator's draws, each turned into an element by `element`, which reads
// only the draw's bits above 32 (splitmix_high). The counter seed + (index + 1)·γ advances by γ
// per element (mod 2^64, as the multiply), so the vectorised loop adds instead of multiplying.
template <class T, class Element>
[[gnu::always_inline]] inline void fill_draws(std::uint8_t* out, const TileIndex& ix,
                                              std::uint64_t begin, std::uint64_t end,
                                              std::uint64_t seed, Element element) {
  fill_elements<T>(out, ix, begin, end,
                   [&](std::uint8_t* dst, std::uint64_t index, std::uint64_t n) {
                     std::uint64_t counter = seed + (index + 1) * kGolden;
                     for (std::uint64_t k = 0; k < n; ++k, counter += kGolden) {
                       const T v = static_cast<T>(element(splitmix_high(counter)));
                       std::memcpy(dst + k * sizeof(T), &v, sizeof(T)); // little-endian
                     }
                   });
}

// The two common types' loops: branch-free element functions equal to random_element (the
// tensor_data tests check every type against it), cloned for AVX2 and AVX-512 hosts so that the
// row loop runs vectorised (SplitMix64 needs 64-bit multiplies: AVX-512DQ has them). Integer
// arithmetic and exact float scalings only: the bits do not depend on the clone.
[[gnu::target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")]] void
fill_bf16_elements(std::uint8_t* out, const TileIndex& ix, std::uint64_t b, std::uint64_t e,
                   std::uint64_t seed) {
  fill_draws<std::uint16_t>(out, ix, b, e, seed, [](std::uint64_t draw) {
    // k in [-2^23, 2^23): k · 2^-23 is exact, as is random_element's k / 2^23; |v| < 1 is finite,
    // so bf16 RNE needs no NaN case.
    const auto k = static_cast<std::int32_t>(draw >> 40) - (std::int32_t{1} << 23);
    const std::uint32_t x = f32_bits(static_cast<float>(k) * 0x1p-23f);
    return (x + 0x7FFFu + ((x >> 16) & 1u)) >> 16;
  });
}

[[gnu::target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")]] void
fill_i8_elements(std::uint8_t* out, const TileIndex& ix, std::uint64_t b, std::uint64_t e,
                 std::uint64_t seed) {
  fill_draws<std::uint8_t>(out, ix, b, e, seed, [](std::uint64_t draw) {
    // scale_below(draw, 256) = (draw · 2^8) >> 64 = draw >> 56.
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(draw >> 56) - 128);
  });
}

// Any type, an element at a time (random_element).
template <class T>
void fill_any(ir::ScalarType dtype, std::uint8_t* out, const SeededContents& c, std::uint64_t b,
              std::uint64_t e) {
  fill_elements<T>(out, c.index, b, e,
                   [&](std::uint8_t* dst, std::uint64_t index, std::uint64_t n) {
                     for (std::uint64_t k = 0; k < n; ++k) {
                       const T v = static_cast<T>(random_element(dtype, c.seed, index + k));
                       std::memcpy(dst + k * sizeof(T), &v, sizeof(T)); // little-endian
                     }
                   });
}

} // namespace

void generate_elements(ir::ScalarType dtype, const SeededContents& c, std::uint64_t begin,
                       std::uint64_t end, std::uint8_t* out) {
  if (dtype == ir::ScalarType::BF16) return fill_bf16_elements(out, c.index, begin, end, c.seed);
  if (dtype == ir::ScalarType::I8) return fill_i8_elements(out, c.index, begin, end, c.seed);
  switch (element_bytes(dtype)) {
  case 1:
    return fill_any<std::uint8_t>(dtype, out, c, begin, end);
  case 2:
    return fill_any<std::uint16_t>(dtype, out, c, begin, end);
  default:
    return fill_any<std::uint32_t>(dtype, out, c, begin, end);
  }
}

void FillJob::add(LogicalTensor& t, SeededContents contents) {
  const std::uint64_t n = t.elements();
  if (n == 0) return;
  // About 1 Mi elements a chunk (at least 64 Ki, so that a small tensor still spreads over a few
  // threads).
  const std::uint64_t chunks =
      std::clamp<std::uint64_t>(std::max(n >> 20, std::min<std::uint64_t>(n >> 16, 16)), 1, 256);
  for (std::uint64_t c = 0; c < chunks; ++c)
    chunks_.push_back({parts_.size(), n * c / chunks, n * (c + 1) / chunks});
  parts_.push_back({&t, std::move(contents)});
  elements_ += n;
}

std::size_t FillJob::work() {
  std::size_t filled = 0;
  for (std::size_t c; (c = next_.fetch_add(1)) < chunks_.size(); ++filled) {
    const Part& p = parts_[chunks_[c].part];
    LogicalTensor& t = *p.tensor;
    const std::uint64_t b = chunks_[c].begin;
    generate_elements(t.dtype, p.contents, b, chunks_[c].end,
                      t.data.data() + b * element_bytes(t.dtype));
  }
  return filled;
}

void FillJob::run(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  // At least 64 Ki elements a thread: a thread costs more than filling fewer.
  const std::uint64_t workers = std::clamp<std::uint64_t>(
      elements_ >> 16, 1,
      std::min<std::uint64_t>(threads, std::max<std::size_t>(1, chunks_.size())));
  std::vector<std::thread> pool;
  for (std::uint64_t w = 1; w < workers; ++w) pool.emplace_back([this] { work(); });
  work();
  for (auto& th : pool) th.join();
}

void fill_random(LogicalTensor& t, std::uint64_t seed, const TileIndex& index, unsigned threads) {
  FillJob job;
  job.add(t, {seed, index});
  job.run(threads);
}

void fill_random(LogicalTensor& t, std::uint64_t seed) {
  fill_random(t, seed, tile_index(t.axes, t.axes), 1);
}

} // namespace tujit::runtime

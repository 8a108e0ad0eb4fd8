#include "runtime/tensor/logical_tensor.h"

#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"
#include "runtime/scalar/widen.h"
#include "runtime/tensor/float_round.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <set>
#include <thread>

#include <sys/mman.h>

namespace tujit::runtime {

std::vector<std::uint64_t> LogicalTensor::shape() const {
  std::vector<std::uint64_t> s;
  s.reserve(axes.size());
  for (const auto& a : axes) s.push_back(a.size);
  return s;
}

std::uint64_t LogicalTensor::offset(const ir::Index& ix) const {
  std::uint64_t off = 0;
  for (const auto& a : axes) {
    auto it = ix.find(a.name);
    off = off * a.size + (it == ix.end() ? 0 : it->second);
  }
  return off;
}

std::string LogicalTensor::coordinate_text(std::uint64_t off) const {
  std::vector<std::uint64_t> coord(axes.size());
  for (std::size_t k = axes.size(); k-- > 0;) {
    coord[k] = off % axes[k].size;
    off /= axes[k].size;
  }
  std::string s;
  for (std::size_t k = 0; k < axes.size(); ++k)
    s += fmt::format("{}{}={}", k ? ", " : "", axes[k].name, coord[k]);
  return s.empty() ? "(scalar)" : s;
}

std::vector<ir::Axis> tensor_axes(const ir::TensorType& type, const ir::AxisTable& table) {
  std::set<std::string> used;
  for (const auto& arg : ir::tensor_args(type.kind)) {
    if (arg.kind != ir::TensorArg::Kind::Mapping) continue;
    for (const auto& a : type.mapping(arg.slot).axes()) used.insert(a.name);
  }
  std::vector<ir::Axis> out;
  for (const auto& a : table.axes())
    if (used.count(a.name) != 0) out.push_back(a);
  return out;
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t k = 0; k < shape.size(); ++k) s += fmt::format("{}{}", k ? ", " : "", shape[k]);
  return s + "]";
}

std::string axes_text(const std::vector<ir::Axis>& axes) {
  std::string text;
  for (const auto& a : axes)
    text += fmt::format("{}{}={}", text.empty() ? "" : ", ", a.name, a.size);
  return "[" + text + "]";
}

LogicalTensor leading_block(const LogicalTensor& t, const std::vector<ir::Axis>& axes) {
  LogicalTensor b;
  b.dtype = t.dtype;
  b.axes = axes;
  std::uint64_t n = 1;
  for (const auto& a : axes) n *= a.size;
  const std::uint32_t w = element_bytes(t.dtype);
  b.data.resize(static_cast<std::size_t>(n * w));
  // Row-major over the block; `src` follows the same coordinates in t.
  std::vector<std::uint64_t> c(axes.size(), 0);
  for (std::uint64_t k = 0; k < n; ++k) {
    std::uint64_t src = 0;
    for (std::size_t a = 0; a < axes.size(); ++a) src = src * t.axes[a].size + c[a];
    std::memcpy(b.data.data() + k * w, t.data.data() + src * w, w);
    for (std::size_t a = axes.size(); a-- > 0;) {
      if (++c[a] < axes[a].size) break;
      c[a] = 0;
    }
  }
  return b;
}

Result<LogicalTensor> make_logical_tensor(ir::ScalarType dtype, std::vector<ir::Axis> axes,
                                          std::uint64_t max_elements, TensorInit init) {
  std::uint64_t n = 1;
  std::vector<std::uint64_t> shape;
  for (const auto& a : axes) {
    shape.push_back(a.size);
    if (a.size != 0 && n > std::numeric_limits<std::uint64_t>::max() / a.size) n = 0;
    n = n == 0 ? 0 : n * a.size;
    if (n == 0 && a.size != 0)
      return make_error(
          "E-RUN-001",
          fmt::format("a tensor of shape {} has too many elements to count", shape_text(shape)));
  }
  if (n > max_elements)
    return make_error("E-RUN-001",
                      fmt::format("a tensor of shape {} has {} elements, more than the limit of {}",
                                  shape_text(shape), n, max_elements));
  LogicalTensor t;
  t.dtype = dtype;
  t.axes = std::move(axes);
  t.data.resize(static_cast<std::size_t>(n * element_bytes(dtype)));
  if (init == TensorInit::Zero) std::fill(t.data.begin(), t.data.end(), std::uint8_t{0});
  return t;
}

// ---------------------------------------------------------------------------------------------

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

void* allocate_tensor_memory(std::size_t bytes) {
  if (bytes < kHugeBlockBytes) return ::operator new(bytes);
  const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* p = ::operator new (rounded, std::align_val_t{kHugePageBytes});
  // Advice only: where huge pages are off or unavailable the memory is ordinary.
  (void)::madvise(p, rounded, MADV_HUGEPAGE);
  return p;
}

void release_tensor_memory(void* p, std::size_t bytes) noexcept {
  if (bytes < kHugeBlockBytes)
    ::operator delete(p);
  else
    ::operator delete (p, std::align_val_t{kHugePageBytes});
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

// Rows [row_begin, row_end) of the tile (a row = the innermost axis, contiguous in both the tile
// and the whole tensor) with the element function `gen` stored as T. Always inlined, so each
// caller below compiles it for its own target.
template <class T, class Gen>
[[gnu::always_inline]] inline void fill_rows(std::uint8_t* data, const TileIndex& ix,
                                             std::uint64_t row_begin, std::uint64_t row_end,
                                             Gen gen) {
  const std::uint64_t len = ix.extent.empty() ? 1 : ix.extent.back();
  for (std::uint64_t r = row_begin; r < row_end; ++r) {
    const std::uint64_t base = ix.whole_offset(r * len);
    std::uint8_t* out = data + r * len * sizeof(T);
    for (std::uint64_t k = 0; k < len; ++k) {
      const T v = static_cast<T>(gen(base + k));
      std::memcpy(out + k * sizeof(T), &v, sizeof(T)); // little-endian
    }
  }
}

// The two common types' loops: branch-free element functions equal to random_element (the
// tensor_data tests check every type against it), cloned for AVX2 and AVX-512 hosts so that the
// row loop runs vectorised (SplitMix64 needs 64-bit multiplies: AVX-512DQ has them). Integer
// arithmetic and exact float scalings only: the bits do not depend on the clone.
[[gnu::target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")]] void
fill_bf16_rows(std::uint8_t* data, const TileIndex& ix, std::uint64_t b, std::uint64_t e,
               std::uint64_t seed) {
  fill_rows<std::uint16_t>(data, ix, b, e, [seed](std::uint64_t i) {
    const std::uint64_t draw = splitmix(seed + (i + 1) * kGolden);
    // k in [-2^23, 2^23): k · 2^-23 is exact, as is random_element's k / 2^23; |v| < 1 is finite,
    // so bf16 RNE needs no NaN case.
    const auto k = static_cast<std::int32_t>(draw >> 40) - (std::int32_t{1} << 23);
    const std::uint32_t x = f32_bits(static_cast<float>(k) * 0x1p-23f);
    return (x + 0x7FFFu + ((x >> 16) & 1u)) >> 16;
  });
}

[[gnu::target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")]] void
fill_i8_rows(std::uint8_t* data, const TileIndex& ix, std::uint64_t b, std::uint64_t e,
             std::uint64_t seed) {
  fill_rows<std::uint8_t>(data, ix, b, e, [seed](std::uint64_t i) {
    // scale_below(draw, 256) = (draw · 2^8) >> 64 = draw >> 56.
    const std::uint64_t draw = splitmix(seed + (i + 1) * kGolden);
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(draw >> 56) - 128);
  });
}

void fill_some_rows(LogicalTensor& t, std::uint64_t seed, const TileIndex& ix, std::uint64_t b,
                    std::uint64_t e) {
  const ir::ScalarType d = t.dtype;
  if (d == ir::ScalarType::BF16) return fill_bf16_rows(t.data.data(), ix, b, e, seed);
  if (d == ir::ScalarType::I8) return fill_i8_rows(t.data.data(), ix, b, e, seed);
  const auto gen = [seed, d](std::uint64_t i) { return random_element(d, seed, i); };
  switch (element_bytes(d)) {
  case 1:
    return fill_rows<std::uint8_t>(t.data.data(), ix, b, e, gen);
  case 2:
    return fill_rows<std::uint16_t>(t.data.data(), ix, b, e, gen);
  default:
    return fill_rows<std::uint32_t>(t.data.data(), ix, b, e, gen);
  }
}

} // namespace

void fill_random(LogicalTensor& t, std::uint64_t seed, const TileIndex& index, unsigned threads) {
  const std::uint64_t len =
      index.extent.empty() ? 1 : std::max<std::uint64_t>(1, index.extent.back());
  const std::uint64_t rows = t.elements() / len;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  // At least 64 Ki elements a thread: a thread costs more than filling fewer.
  const std::uint64_t workers =
      std::clamp<std::uint64_t>(t.elements() >> 16, 1, std::min<std::uint64_t>(threads, rows));
  // Chunks of about 1 Mi elements taken in turn: a worker that shares its core with other work of
  // the run (the lowering) takes fewer, and no core idles while the other fills a fixed half.
  const std::uint64_t chunks =
      std::clamp<std::uint64_t>(t.elements() >> 20, workers, std::min<std::uint64_t>(256, rows));
  std::atomic<std::uint64_t> next{0};
  const auto work = [&] {
    for (std::uint64_t c; (c = next.fetch_add(1)) < chunks;)
      fill_some_rows(t, seed, index, rows * c / chunks, rows * (c + 1) / chunks);
  };
  std::vector<std::thread> pool;
  for (std::uint64_t w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
}

void fill_random(LogicalTensor& t, std::uint64_t seed) {
  fill_random(t, seed, tile_index(t.axes, t.axes), 1);
}

double element_value(ir::ScalarType t, std::uint32_t bits) {
  switch (ir::encoding(t)) {
  case ir::Encoding::TwosComplement:
  case ir::Encoding::Unsigned:
    return static_cast<double>(element_integer(t, bits));
  case ir::Encoding::Bf16: // the literal form: a stored subnormal is its value
    return static_cast<double>(
        f32_from_bits(bf16_literal_to_f32(static_cast<std::uint16_t>(bits))));
  case ir::Encoding::F8E4M3:
  case ir::Encoding::F8E5M2:
  case ir::Encoding::F4E2M1:
  case ir::Encoding::F32:
    return static_cast<double>(f32_from_bits(widen_bits(t, bits)));
  }
  return 0.0;
}

std::int64_t element_integer(ir::ScalarType t, std::uint32_t bits) {
  if (ir::is_float(t)) return 0;
  if (t == ir::ScalarType::U8) return static_cast<std::int64_t>(bits & 0xFFu);
  return static_cast<std::int64_t>(static_cast<std::int32_t>(bits));
}

std::vector<std::uint8_t> tensor_bytes(const LogicalTensor& t) {
  return {t.data.begin(), t.data.end()};
}

} // namespace tujit::runtime

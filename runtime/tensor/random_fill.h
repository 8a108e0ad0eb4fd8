// Seeded random contents of logical tensors. The generator is counter-based: each element is a
// pure function of the seed and of its coordinate in the whole tensor, so a tile, any chunking,
// any thread count and either engine see the same inputs (docs/cli.md §6).
#pragma once

#include "runtime/tensor/logical_tensor.h"

#include <atomic>
#include <cstdint>
#include <string_view>
#include <vector>

namespace tujit::runtime {

/// splitmix64 (Steele, Lea, Flood 2014): a tiny generator whose output is fixed by its
/// definition, so seeded inputs are identical on every platform and compiler (std::
/// distributions are implementation-defined).
class SplitMix64 {
public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  /// Uniform in [0, n) (n >= 1) by 128-bit multiply-shift; deterministic.
  std::uint64_t below(std::uint64_t n);

private:
  std::uint64_t state_;
};

/// The seed of one named parameter: mixes the run seed with the FNV-1a hash of the name, so
/// parameters get independent streams and adding a parameter does not change the others.
std::uint64_t parameter_seed(std::uint64_t run_seed, std::string_view name);

/// The row-major offset of each element of a tile within the whole logical tensor (`whole` axes,
/// same names and order, each at least the tile's size), so that a tile's elements are indexed by
/// their coordinates rather than by their place in the tile.
struct TileIndex {
  std::vector<std::uint64_t> extent;       // the tile's shape
  std::vector<std::uint64_t> whole_stride; // row-major strides of the whole tensor
  std::uint64_t whole_offset(std::uint64_t tile_offset) const;
};
TileIndex tile_index(const std::vector<ir::Axis>& tile, const std::vector<ir::Axis>& whole);

/// The contents of a seeded tensor, as a recipe: element k of its tile is random_element at
/// index.whole_offset(k). A run that needs only part of a tensor at a time generates that part
/// where it is read (generate_elements) instead of filling the whole tensor first.
struct SeededContents {
  std::uint64_t seed = 0;
  TileIndex index;
};

/// The seeded random element of `dtype` at logical offset `index` (a counter-based generator:
/// splitmix64 of seed + (index + 1)·γ, so each element is a pure function of its coordinate and
/// any order or thread count gives the same tensor).
std::uint32_t random_element(ir::ScalarType dtype, std::uint64_t seed, std::uint64_t index);

/// The values a seeded fill gives (element k of `t` takes random_element at
/// index.whole_offset(k)):
/// - integers: uniform over the whole type range for i4 i5 i8 i9 u8 i16; i32 in [-2^20, 2^20]
///   (integer contractions wrap exactly, so any range is meaningful);
/// - floats: uniform in [-1, 1) at 2^-23 resolution, rounded to the type with round to nearest
///   even (f8e5m2 included: see runtime/npy/npy_convert.h), never NaN or infinite. Values of
///   both signs of similar magnitude make sums cancel partially, so the f32 tolerance of
///   docs/contraction.md §9.5 is exercised without overflow.
///
/// Elements [begin, end) of the tile (row-major offsets in it) of a seeded tensor of `dtype`,
/// stored at their natural width from `out` (element `begin` first): exactly what a fill of the
/// whole tensor puts there.
void generate_elements(ir::ScalarType dtype, const SeededContents& contents, std::uint64_t begin,
                       std::uint64_t end, std::uint8_t* out);

/// A FillJob holds the fills of several tensors as chunks (about 1 Mi elements each) that
/// any thread takes in turn: a thread busy with other work of the run (the lowering) joins when it
/// is free and takes what is left, and no core idles while another fills a fixed share. Which
/// thread fills which chunk never changes a bit.
class FillJob {
public:
  FillJob() = default;
  FillJob(const FillJob&) = delete;
  FillJob& operator=(const FillJob&) = delete;

  /// Adds the fill of `t` with `contents`; `t` must outlive the job's work and not move.
  void add(LogicalTensor& t, SeededContents contents);
  /// Fills chunks until none is left and returns how many it filled; any number of threads may
  /// call it at once (not during add()). The job is done when every caller has returned.
  std::size_t work();
  /// work() on `threads` threads, the caller one of them (0 = every hardware thread; never more
  /// than one per 64 Ki elements), and returns when they are all done.
  void run(unsigned threads);

private:
  struct Part {
    LogicalTensor* tensor;
    SeededContents contents;
  };
  struct Chunk {
    std::size_t part;
    std::uint64_t begin, end; // elements of the part's tile
  };
  std::vector<Part> parts_;
  std::vector<Chunk> chunks_;
  std::uint64_t elements_ = 0;
  std::atomic<std::size_t> next_{0};
};

/// Fills `t` (FillJob::run of that one fill).
void fill_random(LogicalTensor& t, std::uint64_t seed, const TileIndex& index,
                 unsigned threads = 1);
/// fill_random over the tensor itself (it is the whole tensor).
void fill_random(LogicalTensor& t, std::uint64_t seed);

} // namespace tujit::runtime

// Random valid mapping expressions for property tests (docs/mapping.md §1.3): every generated
// tree satisfies the static rules by construction, covers every node kind (nested pairs, strides
// and moduli of pairs, ragged paddings of all kinds) and keeps every SIZE <= max_size so that
// brute-force checks over all positions stay cheap.
#pragma once

#include "ir/mapping/mapping.h"

#include <cstdint>
#include <random>

namespace tujit::testing {

struct MappingGenOptions {
  int max_depth = 4;                // tree height above the leaves
  std::uint64_t max_size = 4096;    // bound on the SIZE of every subexpression
  int max_axes = 4;                 // axes per generated table (next())
  std::uint64_t max_axis_size = 64; // bound on generated axis sizes
  bool allow_padding = true;        // `#`, `#{0}`, `#{!}`
  bool allow_broadcast = true;      // `n` leaves with n >= 2 (`1` always may appear)
  bool allow_resize = true;         // `= r`
  bool allow_repeat_axis = false;   // one axis named twice in one expression (may overshoot)
};

struct GeneratedMapping {
  ir::AxisTable axes;
  ir::Mapping mapping;
};

class MappingGenerator {
public:
  explicit MappingGenerator(std::uint64_t seed, MappingGenOptions opts = {});
  /// Fresh random axes and a valid expression over them.
  GeneratedMapping next();
  /// A valid expression over the given axes.
  ir::Mapping next_over(const ir::AxisTable& axes);
  std::mt19937_64& rng() { return rng_; }

private:
  ir::AxisTable random_axes();
  MappingGenOptions opts_;
  std::mt19937_64 rng_;
};

/// A mapping of exactly `n` cells built from `m`: padded up, or cut with `% n` when n divides it;
/// `n` cells of padding otherwise.
inline ir::Mapping sized_mapping(const ir::Mapping& m, std::uint64_t n) {
  if (m.size() <= n) {
    auto p = ir::Mapping::padding(m, n, ir::PaddingKind::Top);
    if (p.ok()) return *p;
  } else if (m.size() % n == 0) {
    auto p = ir::Mapping::modulo(m, n);
    if (p.ok()) return *p;
  }
  return *ir::Mapping::padding(ir::Mapping(), n, ir::PaddingKind::Top);
}

} // namespace tujit::testing

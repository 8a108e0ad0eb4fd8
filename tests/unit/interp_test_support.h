// Helpers of the reference-interpreter tests ("[interp]"): kernels from spec text, device images
// filled from the mappings' cells, and an independent brute-force einsum over device images.
//
// The brute force knows nothing of the stages: it refines every axis into elementary digits (the
// digit boundaries of every term of every mapping involved), describes each live cell of the
// stream (Time ∪ Packet), the TRF (Lane ∪ Element) and the output (T3 ∪ P3) by the digits its
// mapping determines, and sums, for every live output cell, the products of every pair of live
// stream and TRF cells that agree with each other and with the output cell on every digit both
// sides determine. Per slice; the spatial digits are common to all three and left out.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/mapping/factor.h"
#include "ir/mapping/mapping.h"
#include "ir/seq/lower_contraction.h"
#include "ir/seq/run_program.h"
#include "runtime/device/device_image.h"
#include "runtime/interp/interpreter.h"
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"
#include "tests/support/run_case.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tujit::testing::interp {

using runtime::CellState;
using runtime::DeviceImage;

inline ir::SpecFile parse_spec(const std::string& text) {
  auto r = ir::analyze_spec(SourceBuffer("interp_test.rs", text));
  if (!r) {
    for (const auto& d : r.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  }
  REQUIRE(r.ok());
  return std::move(r).value();
}

/// Deterministic 64-bit mixer (splitmix64).
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

inline std::uint64_t hash_index(const ir::Index& ix, std::uint64_t seed) {
  std::uint64_t h = mix(seed);
  for (const auto& [axis, v] : ix) {
    if (v == 0) continue;
    for (char ch : axis) h = mix(h ^ static_cast<unsigned char>(ch));
    h = mix(h ^ v);
  }
  return h;
}

/// A valid code of `t` from a hash: full range for integers, a small integer value in
/// [-4, 4] for floats (so every sum of a test stays exact in f32).
inline std::uint32_t code_from_hash(ir::ScalarType t, std::uint64_t h) {
  if (ir::is_integer(t)) {
    const auto range = *ir::integer_range(t);
    const auto span = static_cast<std::uint64_t>(range.second - range.first + 1);
    const std::int64_t v = range.first + static_cast<std::int64_t>(h % span);
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(v));
  }
  const float k = static_cast<float>(static_cast<int>(h % 9) - 4);
  switch (ir::encoding(t)) {
  case ir::Encoding::Bf16:
    return runtime::f32_bits(k) >> 16;
  case ir::Encoding::F8E4M3:
    return runtime::enc_e4m3(runtime::f32_bits(k));
  case ir::Encoding::F8E5M2:
    return runtime::enc_e5m2(runtime::f32_bits(k));
  case ir::Encoding::F32:
  case ir::Encoding::F4E2M1:         // never an operand
  case ir::Encoding::TwosComplement: // integers are handled above
  case ir::Encoding::Unsigned:
    return runtime::f32_bits(k);
  }
  return 0;
}

/// The value of a device code as a double (exact for every operand type).
inline double code_value(ir::ScalarType t, std::uint32_t bits) {
  switch (ir::encoding(t)) {
  case ir::Encoding::Bf16:
    return runtime::f32_from_bits(runtime::widen_bf16(static_cast<std::uint16_t>(bits)));
  case ir::Encoding::F8E4M3:
    return runtime::f32_from_bits(runtime::dec_e4m3(static_cast<std::uint8_t>(bits)));
  case ir::Encoding::F8E5M2:
    return runtime::f32_from_bits(runtime::dec_e5m2(static_cast<std::uint8_t>(bits)));
  case ir::Encoding::F32:
    return runtime::f32_from_bits(bits);
  case ir::Encoding::TwosComplement:
  case ir::Encoding::Unsigned:
  case ir::Encoding::F4E2M1: // never an operand
    return static_cast<double>(static_cast<std::int32_t>(bits));
  }
  return 0.0;
}

/// Liveness of every spatial position (Chip × Cluster × Slice, flattened in that order).
inline std::vector<bool> spatial_liveness(const ir::Mapping& chip, const ir::Mapping& cluster,
                                          const ir::Mapping& slice) {
  std::vector<bool> live;
  for (std::uint64_t a = 0; a < chip.size(); ++a)
    for (std::uint64_t b = 0; b < cluster.size(); ++b)
      for (std::uint64_t c = 0; c < slice.size(); ++c)
        live.push_back(chip.map(a).is_live() && cluster.map(b).is_live() && slice.map(c).is_live());
  return live;
}

/// An image over [spatial][|outer|][|inner|]: the cell at (o, i) is combine(outer(o), inner(i));
/// live cells get code_from_hash of their coordinates (and slice), Zero padding 0, Top padding
/// the poison bits, Bottom padding and dead slices Bottom.
inline DeviceImage fill_image(ir::ScalarType t, const std::vector<bool>& spatial_live,
                              const ir::Mapping& outer, const ir::Mapping& inner,
                              std::uint64_t seed) {
  DeviceImage img(t, spatial_live.size(), outer.size(), inner.size());
  // The cells do not depend on the slice: classify them once.
  std::vector<CellState> state(img.outer * img.inner, CellState::Bottom);
  std::vector<std::uint64_t> hash(img.outer * img.inner, 0);
  std::vector<ir::Cell> in_cells;
  for (std::uint64_t i = 0; i < img.inner; ++i) in_cells.push_back(inner.map(i));
  for (std::uint64_t o = 0; o < img.outer; ++o) {
    const ir::Cell oc = outer.map(o);
    for (std::uint64_t i = 0; i < img.inner; ++i) {
      const ir::Cell c = ir::combine(oc, in_cells[i]);
      const std::uint64_t k = o * img.inner + i;
      if (c.is_live()) {
        state[k] = CellState::Live;
        hash[k] = hash_index(c.index, seed);
      } else if (c.kind == ir::Cell::Kind::Padding && c.padding == ir::PaddingKind::Zero) {
        state[k] = CellState::Zero;
      } else if (c.kind == ir::Cell::Kind::Padding && c.padding == ir::PaddingKind::Top) {
        state[k] = CellState::Top;
      }
    }
  }
  for (std::uint64_t s = 0; s < img.spatial; ++s) {
    if (!spatial_live[s]) continue;
    for (std::uint64_t k = 0; k < state.size(); ++k) {
      const std::uint64_t g = s * state.size() + k;
      img.state[g] = state[k];
      if (state[k] == CellState::Live) img.bits[g] = code_from_hash(t, mix(hash[k] ^ mix(s)));
      if (state[k] == CellState::Top) img.bits[g] = runtime::poison_bits(t);
    }
  }
  return img;
}

/// Elementary digits of every axis used by a set of mappings (see the file comment).
class DigitSpace {
public:
  struct Digit {
    std::string axis;
    std::uint64_t lo = 1, hi = 1;
  };

  /// nullopt when a mapping has a composite atom or the digit boundaries do not nest.
  static std::optional<DigitSpace> of(const std::vector<ir::Mapping>& ms) {
    std::map<std::string, std::set<std::uint64_t>> bounds;
    for (const auto& m : ms) {
      for (const auto& f : ir::factorize(m).factors) {
        if (!f.is_term()) continue;
        if (f.atom.is_composite()) return std::nullopt;
        auto& b = bounds[f.atom.name];
        b.insert(1);
        b.insert(f.atom.size);
        b.insert(f.stride);
        b.insert(f.stride * f.count);
      }
    }
    DigitSpace d;
    for (const auto& [axis, b] : bounds) {
      std::vector<std::uint64_t> v(b.begin(), b.end());
      for (std::size_t i = 0; i + 1 < v.size(); ++i) {
        if (v[i + 1] % v[i] != 0) return std::nullopt;
        d.digits_.push_back({axis, v[i], v[i + 1]});
      }
    }
    return d;
  }

  /// Which digits a set of mappings (whose cells are combined) determines.
  std::vector<bool> coverage(const std::vector<ir::Mapping>& ms) const {
    std::vector<bool> cov(digits_.size(), false);
    for (const auto& m : ms)
      for (const auto& f : ir::factorize(m).factors) {
        if (!f.is_term()) continue;
        for (std::size_t k = 0; k < digits_.size(); ++k)
          if (digits_[k].axis == f.atom.name && f.stride <= digits_[k].lo &&
              digits_[k].hi <= f.stride * f.count)
            cov[k] = true;
      }
    return cov;
  }

  /// The digits of a live cell on the digits in `cov` (others -1).
  std::vector<std::int64_t> digits_of(const ir::Cell& c, const std::vector<bool>& cov) const {
    std::vector<std::int64_t> out(digits_.size(), -1);
    for (std::size_t k = 0; k < digits_.size(); ++k) {
      if (!cov[k]) continue;
      auto it = c.index.find(digits_[k].axis);
      const std::uint64_t v = it == c.index.end() ? 0 : it->second;
      out[k] = static_cast<std::int64_t>((v / digits_[k].lo) % (digits_[k].hi / digits_[k].lo));
    }
    return out;
  }

  std::size_t size() const { return digits_.size(); }

private:
  std::vector<Digit> digits_;
};

inline std::vector<std::int64_t> project(const std::vector<std::int64_t>& v,
                                         const std::vector<bool>& a, const std::vector<bool>& b) {
  std::vector<std::int64_t> out;
  for (std::size_t k = 0; k < v.size(); ++k)
    if (a[k] && b[k]) out.push_back(v[k]);
  return out;
}

/// The expected output of a contraction chain: [spatial][|T3|][8] values (double; integer
/// results as int64 before the i32 wrap) and whether each output cell is live.
struct Expected {
  std::vector<double> value;
  std::vector<std::int64_t> ivalue;
  std::vector<bool> live;
};

/// Brute-force einsum (file comment). nullopt when the mappings are outside what DigitSpace
/// handles. The pairs (stream cell, TRF cell) of every output cell are found once by joining the
/// cells on their digits; each slice then sums the pairs whose two cells are Live in the images.
inline std::optional<Expected> brute_force(const ir::seq::ChainMappings& m,
                                           const DeviceImage& stream, const DeviceImage& trf) {
  auto space = DigitSpace::of({m.time, m.packet, m.lane, m.element, m.t3, m.p3});
  if (!space) return std::nullopt;
  const auto cs = space->coverage({m.time, m.packet});
  const auto cw = space->coverage({m.lane, m.element});
  const auto co = space->coverage({m.t3, m.p3});
  const auto spatial_live = spatial_liveness(m.chip, m.cluster, m.slice);
  const std::uint64_t t3 = m.t3.size(), p3 = m.p3.size();
  const std::uint64_t packet = m.packet.size(), element = m.element.size();

  // Stream cells grouped by their digits shared with the output.
  std::map<std::vector<std::int64_t>,
           std::vector<std::pair<std::uint64_t, std::vector<std::int64_t>>>>
      xs;
  for (std::uint64_t f = 0; f < m.time.size(); ++f)
    for (std::uint64_t i = 0; i < packet; ++i) {
      const ir::Cell c = ir::combine(m.time.map(f), m.packet.map(i));
      if (!c.is_live()) continue;
      const auto d = space->digits_of(c, cs);
      xs[project(d, cs, co)].emplace_back(f * packet + i, project(d, cs, cw));
    }
  // TRF cells grouped by (digits shared with the output, digits shared with the stream).
  std::map<std::vector<std::int64_t>,
           std::map<std::vector<std::int64_t>, std::vector<std::uint64_t>>>
      ws;
  for (std::uint64_t l = 0; l < m.lane.size(); ++l)
    for (std::uint64_t a = 0; a < element; ++a) {
      const ir::Cell c = ir::combine(m.lane.map(l), m.element.map(a));
      if (!c.is_live()) continue;
      const auto d = space->digits_of(c, cw);
      ws[project(d, cw, co)][project(d, cw, cs)].push_back(l * element + a);
    }
  // Per output cell (position in one slice): its (stream, TRF) pairs.
  std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> pairs(t3 * p3);
  std::vector<bool> out_live(t3 * p3, false);
  for (std::uint64_t u = 0; u < t3; ++u)
    for (std::uint64_t j = 0; j < p3; ++j) {
      const ir::Cell oc = ir::combine(m.t3.map(u), m.p3.map(j));
      if (!oc.is_live()) continue;
      out_live[u * p3 + j] = true;
      const auto od = space->digits_of(oc, co);
      auto xit = xs.find(project(od, co, cs));
      auto wit = ws.find(project(od, co, cw));
      if (xit == xs.end() || wit == ws.end()) continue;
      for (const auto& [xpos, xkey] : xit->second) {
        auto w2 = wit->second.find(xkey);
        if (w2 == wit->second.end()) continue;
        for (std::uint64_t wpos : w2->second) pairs[u * p3 + j].emplace_back(xpos, wpos);
      }
    }

  Expected e;
  e.value.assign(spatial_live.size() * t3 * p3, 0.0);
  e.ivalue.assign(spatial_live.size() * t3 * p3, 0);
  e.live.assign(spatial_live.size() * t3 * p3, false);
  const std::uint64_t xslice = m.time.size() * packet, wslice = m.lane.size() * element;
  for (std::uint64_t s = 0; s < spatial_live.size(); ++s) {
    if (!spatial_live[s]) continue;
    for (std::uint64_t o = 0; o < t3 * p3; ++o) {
      if (!out_live[o]) continue;
      const std::uint64_t oi = s * t3 * p3 + o;
      e.live[oi] = true;
      double sum = 0;
      std::int64_t isum = 0;
      for (const auto& [xpos, wpos] : pairs[o]) {
        const std::uint64_t xk = s * xslice + xpos, wk = s * wslice + wpos;
        if (stream.state[xk] != CellState::Live || trf.state[wk] != CellState::Live) continue;
        sum += code_value(stream.dtype, stream.bits[xk]) * code_value(trf.dtype, trf.bits[wk]);
        isum += static_cast<std::int64_t>(static_cast<std::int32_t>(stream.bits[xk])) *
                static_cast<std::int32_t>(trf.bits[wk]);
      }
      e.value[oi] = sum;
      e.ivalue[oi] = isum;
    }
  }
  return e;
}

/// Bits the interpreter must produce for an expected value of accumulator type `acc`.
inline std::uint32_t expected_bits(ir::ScalarType acc, const Expected& e, std::size_t i) {
  if (acc == ir::ScalarType::I32) return static_cast<std::uint32_t>(e.ivalue[i]);
  return runtime::f32_bits(static_cast<float>(e.value[i]));
}

/// A chain's run seen as images: the output image of its output view (run_case.h output_image),
/// the poison report and the simulated MACs — what the tests of cell-level semantics compare.
struct ImageRun {
  DeviceImage output;
  runtime::PoisonReport poison;
  std::uint64_t simulated_macs = 0;
};

/// The logical inputs whose live cells are the live cells of the images (the images' states must
/// be the chain's own, as fill_image makes them).
struct ImageInputs {
  testing::ChainRun run;
  runtime::LogicalTensor stream, trf;
  runtime::RunInputs inputs() const { return chain_inputs(stream, trf); }
};
inline ImageInputs image_inputs(const ir::seq::ContractionProgram& plan, const DeviceImage& stream,
                                const DeviceImage& trf) {
  ImageInputs in{chain_run_of(plan), {}, {}};
  const auto cell = [](const DeviceImage& img) {
    return [&img](std::uint64_t s, std::uint64_t o, std::uint64_t i) {
      return img.bits[img.index(s, o, i)];
    };
  };
  in.stream = tensor_of_cells(in.run.program.contraction().stream.streams, cell(stream));
  in.trf = tensor_of_cells(in.run.program.contraction().trf.streams, cell(trf));
  return in;
}

/// Runs the chain on the reference interpreter with the images' live cells as inputs.
inline Result<ImageRun> run_images(const ir::seq::ContractionProgram& plan,
                                   const DeviceImage& stream, const DeviceImage& trf) {
  const ImageInputs in = image_inputs(plan, stream, trf);
  auto r = runtime::interpret(in.run.program, in.inputs());
  if (!r) return std::move(r).take_diagnostics();
  return ImageRun{output_image(in.run.program, *r), r->poison, r->simulated_macs};
}

} // namespace tujit::testing::interp

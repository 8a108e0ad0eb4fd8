#include "tests/support/kernel_gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

namespace tujit::testing {

namespace {

// ---------------------------------------------------------------------------------------------
// A digit model of mappings: every mapping the generator writes is a list of digits (outer →
// inner), each a piece `base / stride % count` of an axis (possibly padded, `K # 64`) or a piece
// of pure padding (`1 # n`: position 0 live). Splitting a list at n cells cuts through one digit
// exactly as contraction.md §0 `split` does, so the generator can write Time/Packet/OP/Element
// pieces that the verifiers must find equivalent.
// ---------------------------------------------------------------------------------------------

enum class Pad { None, Top, Zero };

struct Digit {
  std::string base;            // "K", "K # 64", "K #{0} 64"; unused for pad_only
  std::uint64_t base_size = 1; // padded extent of base
  std::uint64_t stride = 1;
  std::uint64_t count = 1;
  bool pad_only = false; // a piece of `1 # n`
};

using Digits = std::vector<Digit>;

std::string padded(const std::string& name, Pad kind, std::uint64_t to) {
  if (kind == Pad::None) return name;
  return fmt::format("{} {} {}", name, kind == Pad::Top ? "#" : "#{0}", to);
}

Digit axis_digit(const std::string& base, std::uint64_t base_size) {
  return Digit{base, base_size, 1, base_size, false};
}

Digit pad_digit(std::uint64_t n) {
  return Digit{"", n, 1, n, true};
}

std::string text(const Digit& d) {
  if (d.count <= 1) return "";
  if (d.pad_only) return fmt::format("1 # {}", d.count);
  std::string s = d.base;
  if (d.stride > 1) s += fmt::format(" / {}", d.stride);
  if (d.stride * d.count < d.base_size) s += fmt::format(" % {}", d.count);
  return s;
}

std::string text(const Digits& ds) {
  std::string s;
  for (const auto& d : ds) {
    std::string t = text(d);
    if (!t.empty()) s += (s.empty() ? "" : ", ") + t;
  }
  return s.empty() ? "1" : s;
}

std::uint64_t size(const Digits& ds) {
  std::uint64_t n = 1;
  for (const auto& d : ds) n *= d.count;
  return n;
}

Digits cat(std::initializer_list<Digits> parts) {
  Digits out;
  for (const auto& p : parts)
    for (const auto& d : p)
      if (d.count > 1) out.push_back(d);
  return out;
}

/// Merges adjacent pieces of one axis that are contiguous (`K / 32, K % 32` → `K`).
Digits merged(const Digits& ds) {
  Digits out;
  for (const auto& d : ds) {
    if (d.count <= 1) continue;
    if (!out.empty()) {
      Digit& o = out.back();
      if (!o.pad_only && !d.pad_only && o.base == d.base && o.stride == d.stride * d.count) {
        o.stride = d.stride;
        o.count *= d.count;
        continue;
      }
    }
    out.push_back(d);
  }
  return out;
}

/// contraction.md §0 split(M, n): (outer, inner) with inner the innermost n cells; nullopt when
/// the cut is not a digit boundary of equal-sized pieces.
std::optional<std::pair<Digits, Digits>> split(const Digits& ds, std::uint64_t n) {
  Digits outer, inner;
  std::uint64_t rem = n;
  for (auto it = ds.rbegin(); it != ds.rend(); ++it) {
    const Digit& d = *it;
    if (d.count <= 1) continue;
    if (rem == 1) {
      outer.insert(outer.begin(), d);
    } else if (d.count <= rem) {
      if (rem % d.count != 0) return std::nullopt;
      inner.insert(inner.begin(), d);
      rem /= d.count;
    } else {
      if (d.count % rem != 0) return std::nullopt;
      Digit in = d, out = d;
      in.count = rem;
      out.stride = d.stride * rem;
      out.count = d.count / rem;
      inner.insert(inner.begin(), in);
      outer.insert(outer.begin(), out);
      rem = 1;
    }
  }
  if (rem != 1) return std::nullopt;
  return std::make_pair(outer, inner);
}

std::uint64_t log2u(std::uint64_t x) {
  std::uint64_t l = 0;
  while (x > 1) x /= 2, ++l;
  return l;
}

std::string join(const std::vector<std::string>& parts, const char* sep = ", ") {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : sep) + p;
  return s;
}

const char* pad_name(Pad p) {
  return p == Pad::Top ? "top" : "zero";
}

// contraction.md §2.1: every legal stream × TRF pair, with the wire width of the family.
struct TypePair {
  const char* stream;
  const char* trf;
  std::uint64_t bits;
  bool integer;
};
constexpr TypePair kAllPairs[] = {
    {"i4", "i4", 4, true},          {"i4", "i5", 4, true},       {"i5", "i4", 4, true},
    {"i5", "i5", 4, true},          {"i8", "i8", 8, true},       {"i8", "i9", 8, true},
    {"i9", "i8", 8, true},          {"i9", "i9", 8, true},       {"f8e4m3", "f8e4m3", 8, false},
    {"f8e5m2", "f8e5m2", 8, false}, {"bf16", "bf16", 16, false},
};

/// The DM type and Fetch Adapter call that produce a stream of `t` (DmFetch form): i5/i9 come
/// from fetch_zero_point_sub on i4/i8 (contraction.md §2.2), the others from an identity
/// fetch_cast or nothing.
std::pair<std::string, std::string> dm_source(const std::string& t, std::int64_t zp, bool cast) {
  if (t == "i5") return {"i4", fmt::format("\n        .fetch_zero_point_sub::<i5>({})", zp)};
  if (t == "i9") return {"i8", fmt::format("\n        .fetch_zero_point_sub::<i9>({})", zp)};
  return {t, cast ? fmt::format("\n        .fetch_cast::<{}>()", t) : std::string()};
}

} // namespace

KernelGenerator::KernelGenerator(std::uint64_t seed, KernelGenOptions options)
    : rng_(seed), opt_(options) {}

std::uint64_t KernelGenerator::pick(std::initializer_list<std::uint64_t> choices) {
  std::uniform_int_distribution<std::size_t> d(0, choices.size() - 1);
  return *(choices.begin() + d(rng_));
}

std::uint64_t KernelGenerator::range(std::uint64_t lo, std::uint64_t hi) {
  std::uniform_int_distribution<std::uint64_t> d(lo, hi);
  return d(rng_);
}

bool KernelGenerator::coin(double p) {
  std::bernoulli_distribution d(p);
  return d(rng_);
}

GeneratedKernel KernelGenerator::next() {
  GeneratedKernel g;
  // A draw that breaks a hardware limit (accumulator buffer, sizes) is redrawn; the sequence
  // stays deterministic for a seed.
  while (!try_next(g)) {}
  return g;
}

bool KernelGenerator::try_next(GeneratedKernel& out) {
  GeneratedKernel g;
  KernelGenFeatures& f = g.features;
  KernelGenExpected& e = g.expected;
  const bool pad_ok = opt_.allow_padding;
  auto pad_kind = [&] { return coin(0.5) ? Pad::Top : Pad::Zero; };

  // Operand pair (§2.1).
  std::vector<TypePair> pairs;
  for (const auto& p : kAllPairs) {
    const std::string s = p.stream;
    if (opt_.allow_all_types || s == "bf16" || (opt_.allow_i8 && s == "i8" && p.trf[1] == '8'))
      pairs.push_back(p);
  }
  const TypePair tp = pairs[range(0, pairs.size() - 1)];
  const std::uint64_t bits = tp.bits;
  const std::uint64_t fe = 256 / bits; // FE(D): elements per 32 B flit
  f.stream_type = tp.stream;
  f.trf_type = tp.trf;
  f.accumulator = tp.integer ? "i32" : "f32";
  f.form = opt_.form == KernelForm::DmFetch || (opt_.form == KernelForm::Mixed && coin(0.5))
               ? "dm"
               : "collect";

  // Lane (§4.2): the lane axis N, padded to the lane count when N is not 1, 2, 4 or 8.
  const std::uint64_t lanes = pick({1, 2, 4, 8});
  std::uint64_t n_real = lanes;
  Pad lane_pad = Pad::None;
  if (lanes >= 4 && pad_ok && coin(0.2)) {
    n_real = range(lanes / 2 + 1, lanes - 1);
    lane_pad = pad_kind();
    f.padding.push_back(fmt::format("lane:{}", pad_name(lane_pad)));
  }
  Digits lane;
  if (lanes > 1) lane.push_back(axis_digit(padded("N", lane_pad, lanes), lanes));

  // PackSize and the packet (§5.1, §6).
  const std::uint64_t ps = pick({1, 2});
  const std::uint64_t w = fe * ps; // |OP|
  const std::uint64_t logw = log2u(w);
  const std::uint64_t dmin = w > 32 ? log2u(w / 32) : 0; // |P2| ≤ 32 when the columns are live
  enum class PacketKind { Full, Stream, Shared, PadCols } kind = PacketKind::Full;
  if (opt_.allow_partial_packet) {
    const std::uint64_t r = range(0, 9);
    kind = r < 4   ? PacketKind::Full
           : r < 6 ? PacketKind::Stream
           : r < 8 ? PacketKind::Shared
                   : PacketKind::PadCols;
  }
  std::uint64_t d = logw;
  if (kind == PacketKind::Stream || kind == PacketKind::Shared) d = range(dmin, logw - 1);
  // `1 # j` columns: every d down to 0 (the book's K-in-Time packet `[1 # 16]`); with more
  // than 32 columns only column 0 is live, which §6 allows (the dropped columns are padding).
  if (kind == PacketKind::PadCols) d = range(0, logw - 1);
  const std::uint64_t grp = std::uint64_t{1} << d; // G = 2^d: cells summed per column
  const std::uint64_t j = w / grp;                 // columns of the reduced packet
  f.packet = kind == PacketKind::Full     ? "full"
             : kind == PacketKind::Stream ? "partial-stream"
             : kind == PacketKind::Shared ? "partial-shared"
                                          : "partial-pad";

  // The column axis J (an output axis in the packet) and P2.
  std::uint64_t j_real = j;
  Digits jd, p2;
  std::uint64_t p2_size = 1, live_columns = 1;
  if (kind == PacketKind::Stream || kind == PacketKind::Shared) {
    // With PackSize 2 the packed Time digit cuts J: a padded J cut in two is finding 2.
    if (pad_ok && j >= 4 && (ps == 1 || opt_.allow_known_findings) && coin(0.25)) {
      j_real = range(j / 2 + 1, j - 1);
      f.padding.push_back("J:top");
    }
    jd.push_back(axis_digit(padded("J", j_real < j ? Pad::Top : Pad::None, j), j));
    p2_size = j;
    if (pad_ok && 2 * j <= 32 && coin(0.2)) p2_size = 2 * j; // padded output columns
    p2.push_back(
        axis_digit(padded("J", p2_size > j_real ? Pad::Top : Pad::None, p2_size), p2_size));
    live_columns = j_real;
  } else {
    if (kind == PacketKind::PadCols) jd.push_back(pad_digit(j));
    if (pad_ok && coin(0.2)) p2_size = pick({2, 4, 8, 16, 32});
    if (p2_size > 1) p2.push_back(pad_digit(p2_size));
  }
  if (p2_size > live_columns) f.padding.push_back("P2:top");

  // K: the packet digit K % G and the reduced time digit(s) K / G. When the TRF's flit cut falls
  // into the time digit (the packet holds fewer than FE cells of K and no J), its low part must
  // be a power of two.
  const bool j_in_trf = kind == PacketKind::Shared;
  const std::uint64_t row_unit = (!j_in_trf && grp < fe) ? fe / grp : 1;
  const std::uint64_t rows = row_unit == 1 ? pick({1, 1, 2, 3, 4}) : row_unit * pick({1, 1, 2});
  const std::uint64_t kp = grp * rows;
  std::uint64_t k = kp;
  Pad k_pad = Pad::None;
  bool padded_cycles = false;
  // The reduced time digit, outside M (kro) and/or inside M (kri).
  std::uint64_t kro = 1;
  if (rows > 1) {
    std::vector<std::uint64_t> divs;
    for (std::uint64_t x = 1; x <= rows; ++x)
      if (rows % x == 0) divs.push_back(x);
    kro = divs[range(0, divs.size() - 1)];
  }
  // K stays one digit in every operand mapping (the whole of K in the stream's Packet and in
  // the TRF's flit), unless known findings are asked for: a padded K cut into a Time digit and a
  // Packet digit (`K # 64 / 32`, `K # 64 % 32`) is finding 2 (kernel_gen.h).
  const bool k_whole = rows == 1 && grp <= fe && (j_in_trf || grp == fe);
  // K only in Time (G = 1) as one digit, the TRF's flit exactly K: whole padded time positions.
  const bool k_cycles = opt_.allow_padded_reduced_cycles && grp == 1 && kp == fe && !j_in_trf;
  if (k_cycles) kro = coin(0.5) ? 1 : rows;
  if (pad_ok && (k_whole || k_cycles || opt_.allow_known_findings) && coin(k_cycles ? 0.7 : 0.3)) {
    if (k_cycles || (opt_.allow_padded_reduced_cycles && rows >= 2 && coin(0.5))) {
      // Whole reduced time positions are padding; at least two stay live, else the padded
      // digit is pure padding and belongs to M in the normal form (§7 rule 3 then refuses T2).
      if (kp >= 3 * grp + 1) {
        k = kp - range(grp, kp - 2 * grp - 1);
        padded_cycles = true;
      }
    } else if (grp >= 2) {
      k = kp - range(1, grp - 1); // padding only inside the last packet of K
    }
    if (k < kp) {
      // Zero padding where it is visible in OutPacket (K only in the packet) is finding 3.
      const bool k_only_in_packet =
          rows == 1 && (kind == PacketKind::Full || kind == PacketKind::PadCols);
      k_pad = k_only_in_packet && !opt_.allow_known_findings ? Pad::Top : pad_kind();
      f.padding.push_back(fmt::format("K:{}", pad_name(k_pad)));
    }
  }
  const std::string k_base = padded("K", k_pad, kp);
  const Digit kg{k_base, kp, 1, grp, false};
  const std::uint64_t kri = rows / kro;
  const Digit kto{k_base, kp, grp * kri, kro, false};
  const Digit kti{k_base, kp, grp, kri, false};
  const Digit kt{k_base, kp, grp, rows, false};
  f.k_in_time = rows > 1;
  f.k_split_outer = kro > 1;

  // M: the outer axis of the stream, in Time and in the output.
  const std::uint64_t m = range(2, 6);
  std::uint64_t mp = m;
  Pad m_pad = Pad::None;
  if (pad_ok && coin(0.25)) {
    // A padded extent |M| does not divide is finding 1 (kernel_gen.h).
    mp = opt_.allow_known_findings && coin(0.5) ? m + range(1, 3) : 2 * m;
    m_pad = pad_kind();
    f.padding.push_back(fmt::format("M:{}", pad_name(m_pad)));
  }
  const Digits md = {axis_digit(padded("M", m_pad, mp), mp)};

  // Time broadcast (§5.1): B in the TRF only, X in neither operand; both innermost in OutTime.
  std::uint64_t b = 1, bp = 1, x = 1;
  Pad b_pad = Pad::None;
  if (opt_.allow_broadcast && coin(0.4)) {
    b = bp = range(2, 5);
    if (pad_ok && coin(0.2)) {
      // A padded extent |B| does not divide is finding 1 (kernel_gen.h).
      bp = opt_.allow_known_findings && coin(0.5) ? b + range(1, 2) : 2 * b;
      b_pad = pad_kind();
      f.padding.push_back(fmt::format("B:{}", pad_name(b_pad)));
    }
  }
  if (opt_.allow_broadcast && coin(0.15)) x = range(2, 3);
  Digits bd, xd;
  if (b > 1) bd.push_back(axis_digit(padded("B", b_pad, bp), bp));
  if (x > 1) xd.push_back(axis_digit("X", x));
  const Digits bcast = coin(0.5) ? cat({bd, xd}) : cat({xd, bd});
  f.broadcast_trf = b > 1;
  f.broadcast_pure = x > 1;

  // The stream: OP = [J, K % G]; Packet = its inner flit, the packed digit is Time's innermost.
  const Digits op = cat({jd, {kg}});
  auto op_cut = split(op, fe);
  if (!op_cut) return false;
  const Digits& packet = op_cut->second;
  const Digits& packed = op_cut->first;
  const Digits time = cat({{kto}, md, {kti}, packed});
  const Digits ot = cat({{kto}, md, {kti}, bcast});
  const Digits t2 = cat({md, bcast});

  // The TRF: Element = [B, K / G, (J), K % G], or B between the K digits (a transposed row walk)
  // when the flit cut stays below it.
  const bool b_inner = b > 1 && rows > 1 && (j_in_trf || grp >= fe) && coin(0.4);
  const Digits j_trf = j_in_trf ? jd : Digits{};
  const Digits element =
      merged(b_inner ? cat({{kt}, bd, j_trf, {kg}}) : cat({bd, {kt}, j_trf, {kg}}));
  auto e_cut = split(element, fe);
  if (!e_cut || size(element) % fe != 0) return false;
  const Digits trf_time = cat({lane, e_cut->first});
  const Digits& trf_packet = e_cut->second;

  // Spatial (§3): the same Chip/Cluster/Slice for stream, TRF and output.
  std::string cluster, slice;
  std::uint64_t s_axis = 1;
  if (opt_.allow_spatial && coin(0.3)) {
    s_axis = range(2, 4);
    f.spatial = true;
    if (s_axis == 4 && coin(0.5)) {
      cluster = "S / 2";
      slice = "S % 2 # 64";
    } else {
      cluster = coin(0.5) ? "1" : "1 # 2";
      slice = fmt::format("S # {}", pick({64, 128}));
    }
  } else {
    cluster = coin(0.5) ? "1" : "1 # 2";
    slice = fmt::format("1 # {}", pick({64, 64, 128, 256}));
  }

  // The Lane Folder (§8).
  const bool sequential = opt_.allow_sequential && coin(0.5);
  f.mode = sequential ? "Sequential" : "Interleaved";
  Digits t3;
  std::string p3;
  if (!sequential) {
    t3 = cat({t2, p2});
    const std::string lt = text(lane);
    p3 = lanes == 1 ? "1 # 8" : (lanes == 8 ? lt : lt + " # 8");
  } else if (p2_size <= 8) {
    t3 = cat({t2, lane});
    p3 = text(p2) + (p2_size < 8 ? " # 8" : "");
  } else {
    // Cutting a padded J into T3 and P3 is finding 2 for the output layout.
    if (p2_size > j_real && kind != PacketKind::Full && kind != PacketKind::PadCols &&
        !opt_.allow_known_findings)
      return false;
    auto cut = split(p2, 8);
    if (!cut) return false;
    t3 = cat({t2, lane, cut->first});
    p3 = text(cut->second);
  }

  // InnerTime (§7): the retained extents inside the outermost reduced digit.
  std::uint64_t inner_time = 1;
  if (kro > 1)
    inner_time = size(t2);
  else if (kri > 1)
    inner_time = size(bcast);
  // Accumulator buffer (§8 rule 7) and sizes that keep one run to a few milliseconds.
  if (!sequential && 8 * inner_time * p2_size > 1024) return false;
  if (sequential && lanes * inner_time * 32 > 1024) return false;
  if (size(ot) > 384) return false;
  if (lanes * size(element) * bits / 8 > 65536) return false;

  if (lane_pad != Pad::None || m_pad != Pad::None || b_pad != Pad::None || j_real < j ||
      p2_size > live_columns || lanes < 8 || (sequential && p2_size < 8))
    f.padding.push_back("out");

  // The book's formulas, from the choices above.
  e.pack_size = ps;
  e.time_broadcast = size(bcast);
  e.lanes = lanes;
  // RS: the element's inner cells equal the packet's up to [J, K % G] when J is in the TRF,
  // only up to K % G otherwise (J or `1 # j` above it is not in the Element).
  e.read_size = j_in_trf ? w : grp;
  e.packet_broadcast = w / e.read_size;
  e.wide_read = e.read_size * bits > 256;
  // d is the smallest depth whose reduced packet, without its outer padding, is P2 without its
  // outer padding (§6 rule 4). When K lies only in the packet and is Top-padded, its live cells
  // are the prefix 0..k-1 of OutPacket, so every G' ≥ k already leaves one live column.
  e.depth = d;
  if (k_pad == Pad::Top && rows == 1 && (kind == PacketKind::Full || kind == PacketKind::PadCols)) {
    e.depth = 0;
    while ((std::uint64_t{1} << e.depth) < k) ++e.depth;
  }
  e.out_columns = p2_size;
  e.live_columns = live_columns;
  e.inner_time = inner_time;
  e.flits_per_lane = size(element) / fe;
  e.output_flits = size(t3);
  // Poison: the Top padding of K meets Top padding of K in the TRF at the same positions.
  // With K only in the packet and k a power of two, the padding fills whole columns that P2
  // drops, so no live output reads it.
  g.expected_poison = k_pad == Pad::Top && (padded_cycles || (std::uint64_t{1} << e.depth) != k);

  // The spec text.
  std::vector<std::string> axes = {fmt::format("M = {}", m), fmt::format("K = {}", k)};
  if (lanes > 1) axes.push_back(fmt::format("N = {}", n_real));
  if (kind == PacketKind::Stream || kind == PacketKind::Shared)
    axes.push_back(fmt::format("J = {}", j_real));
  if (b > 1) axes.push_back(fmt::format("B = {}", b));
  if (x > 1) axes.push_back(fmt::format("X = {}", x));
  if (s_axis > 1) axes.push_back(fmt::format("S = {}", s_axis));

  const std::string name = fmt::format("generated_{}", count_++);
  std::vector<std::string> desc = {
      fmt::format("{}×{}", tp.stream, tp.trf),
      fmt::format("L={}{}", lanes, n_real < lanes ? fmt::format("(N={})", n_real) : ""),
      fmt::format("PS={}", ps),
      f.mode,
      fmt::format("d={}", d),
      f.packet + (jd.empty() ? "" : fmt::format("(j={})", j)),
      fmt::format("M={}{}", m, mp > m ? fmt::format("#{}", mp) : ""),
      fmt::format("K={}{}", k, kp > k ? fmt::format("#{}", kp) : ""),
      fmt::format("rows={}x{}", kro, kri)};
  if (b > 1) desc.push_back(fmt::format("B={}{}", b, bp > b ? fmt::format("#{}", bp) : ""));
  if (x > 1) desc.push_back(fmt::format("X={}", x));
  if (s_axis > 1) desc.push_back(fmt::format("S={}", s_axis));
  if (p2_size > live_columns) desc.push_back(fmt::format("P2={}", p2_size));
  if (!f.padding.empty()) desc.push_back("pad[" + join(f.padding, ",") + "]");
  if (g.expected_poison) desc.push_back("poison");
  desc.push_back(f.form);
  g.kernel_name = name;
  g.description = join(desc, " ");

  const std::string header =
      fmt::format(R"(// generated: {desc}
use furiosa_opt_std::prelude::*;

axes![{axes}];

type Chip = m![1];
type Cluster = m![{cluster}];
type Slice = m![{slice}];

)",
                  fmt::arg("desc", g.description), fmt::arg("axes", join(axes)),
                  fmt::arg("cluster", cluster), fmt::arg("slice", slice));
  const std::string chain = fmt::format(
      R"(        .contract_outer::<m![{ot}], m![{op}], _, _, _>(&trf)
        .contract_packet::<m![{p2}]>()
        .contract_time::<m![{t2}]>()
        .contract_lane::<m![{t3}], m![{p3}]>(LaneMode::{mode})
}}
)",
      fmt::arg("ot", text(ot)), fmt::arg("op", text(op)), fmt::arg("p2", text(p2)),
      fmt::arg("t2", text(t2)), fmt::arg("t3", text(t3)), fmt::arg("p3", p3),
      fmt::arg("mode", f.mode));
  const std::string trf_type = fmt::format("TrfTensor<{}, Chip, Cluster, Slice, m![{}], m![{}]>",
                                           tp.trf, text(lane), text(element));
  const bool collect = f.form == "collect";
  const std::string result =
      fmt::format("ContractTensor<'l, {}, {}, Chip, Cluster, Slice, m![{}], m![{}]>",
                  collect ? "T" : "{ Tu::Main }", f.accumulator, text(t3), p3);

  if (collect) {
    g.spec = header +
             fmt::format(
                 R"(pub fn {name}<'l, const T: Tu>(
    input: CollectTensor<'l, T, {s}, Chip, Cluster, Slice, m![{time}], m![{packet}]>,
    weights: CollectTensor<'l, T, {w}, Chip, Cluster, Slice, m![{trf_time}], m![{trf_packet}]>,
) -> {result} {{
    let trf: {trf_type} = weights.to_trf();
    input
)",
                 fmt::arg("name", name), fmt::arg("s", tp.stream), fmt::arg("w", tp.trf),
                 fmt::arg("time", text(time)), fmt::arg("packet", text(packet)),
                 fmt::arg("trf_time", text(trf_time)), fmt::arg("trf_packet", text(trf_packet)),
                 fmt::arg("result", result), fmt::arg("trf_type", trf_type)) +
             chain;
  } else {
    // The DM tensors hold the logical axes in declaration order; the fetch sequences them into
    // the same Time/Packet that collect produces (one flit per packet).
    std::vector<std::string> in_axes = {"M", "K"}, w_axes;
    if (kind == PacketKind::Stream || kind == PacketKind::Shared) in_axes.push_back("J");
    if (lanes > 1) w_axes.push_back("N");
    if (b > 1) w_axes.push_back("B");
    w_axes.push_back("K");
    if (j_in_trf) w_axes.push_back("J");
    const bool is_int4 = bits == 4;
    const std::int64_t zp_s =
        static_cast<std::int64_t>(range(0, is_int4 ? 15 : 255)) - (is_int4 ? 8 : 128);
    const std::int64_t zp_w =
        static_cast<std::int64_t>(range(0, is_int4 ? 15 : 255)) - (is_int4 ? 8 : 128);
    const auto [s_dm, s_cast] = dm_source(tp.stream, zp_s, coin(0.5));
    const auto [w_dm, w_cast] = dm_source(tp.trf, zp_w, coin(0.5));
    g.spec = header +
             fmt::format(
                 R"(pub fn {name}<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<{s_dm}, Chip, Cluster, Slice, m![{in_axes}]>,
    trf_dm: &DmTensor<{w_dm}, Chip, Cluster, Slice, m![{w_axes}]>,
) -> {result} {{
    let trf: {trf_type} = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![{trf_time}], m![{trf_packet}]>(){w_cast}
        .collect::<m![{trf_time}], m![{trf_packet}]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![{time}], m![{packet}]>(){s_cast}
        .collect::<m![{time}], m![{packet}]>()
)",
                 fmt::arg("name", name), fmt::arg("s_dm", s_dm), fmt::arg("w_dm", w_dm),
                 fmt::arg("in_axes", join(in_axes)), fmt::arg("w_axes", join(w_axes)),
                 fmt::arg("time", text(time)), fmt::arg("packet", text(packet)),
                 fmt::arg("trf_time", text(trf_time)), fmt::arg("trf_packet", text(trf_packet)),
                 fmt::arg("s_cast", s_cast), fmt::arg("w_cast", w_cast), fmt::arg("result", result),
                 fmt::arg("trf_type", trf_type)) +
             chain;
  }
  out = std::move(g);
  return true;
}

} // namespace tujit::testing

#include "tests/support/kernel_gen.h"

#include "tests/support/kernel_gen_digits.h"
#include "tests/support/kernel_gen_fetch.h"
#include "tests/support/kernel_gen_whole.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

namespace tujit::testing {

namespace {

using namespace kernel_gen_detail;

std::string join(const std::vector<std::string>& parts, const char* sep = ", ") {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : sep) + p;
  return s;
}

const char* pad_name(Pad p) {
  return p == Pad::Top ? "top" : "zero";
}

// docs/contraction.md §2.1: every legal stream × TRF pair, with the wire width of the family.
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

/// The parts of a whole kernel's text (KernelForm::Whole).
struct WholeKernelText {
  const std::string& name;
  const FetchPlan &stream, &trf;
  const HbmInput& stream_hbm;
  const HbmInput* trf_hbm; // nullptr for a move kernel
  const OutputPlan& out;
  bool trf_sub;
  std::string move; // a move kernel's context ("main" / "sub"), empty for a contraction
  const std::string& trf_type;
  std::string time, packet, trf_time, trf_packet; // the two collects'
};

/// `let {dm}… = {hbm}.to_dm(…)` in the implicit or explicit form (docs/dma.md §1).
std::string to_dm_text(const std::string& dm, const std::string& hbm, const std::string& dtype,
                       const HbmInput& h) {
  if (h.explicit_form)
    return fmt::format("    let {} = {}.to_dm::<Cluster, Slice, m![{}]>(&mut ctx.tdma);\n", dm, hbm,
                       h.dm_element);
  return fmt::format(
      "    let {}: DmTensor<{}, Chip, Cluster, Slice, m![{}]> = {}.to_dm(&mut ctx.tdma);\n", dm,
      dtype, h.dm_element, hbm);
}

/// `to_hbm` in the implicit or explicit form.
std::string to_hbm_text(const OutputPlan& o) {
  return o.explicit_to_hbm ? fmt::format("to_hbm::<m![{}]>", o.hbm_element) : std::string("to_hbm");
}

/// A move kernel (docs/kernels.md §1, the reference's fetch_commit_simple): the HBM parameter
/// moved to DM, fetched, collected and committed through the output path, returned to HBM.
std::string move_kernel_text(const WholeKernelText& w) {
  const OutputPlan& o = w.out;
  return fmt::format(
      R"(#[device(chip = 1)]
pub fn {name}(
    ctx: &mut Context,
    input: &HbmTensor<{s_dm}, Chip, m![{s_hbm}]>,
) -> HbmTensor<{out_d}, Chip, m![{out_hbm}]> {{
{s_to_dm}
    let result: DmTensor<{out_d}, Chip, Cluster, Slice, m![{out_dm}]> = ctx
        .{ctx}
        .begin(input_dm.view())
        .fetch::<m![{s_time}], m![{s_packet}]>(){s_adapter}
        .collect::<m![{time}], m![{packet}]>(){calls};

    result.{to_hbm}(&mut ctx.tdma)
}}
)",
      fmt::arg("name", w.name), fmt::arg("s_dm", w.stream.dm_type),
      fmt::arg("s_hbm", w.stream_hbm.hbm_element), fmt::arg("out_d", o.dtype),
      fmt::arg("out_hbm", o.hbm_element),
      fmt::arg("s_to_dm", to_dm_text("input_dm", "input", w.stream.dm_type, w.stream_hbm)),
      fmt::arg("out_dm", o.dm_element), fmt::arg("ctx", w.move), fmt::arg("s_time", w.stream.time),
      fmt::arg("s_packet", w.stream.packet), fmt::arg("s_adapter", w.stream.adapter),
      fmt::arg("time", w.time), fmt::arg("packet", w.packet), fmt::arg("calls", o.calls),
      fmt::arg("to_hbm", to_hbm_text(o)));
}

/// A whole kernel (docs/kernels.md §1): HBM parameters moved to DM, the TRF loaded in the sub or
/// main context, the contraction `chain` (its stages' calls) and the output path in the main
/// context into a DmTensor, returned to HBM.
std::string whole_kernel_text(const WholeKernelText& w, const std::string& chain) {
  if (!w.move.empty()) return move_kernel_text(w);
  const OutputPlan& o = w.out;
  return fmt::format(
      R"(#[device(chip = 1)]
pub fn {name}(
    ctx: &mut Context,
    input: &HbmTensor<{s_dm}, Chip, m![{s_hbm}]>,
    weights: &HbmTensor<{w_dm}, Chip, m![{w_hbm}]>,
) -> HbmTensor<{out_d}, Chip, m![{out_hbm}]> {{
{s_to_dm}{w_to_dm}
    let trf: {trf_type} = ctx
        .{w_ctx}
        .begin(trf_dm.view())
        .fetch::<m![{w_time}], m![{w_packet}]>(){w_adapter}
        .collect::<m![{trf_time}], m![{trf_packet}]>()
        .to_trf();

    let result: DmTensor<{out_d}, Chip, Cluster, Slice, m![{out_dm}]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![{s_time}], m![{s_packet}]>(){s_adapter}
        .collect::<m![{time}], m![{packet}]>()
{chain}{calls};

    result.{to_hbm}(&mut ctx.tdma)
}}
)",
      fmt::arg("name", w.name), fmt::arg("s_dm", w.stream.dm_type),
      fmt::arg("s_hbm", w.stream_hbm.hbm_element), fmt::arg("w_dm", w.trf.dm_type),
      fmt::arg("w_hbm", w.trf_hbm->hbm_element), fmt::arg("out_d", o.dtype),
      fmt::arg("out_hbm", o.hbm_element),
      fmt::arg("s_to_dm", to_dm_text("input_dm", "input", w.stream.dm_type, w.stream_hbm)),
      fmt::arg("w_to_dm", to_dm_text("trf_dm", "weights", w.trf.dm_type, *w.trf_hbm)),
      fmt::arg("trf_type", w.trf_type), fmt::arg("w_ctx", w.trf_sub ? "sub" : "main"),
      fmt::arg("w_time", w.trf.time), fmt::arg("w_packet", w.trf.packet),
      fmt::arg("w_adapter", w.trf.adapter), fmt::arg("trf_time", w.trf_time),
      fmt::arg("trf_packet", w.trf_packet), fmt::arg("out_dm", o.dm_element),
      fmt::arg("s_time", w.stream.time), fmt::arg("s_packet", w.stream.packet),
      fmt::arg("s_adapter", w.stream.adapter), fmt::arg("time", w.time),
      fmt::arg("packet", w.packet), fmt::arg("chain", chain), fmt::arg("calls", o.calls),
      fmt::arg("to_hbm", to_hbm_text(o)));
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
  // A fetch reads padding as Top whatever memory holds (a `#{0}` stream term is E-FETCH-018,
  // docs/datapath.md §3), so a DmFetch kernel's streams are Top-padded; its DM buffers may still
  // hold zeros there (kernel_gen_fetch.h). The coin is drawn either way: the sequence stays the
  // same.
  auto pad_kind = [&] {
    const bool top = coin(0.5);
    return top || f.form != "collect" ? Pad::Top : Pad::Zero;
  };

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
  f.form = opt_.form == KernelForm::Whole ? "whole"
           : opt_.form == KernelForm::DmFetch || (opt_.form == KernelForm::Mixed && coin(0.5))
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
  if (lanes > 1) lane.push_back(axis_digit("N", lane_pad, n_real, lanes));

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
    jd.push_back(axis_digit("J", Pad::Top, j_real, j));
    p2_size = j;
    if (pad_ok && 2 * j <= 32 && coin(0.2)) p2_size = 2 * j; // padded output columns
    p2.push_back(axis_digit("J", Pad::Top, j_real, p2_size));
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
      k_pad = pad_kind();
      f.padding.push_back(fmt::format("K:{}", pad_name(k_pad)));
    }
  }
  const std::string k_base = padded("K", k_pad, kp);
  const Digit kg{k_base, kp, 1, grp, false, "K", k};
  const std::uint64_t kri = rows / kro;
  const Digit kto{k_base, kp, grp * kri, kro, false, "K", k};
  const Digit kti{k_base, kp, grp, kri, false, "K", k};
  const Digit kt{k_base, kp, grp, rows, false, "K", k};
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
  const Digits md = {axis_digit("M", m_pad, m, mp)};

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
  if (b > 1) bd.push_back(axis_digit("B", b_pad, b, bp));
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
  Digits t3, p3d; // P3 is p3d padded to one flit of 8 accumulator elements
  if (!sequential) {
    t3 = cat({t2, p2});
    p3d = lane;
  } else if (p2_size <= 8) {
    t3 = cat({t2, lane});
    p3d = p2;
  } else {
    // Cutting a padded J into T3 and P3 is finding 2 for the output layout.
    if (p2_size > j_real && kind != PacketKind::Full && kind != PacketKind::PadCols &&
        !opt_.allow_known_findings)
      return false;
    auto cut = split(p2, 8);
    if (!cut) return false;
    t3 = cat({t2, lane, cut->first});
    p3d = cut->second;
  }
  const std::string p3 = text(p3d) + (size(p3d) < 8 ? " # 8" : "");

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
  // outer padding (§6 rule 4; the padding of any kind, as the reference's
  // Mapping::remove_padding). When K lies only in the packet and is padded, its live cells are
  // the prefix 0..k-1 of OutPacket, so every G' ≥ k already leaves one live column.
  e.depth = d;
  if (k_pad != Pad::None && rows == 1 &&
      (kind == PacketKind::Full || kind == PacketKind::PadCols)) {
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

  // DmFetch: each operand's DM buffer, fetch and adapter (kernel_gen_fetch.h), drawn only for
  // this form so the CollectParams sequence of a seed does not change.
  std::optional<FetchPlan> sp, wp;
  bool trf_sub = true;
  if (f.form != "collect") {
    trf_sub = coin(0.7);
    // A padded axis with one live element (`K # 2`, K = 1) is read as a stride-0 broadcast (the
    // one-element axis has no digit in the buffer's normal form, docs/datapath.md §4), so the
    // packet is contiguous only up to it and the sub context's 8 B read does not fit (E-FETCH-015):
    // such a TRF is fetched in the main context.
    const Digit& t_in = trf_packet.back();
    if (whole(t_in) && t_in.live == 1 && t_in.count < size(trf_packet)) trf_sub = false;
    sp = plan_fetch(rng_, FetchRequest{time, packet, tp.stream, bits, false});
    wp = plan_fetch(rng_, FetchRequest{trf_time, trf_packet, tp.trf, bits, trf_sub});
    for (const auto& v : sp->features) f.fetch.push_back("stream:" + v);
    for (const auto& v : wp->features) f.fetch.push_back("trf:" + v);
    if (!trf_sub) f.fetch.push_back("trf:main");
  }
  // Whole: the HBM parameters, the output path and the result (kernel_gen_whole.h), drawn last.
  std::optional<HbmInput> sh, wh;
  std::optional<OutputPlan> out_plan;
  bool move = false, move_sub = false;
  if (f.form == "whole") {
    const std::string s_name = s_axis > 1 ? "S" : "";
    // A move kernel commits the collected stream (no contraction). i5 / i9 exist only between the
    // Fetch Adapter and the Multiplier (docs/scalars.md §6), so those streams are contracted.
    const std::string st = tp.stream;
    move = st != "i5" && st != "i9" && coin(0.25);
    if (move) {
      // In the sub context too (its fetch reads 8 B, kernel_gen_fetch.h), unless the packet's
      // innermost axis has one live element (see the TRF's choice above) or the packet holds
      // pure padding (`1 # 8, K % 8`): the buffer does not store it (a stride-0 read,
      // docs/datapath.md §4), so the contiguous part may be less than 8 B (E-FETCH-015).
      const Digit& p_in = packet.back();
      const bool pad_piece = std::any_of(packet.begin(), packet.end(),
                                         [](const Digit& piece) { return piece.pad_only; });
      move_sub =
          coin(0.3) && !pad_piece && !(whole(p_in) && p_in.live == 1 && p_in.count < size(packet));
      if (move_sub) sp = plan_fetch(rng_, FetchRequest{time, packet, tp.stream, bits, true});
      f.fetch.clear();
      for (const auto& v : sp->features) f.fetch.push_back("stream:" + v);
      f.whole.push_back(move_sub ? "move:sub" : "move:main");
      g.expected_poison = false; // padding reaches no live output of a move
    }
    sh = plan_to_dm(rng_, *sp, bits, s_name);
    wh = plan_to_dm(rng_, *wp, bits, s_name);
    if (!sh || (!move && !wh)) return false;
    // A trim that keeps part of the packet's axis could drop every poisoned output; the poison
    // expectation holds for the whole result only.
    out_plan =
        move ? plan_output(rng_, OutputRequest{st, time, packet, s_name, true})
             : plan_output(rng_, OutputRequest{f.accumulator, t3, p3d, s_name, !g.expected_poison});
    for (const auto& v : sh->features) f.whole.push_back("stream:" + v);
    if (!move)
      for (const auto& v : wh->features) f.whole.push_back("trf:" + v);
    for (const auto& v : out_plan->features) f.whole.push_back("out:" + v);
  }

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
  if (!f.fetch.empty()) desc.push_back("fetch[" + join(f.fetch, ",") + "]");
  if (!f.whole.empty()) desc.push_back("whole[" + join(f.whole, ",") + "]");
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
        .contract_lane::<m![{t3}], m![{p3}]>(LaneMode::{mode}))",
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
             chain + "\n}\n";
  } else if (f.form == "dm") {
    g.spec = header +
             fmt::format(
                 R"(pub fn {name}<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<{s_dm}, Chip, Cluster, Slice, m![{s_elem}]>,
    trf_dm: &DmTensor<{w_dm}, Chip, Cluster, Slice, m![{w_elem}]>,
) -> {result} {{
    let trf: {trf_type} = ctx
        .{w_ctx}
        .begin(trf_dm.view())
        .fetch::<m![{w_time}], m![{w_packet}]>(){w_adapter}
        .collect::<m![{trf_time}], m![{trf_packet}]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![{s_time}], m![{s_packet}]>(){s_adapter}
        .collect::<m![{time}], m![{packet}]>()
)",
                 fmt::arg("name", name), fmt::arg("s_dm", sp->dm_type),
                 fmt::arg("s_elem", sp->element), fmt::arg("w_dm", wp->dm_type),
                 fmt::arg("w_elem", wp->element), fmt::arg("w_ctx", trf_sub ? "sub" : "main"),
                 fmt::arg("w_time", wp->time), fmt::arg("w_packet", wp->packet),
                 fmt::arg("w_adapter", wp->adapter), fmt::arg("s_time", sp->time),
                 fmt::arg("s_packet", sp->packet), fmt::arg("s_adapter", sp->adapter),
                 fmt::arg("time", text(time)), fmt::arg("packet", text(packet)),
                 fmt::arg("trf_time", text(trf_time)), fmt::arg("trf_packet", text(trf_packet)),
                 fmt::arg("result", result), fmt::arg("trf_type", trf_type)) +
             chain + "\n}\n";
  } else {
    const WholeKernelText parts{name,
                                *sp,
                                *wp,
                                *sh,
                                move ? nullptr : &*wh,
                                *out_plan,
                                trf_sub,
                                move ? (move_sub ? "sub" : "main") : "",
                                trf_type,
                                text(time),
                                text(packet),
                                text(trf_time),
                                text(trf_packet)};
    g.spec = header + whole_kernel_text(parts, chain);
  }
  out = std::move(g);
  return true;
}

} // namespace tujit::testing

#include "tests/support/kernel_gen_fetch.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

namespace tujit::testing::kernel_gen_detail {

namespace {

// The access units of docs/datapath.md §5, in bits: a main-context read moves 1–32 whole bytes, a
// sub-context read exactly 8 B.
constexpr std::uint64_t kByteBits = 8;
constexpr std::uint64_t kWordBits = 64;  // 8 B: the sub context's read, Collect's input unit
constexpr std::uint64_t kFlitBits = 256; // 32 B

Digits live_digits(const Digits& ds) {
  Digits out;
  for (const Digit& d : ds)
    if (!d.pad_only && d.count > 1) out.push_back(d);
  return out;
}

bool has_padding_digit(const Digits& ds) {
  return std::any_of(ds.begin(), ds.end(), [](const Digit& d) { return d.pad_only; });
}

/// The DM Element as written: a whole padded axis holds `kind` padding in memory (the fetch reads
/// it as Top whatever memory holds, docs/datapath.md §3).
Digits dm_digits(const Digits& ds, Pad kind) {
  Digits out = ds;
  for (Digit& d : out)
    if (whole(d)) d.base = padded(d.name, d.live < d.base_size ? kind : Pad::None, d.base_size);
  return out;
}

/// The Fetch Adapter (docs/datapath.md §6, docs/contraction.md §2.2): i5 / i9 are staged from i4 /
/// i8 by fetch_zero_point_sub with a zero point of the source type; any type may pass an identity
/// fetch_cast first (it keeps the bits, so it does not cap the read size, §5).
void plan_adapter(Draw& r, const std::string& type, FetchPlan& p) {
  const bool staged = type == "i5" || type == "i9";
  p.dm_type = type == "i5" ? "i4" : type == "i9" ? "i8" : type;
  if (r.coin(staged ? 0.3 : 0.5)) {
    p.adapter += fmt::format("\n        .fetch_cast::<{}>()", p.dm_type);
    p.features.push_back("cast");
  }
  if (staged) {
    const bool int4 = p.dm_type == "i4";
    // A value of the source type: [-8, 7] or [-128, 127] (E-FETCH-002 otherwise).
    const auto zp = static_cast<std::int64_t>(r.range(0, int4 ? 15 : 255)) - (int4 ? 8 : 128);
    p.adapter += fmt::format("\n        .fetch_zero_point_sub::<{}>({})", type, zp);
    p.features.push_back("zp");
  }
}

} // namespace

FetchPlan plan_fetch(std::mt19937_64& rng, const FetchRequest& q) {
  Draw r{rng};
  FetchPlan p;
  const std::uint64_t word = kWordBits / q.bits; // elements per 8 B word
  const std::uint64_t fe = kFlitBits / q.bits;   // elements per 32 B flit
  const std::uint64_t access_bits = q.sub ? kWordBits : kByteBits;
  Digits ft = cat({q.time}), fp = cat({q.packet});
  std::string short_text;
  std::uint64_t over_read = 0;

  // 1. The fetch packet. The collect's own (one flit, the packet contiguous in the DM below) is
  //    always legal: its read is 32 B, or 8 B in the sub context (§5).
  const std::uint64_t shape = r.range(0, 9);
  if (shape < 3 && !ft.empty()) {
    // wide: the innermost Time piece joins the fetch packet (2 or 4 flits, 2 or 4 reads);
    // collect cuts it back into flits with Time2 = [Time, outer] (§8). A padded axis is not cut
    // (a padded digit cut in two is finding 2, kernel_gen.h).
    const Digit last = ft.back();
    const std::uint64_t f = r.coin(0.5) ? 2 : 4;
    if (last.pad_only || last.live == last.base_size) {
      for (const std::uint64_t ff : {f, std::uint64_t{2}}) {
        if (last.count % ff != 0) continue;
        auto cut = split(ft, ff);
        if (!cut) continue;
        ft = cut->first;
        fp = cat({cut->second, fp});
        p.features.push_back(fmt::format("wide{}", ff));
        break;
      }
    }
  } else if (shape < 6) {
    // short: a packet whose outer part is padding — `[1 # r, R]`, or one padded axis `K # kp` —
    // is fetched as its live part R padded to whole 8 B words only; collect tops it up to the
    // flit (§8: P' = Packet top-padded to 32 B, whose normal form is the collect's Packet). The
    // fetched packet must be whole 8 B words: Collect's input rule (E-COLLECT-004), which also
    // gives the sub context its 8 B reads. A packet with live data above padding (`[J, K # 8]`)
    // or no live part (`1 # 64`) has no short form.
    std::optional<Digit> rd;
    if (fp.size() == 2 && fp[0].pad_only && !fp[1].pad_only) rd = fp[1];
    if (fp.size() == 1 && whole(fp[0]) && fp[0].live < fp[0].base_size) rd = fp[0];
    if (rd && !whole(*rd) && (rd->stride != 1 || rd->live < rd->base_size)) rd.reset();
    if (rd) {
      Digit row = *rd;
      const std::uint64_t live = whole(row) ? row.live : row.count;
      const std::uint64_t n_min = (live + word - 1) / word * word;
      if (n_min < fe) {
        const std::uint64_t n = n_min + word * r.range(0, (fe - n_min) / word - 1);
        if (whole(row)) {
          short_text = n == row.live ? row.name : fmt::format("{} # {}", row.name, n);
          // The DM row holds the n positions read (a read past the buffer is E-FETCH-016): the
          // stream's padded extent, or exactly n.
          const std::uint64_t e = n > row.base_size || r.coin(0.5) ? n : row.base_size;
          row.base_size = row.count = e;
        } else {
          // A piece `K % G` of a row: the last row's over-read needs room after it (outer-pad).
          short_text = n == row.count ? text(row) : fmt::format("{} # {}", text(row), n);
          over_read = n - row.count;
        }
        fp = Digits{row};
        p.features.push_back("short");
      }
    }
  }
  const bool short_packet = !short_text.empty();

  // 2. The DM order: the fetch's pieces outer → inner; pure padding (`1 # r`) is a stride-0
  //    broadcast read and takes no memory (§4 "does not occur in Buf"). Every piece is read
  //    whole, so the derivation emits one loop per piece and never splits a DM digit.
  Digits dt = live_digits(ft), dp = live_digits(fp);
  if (dt.size() >= 2 && r.coin(0.35)) {
    // time-order: any permutation of the Time pieces; the packet stays innermost and contiguous,
    // so the access size is the packet's (§4 "Access size").
    const Digits before = dt;
    for (std::size_t i = dt.size() - 1; i > 0; --i)
      std::swap(dt[i], dt[static_cast<std::size_t>(r.range(0, i))]);
    bool changed = false;
    for (std::size_t i = 0; i < dt.size(); ++i)
      changed |= dt[i].base != before[i].base || dt[i].stride != before[i].stride;
    if (changed) p.features.push_back("time-order");
  }
  const std::uint64_t layout = r.range(0, 9);
  bool gather = false;
  if (layout < 2 && !short_packet && dp.size() >= 2 && !dt.empty() && !has_padding_digit(fp)) {
    // split-packet: the outermost packet piece lives among the Time pieces, so only the inner
    // pieces are contiguous: contiguous_run = their size, which the packet size is a multiple
    // of, so max_access_size = the run (§4). Legal when the run is whole accesses: whole bytes
    // in the main context (an odd i4 run has no access), whole 8 B in the sub context
    // (E-FETCH-015).
    const std::uint64_t run = size(Digits(dp.begin() + 1, dp.end()));
    if (run * q.bits % access_bits == 0) {
      const Digit outer = dp.front();
      dp.erase(dp.begin());
      dt.insert(dt.begin() + static_cast<std::ptrdiff_t>(r.range(0, dt.size() - 1)), outer);
      p.features.push_back("split-packet");
    }
  } else if (layout < 4 && !short_packet && dp.size() >= 2 && !q.sub && q.bits >= kByteBits) {
    // gather: the packet pieces in reverse order; the innermost fetched piece is strided, so
    // contiguous_run = 1 and every read is one element (§4, §5). Legal in the main context for
    // 8- and 16-bit elements only: an i4 element is half a byte and the sub context reads 8 B
    // (E-FETCH-015).
    std::reverse(dp.begin(), dp.end());
    gather = true;
    p.features.push_back("gather");
  }
  Digits dm = merged(cat({dt, dp}));
  const Digit& inner_fetched = fp.back();
  if (!short_packet && !gather && !dm.empty() && whole(dm.back()) &&
      dm.back().live == dm.back().base_size && !inner_fetched.pad_only &&
      inner_fetched.count * q.bits % kWordBits == 0 && r.coin(0.25)) {
    // row-pad: the innermost DM row (a whole axis holding the innermost fetched piece) is padded
    // by whole 8 B words. The rows stay in bounds; contiguity breaks at the row's end, so
    // max_access_size is a multiple of that piece, whole 8 B words: legal in both contexts.
    Digit& row = dm.back();
    row.base_size = row.count = row.count + word * r.range(1, 4);
    p.features.push_back("row-pad");
  }
  const Pad dm_pad = r.coin(0.5) ? Pad::Top : Pad::Zero;
  p.dm = dm_digits(dm, dm_pad);
  p.element = text(p.dm);
  if (over_read > 0) {
    // outer-pad: the last row's short packet reads `over_read` positions past the rows (§4.1
    // S2/S3 over-read); the buffer holds them (no read past the buffer, E-FETCH-016).
    p.outer_size = size(dm) + over_read;
    p.element = fmt::format("[{}] # {}", p.element, p.outer_size);
    p.features.push_back("outer-pad");
  }
  for (const Digit& d : dm)
    if (whole(d) && d.live < d.base_size) {
      p.features.push_back(dm_pad == Pad::Top ? "dm-pad:top" : "dm-pad:zero");
      break;
    }
  p.time = text(ft);
  p.packet = short_packet ? short_text : text(fp);
  if (q.sub) p.features.push_back("sub");
  plan_adapter(r, q.type, p);
  return p;
}

} // namespace tujit::testing::kernel_gen_detail

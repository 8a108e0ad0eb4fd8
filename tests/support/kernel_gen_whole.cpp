#include "tests/support/kernel_gen_whole.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

namespace tujit::testing::kernel_gen_detail {

namespace {

constexpr std::uint64_t kWordBits = 64;  // 8 B: a DMA write into DM moves whole words (E-DMA-002)
constexpr std::uint64_t kFlitBits = 256; // 32 B: one flit per Time step on the output path
constexpr std::uint64_t kAccumulatorBits = 32;

std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s.empty() ? "1" : s;
}

std::uint64_t round_up(std::uint64_t n, std::uint64_t unit) {
  return (n + unit - 1) / unit * unit;
}

/// The HBM text of a DM digit: a whole axis unpadded (HBM holds the live coordinates, docs/dma.md
/// §1), a piece as it is (its stride and count need the padded extent), pure padding nothing.
std::string hbm_piece(const Digit& d) {
  if (d.pad_only || d.count <= 1) return "";
  return whole(d) ? d.name : text(d);
}

/// Wire bits of the output path's element types (docs/scalars.md §1).
std::uint64_t out_bits(const std::string& t) {
  if (t == "i4" || t == "i5") return 4;
  if (t == "i8" || t == "f8e4m3" || t == "f8e5m2") return 8;
  if (t == "i16" || t == "bf16") return 16;
  return kAccumulatorBits;
}

} // namespace

std::optional<HbmInput> plan_to_dm(std::mt19937_64& rng, const FetchPlan& plan, std::uint64_t bits,
                                   const std::string& spatial) {
  Draw r{rng};
  HbmInput h;
  h.explicit_form = r.coin(0.5);
  h.features.push_back(h.explicit_form ? "to_dm:explicit" : "to_dm:implicit");
  const std::uint64_t word = kWordBits / bits; // elements per 8 B word
  const Digits& dm = plan.dm;
  // The DMA packet is the innermost run both Element layouts share (docs/dma.md §3); a write into
  // DM must move whole 8 B words (E-DMA-002). The HBM Element keeps the buffer's innermost digits
  // that make the smallest such run exactly as they are.
  std::size_t cut = dm.size();
  std::uint64_t run = 1;
  for (std::size_t i = dm.size(); i-- > 0;) {
    run *= dm[i].count;
    if (run % word == 0) {
      cut = i;
      break;
    }
  }
  // No inner run of whole 8 B words (rare: the buffer's live bytes are not whole words); padding
  // the buffer out is not among the choices, so the draw is redone.
  if (cut == dm.size()) return std::nullopt;
  const bool spread = !spatial.empty() && r.coin(0.15); // copied to every S (docs/dma.md §1)
  // The buffer's outer padding (a short packet's over-read room, docs/datapath.md §4.1) grows to
  // whole runs, so the run divides both sizes.
  const std::uint64_t outer = plan.outer_size > 0 ? round_up(plan.outer_size, run) : 0;
  h.dm_element = outer > 0 ? fmt::format("[{}] # {}", text(dm), outer) : text(dm);
  std::vector<std::string> pieces;
  std::multiset<std::string> names;
  for (const Digit& d : dm) names.insert(d.name);
  std::vector<std::size_t> alone; // outer whole axes named once: a broadcast may leave them out
  for (std::size_t i = 0; i < cut; ++i) {
    const std::string p = hbm_piece(dm[i]);
    if (p.empty()) continue;
    if (whole(dm[i]) && names.count(dm[i].name) == 1) alone.push_back(pieces.size());
    pieces.push_back(p);
  }
  bool broadcast = spread;
  if (!alone.empty() && r.coin(0.1)) {
    pieces.erase(pieces.begin() + static_cast<std::ptrdiff_t>(r.one_of(alone)));
    broadcast = true;
  }
  if (!spatial.empty() && !spread) pieces.insert(pieces.begin(), spatial);
  if (pieces.size() >= 2 && r.coin(0.4) && r.shuffle(pieces)) h.features.push_back("hbm-order");
  if (broadcast) h.features.push_back("broadcast");
  pieces.push_back(text(Digits(dm.begin() + static_cast<std::ptrdiff_t>(cut), dm.end())));
  h.hbm_element = join(pieces);
  return h;
}

namespace {

/// 1. The cast: the Cast Engine's pairs (docs/output-path.md §1), the Commit Adapter's f32 →
///    bf16 (§2.2), or none. The Cast Engine's output is bf16 / f8 / i4 … and the Commit Adapter
///    casts only f32, so never both.
struct CastChoice {
  std::string to; // the Cast Engine's output type, empty for none
  bool commit_cast = false, relu = false;
};

CastChoice draw_cast(Draw& r, const std::string& type) {
  CastChoice c;
  const std::uint64_t x = r.range(0, 9);
  if (type == "i32") {
    if (x < 5) c.to = r.one_of<std::string>({"i4", "i8", "i16"});
  } else if (type != "f32") {
    // A collected i4 / i8 / f8 / bf16 stream: the Cast Engine and the Commit Adapter narrow i32 /
    // f32 only (E-CAST-001, E-COMMIT-004).
  } else if (x < 4) {
    c.to = r.one_of<std::string>({"bf16", "f8e4m3", "f8e5m2"});
  } else if (x < 8) {
    c.commit_cast = true;
    c.relu = r.coin(0.5);
  }
  return c;
}

/// 2. The trim (§2.1): valid_size of 8, 16, 24 or 32 bytes (E-COMMIT-002), 16 or 32 bytes of f32
///    before a commit cast (E-COMMIT-005). Fewer positions than the packet's digits span keep a
///    prefix of one whole axis (`N = 4`, the output holds N's first 4, docs/kernels.md §3) or the
///    one element of pure padding; a piece's prefix (`J % 4` of `J % 8`) would leave the output
///    holding a set of J that is neither a prefix nor a stride (E-RUN-005).
struct Trim {
  std::string packet; // commit_trim's OutPacket
  std::string hbm;    // what it holds, as the HBM Element names it ("" for nothing)
  std::uint64_t valid = 0;
  bool partial = false; // a prefix of an axis
};

Trim draw_trim(Draw& r, const OutputRequest& q, std::uint64_t bits, bool commit_cast) {
  const std::uint64_t live = size(q.packet); // positions the packet's digits span
  const std::string digits = text(q.packet); // "1" for no digit
  const bool prefix_ok =
      q.packet.size() == 1 && (q.packet[0].pad_only || whole(q.packet[0])) && q.allow_partial_trim;
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t bytes : {8, 16, 24, 32}) {
    const std::uint64_t v = bytes * 8 / bits;
    if (commit_cast && bytes != 16 && bytes != 32) continue;
    if (v >= live || prefix_ok) sizes.push_back(v);
  }
  Trim t;
  t.valid = r.one_of(sizes);
  if (t.valid >= live) {
    t.packet = t.valid > live ? fmt::format("{} # {}", digits, t.valid) : digits;
    std::vector<std::string> held;
    for (const Digit& d : q.packet)
      if (std::string p = hbm_piece(d); !p.empty()) held.push_back(p);
    if (!held.empty()) t.hbm = join(held);
  } else if (q.packet[0].pad_only) {
    t.packet = fmt::format("1 # {}", t.valid);
  } else {
    const Digit& d = q.packet[0];
    t.partial = d.live > t.valid;
    t.packet = t.partial ? fmt::format("{} = {}", d.name, t.valid)
                         : (d.live < t.valid ? fmt::format("{} # {}", d.name, t.valid) : d.name);
    t.hbm = t.partial ? t.packet : d.name;
  }
  return t;
}

/// 4. The commit's DM Element (§3): the stream's Time pieces (in its order or another, a transpose
///    on write) over the trimmed packet, innermost and contiguous, so every stride between packets
///    is a multiple of the packet's 8, 16, 24 or 32 bytes (E-COMMIT-006). The stream's padded
///    positions write nothing, so the DM tensor may leave the padding out.
std::string draw_commit_element(Draw& r, const OutputRequest& q, const Trim& trim,
                                std::vector<std::string>& features) {
  Digits time = q.time;
  if (r.coin(0.3)) {
    Digits stripped;
    for (const Digit& d : time) {
      if (d.pad_only) continue;
      stripped.push_back(whole(d) ? axis_digit(d.name, d.live) : d);
    }
    if (text(stripped) != text(time)) features.push_back("commit-strip");
    time = stripped;
  }
  std::vector<std::string> dm;
  for (const Digit& d : time)
    if (d.count > 1) dm.push_back(text(d));
  if (dm.size() >= 2 && r.coin(0.3) && r.shuffle(dm)) features.push_back("commit-order");
  dm.push_back(trim.packet);
  return join(dm);
}

/// 5. The result's HBM Element: every coordinate the DM tensor holds (E-DMA-001), its axes
///    unpadded, in any order (a DM → HBM packet of any size is accepted, docs/dma.md §2).
std::string draw_result_element(Draw& r, const OutputRequest& q, const Trim& trim,
                                std::vector<std::string>& features) {
  std::vector<std::string> hbm;
  for (const Digit& d : q.time)
    if (std::string p = hbm_piece(d); !p.empty()) hbm.push_back(p);
  if (!trim.hbm.empty()) hbm.push_back(trim.hbm);
  if (!q.spatial.empty()) hbm.insert(hbm.begin(), q.spatial);
  if (hbm.size() >= 2 && r.coin(0.4) && r.shuffle(hbm)) features.push_back("hbm-order");
  return join(hbm);
}

} // namespace

OutputPlan plan_output(std::mt19937_64& rng, const OutputRequest& q) {
  Draw r{rng};
  OutputPlan o;
  const CastChoice cast = draw_cast(r, q.type);
  const std::uint64_t bits = out_bits(cast.to.empty() ? q.type : cast.to);
  if (!cast.to.empty()) {
    // E-CAST-003/004: the input packet re-padded to one flit of the output type.
    o.calls += fmt::format("\n        .cast::<{}, m![{} # {}]>()", cast.to, text(q.packet),
                           kFlitBits / bits);
    o.features.push_back("cast");
    o.features.push_back("cast:" + cast.to);
  }
  const Trim trim = draw_trim(r, q, bits, cast.commit_cast);
  o.calls += fmt::format("\n        .commit_trim::<m![{}]>()", trim.packet);
  o.features.push_back("commit_trim");
  if (trim.partial) o.features.push_back("trim-partial");
  if (!trim.partial && trim.valid < kFlitBits / bits) o.features.push_back("trim-pad");
  // 3. The Commit Adapter's cast (§2.2).
  o.dtype = cast.to.empty() ? q.type : cast.to;
  if (cast.commit_cast) {
    const char* call = cast.relu ? "commit_cast_relu" : "commit_cast";
    o.calls += fmt::format("\n        .{}::<bf16>()", call);
    o.features.push_back(call);
    o.dtype = "bf16";
  }
  if (cast.to.empty() && !cast.commit_cast) o.features.push_back("commit:plain");
  o.dm_element = draw_commit_element(r, q, trim, o.features);
  const bool explicit_commit = r.coin(0.5);
  o.calls += explicit_commit ? fmt::format("\n        .commit::<m![{}]>()", o.dm_element)
                             : std::string("\n        .commit()");
  o.features.push_back(explicit_commit ? "commit:explicit" : "commit:implicit");
  o.hbm_element = draw_result_element(r, q, trim, o.features);
  o.explicit_to_hbm = r.coin(0.5);
  o.features.push_back(o.explicit_to_hbm ? "to_hbm:explicit" : "to_hbm:implicit");
  return o;
}

} // namespace tujit::testing::kernel_gen_detail

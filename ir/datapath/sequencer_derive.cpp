#include "ir/datapath/sequencer_derive.h"

#include "ir/datapath/sequencer_errors.h"
#include "ir/mapping/divide.h"
#include "ir/target/rngd.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

namespace tujit::ir::datapath {

namespace {

using target::kRngd;

/// Everything a term's derivation reads besides the term itself.
struct Walk {
  const Mapping& buf;
  FactorList b0;                  // normalize(Buf) before any term was read
  std::set<std::string> buf_axes; // axes Buf names
  SeqMode mode;
};

/// One loop of a term while it is built, with the largest of its digits that is a live stream
/// position: padding only ever adds digits above it, so the term's live positions stay inside
/// `max_live` of every loop.
struct Seg {
  SeqEntry e;
  std::uint64_t max_live = 0;
};

struct TermOutcome {
  std::vector<Seg> segs; // innermost first while building
  bool broadcast = false;
  bool padded = false;               // the term declares padding (or pure-padding positions)
  std::uint64_t live_max_offset = 0; // the largest address a live position of the term adds
  std::uint64_t live_positions = 1;  // the term's positions that carry data
  FactorList buf_after;
};

void collect_idents(const Atom& a, std::vector<std::string>& out) {
  if (!a.is_composite()) {
    if (std::find(out.begin(), out.end(), a.name) == out.end()) out.push_back(a.name);
    return;
  }
  for (const Factor& f : a.comp->factors)
    if (f.is_term()) collect_idents(f.atom, out);
}

std::string digit_text(const Factor& f) {
  return render_text(FactorList{{f}});
}

std::uint64_t product(const std::vector<Seg>& segs) {
  std::uint64_t n = 1;
  for (const Seg& s : segs) n *= s.e.size;
  return n;
}

/// Merges linear neighbours `(n1:s1)` (outer), `(n2:s2)` (inner) with `s1 == n2·s2` of an
/// innermost-first segment list into `(n1·n2 : s2)` (no size cap: only used to make a padded or
/// sliced block one loop, whose size the table check bounds later). The merged loop's largest
/// live digit `m1·n2 + m2` keeps the largest live address.
void merge_linear(std::vector<Seg>& segs) {
  for (std::size_t i = 0; i + 1 < segs.size();) {
    const Seg& in = segs[i];
    const Seg& out = segs[i + 1];
    if (out.e.stride != in.e.size * in.e.stride) {
      ++i;
      continue;
    }
    const Seg merged{SeqEntry{out.e.size * in.e.size, in.e.stride},
                     out.max_live * in.e.size + in.max_live};
    segs[i] = merged;
    segs.erase(segs.begin() + static_cast<std::ptrdiff_t>(i + 1));
  }
}

/// A Pad or a top-level `# t` / `= t` sets the term's block to `total` positions. The block's
/// outermost loop absorbs the change when the loops inside it tile `total` (a read over the
/// extra positions is a Top over-read, a write drops them: docs/datapath.md §4.2); otherwise the
/// block must first be one linear run. False when neither works. A slice (`= t`, fewer positions)
/// also lowers the largest live digit.
bool extend_block(std::vector<Seg>& segs, std::uint64_t total) {
  if (segs.empty()) {
    // Pure padding (`1 # 4`): every position is don't-care; re-read the base address.
    if (total > 1) segs.push_back(Seg{SeqEntry{total, 0}, 0});
    return true;
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    const std::uint64_t inner = product(segs) / segs.back().e.size;
    if (total % inner == 0) {
      Seg& outer = segs.back();
      outer.e.size = total / inner;
      outer.max_live = std::min(outer.max_live, outer.e.size - 1);
      return true;
    }
    if (attempt == 0) merge_linear(segs);
  }
  return false;
}

/// The buffer digits (of the original Buf) that name axis `x`, for notes.
std::string buffer_digits_of(const FactorList& b0, const std::string& x) {
  std::string out;
  for (std::size_t j = 0; j < b0.factors.size(); ++j) {
    const Factor& g = b0.factors[j];
    if (!g.is_term()) continue;
    std::vector<std::string> ids;
    collect_idents(g.atom, ids);
    if (std::find(ids.begin(), ids.end(), x) == ids.end()) continue;
    out += fmt::format("{}`{}` ({} values, position stride {})", out.empty() ? "" : ", ",
                       digit_text(g), g.count, b0.extent_before(j));
  }
  return out.empty() ? "none" : out;
}

/// An unmatched stream digit: the axis of Buf it collides with, or none when the digit's values
/// are disjoint from everything Buf holds of its axes (then it is a broadcast: docs/datapath.md §4,
/// "a fragment such as `N / 512` that Buf does not carry").
std::optional<std::string> colliding_axis(const Factor& f, const Walk& w) {
  std::vector<std::string> ids;
  collect_idents(f.atom, ids);
  for (const std::string& x : ids) {
    if (!w.buf_axes.count(x)) continue;
    if (f.atom.is_composite()) return x; // a ragged piece of a buffer axis: never a broadcast
    for (const Factor& g : w.b0.factors) {
      if (!g.is_term()) continue;
      if (g.atom.is_composite()) {
        std::vector<std::string> gids;
        collect_idents(g.atom, gids);
        if (std::find(gids.begin(), gids.end(), x) != gids.end()) return x;
        continue;
      }
      if (g.atom.name != x) continue;
      // Digit value ranges in the axis's stride space: [s, s·c).
      const bool disjoint = f.stride * f.count <= g.stride || g.stride * g.count <= f.stride;
      if (!disjoint) return x;
    }
  }
  return std::nullopt;
}

Diagnostic collision_error(const Mapping& term, const Factor& f, const std::string& axis,
                           const Walk& w) {
  const bool fresh_match = divide_relaxed(w.b0, FactorList{{f}}).exact();
  if (fresh_match)
    return seq_error(kFragmentReadTwice,
                     fmt::format("the stream term `{}` reads `{}` of axis {}, which an earlier "
                                 "stream term already read from the buffer `{}`",
                                 term.to_string(), digit_text(f), axis, w.buf.to_string()),
                     {"each buffer digit is consumed by one stream term: after a term is read its "
                      "fragment becomes a placeholder `1 # extent` (docs/datapath.md §4)",
                      fmt::format("buffer digits of {}: {}", axis, buffer_digits_of(w.b0, axis))});
  return seq_error(
      kIncompatibleDecomposition,
      fmt::format("the stream term `{}` cannot be read from the buffer `{}`: it splits axis {} "
                  "incompatibly with the buffer (its digit `{}` does not line up with the "
                  "buffer's digits of {})",
                  term.to_string(), w.buf.to_string(), axis, digit_text(f), axis),
      {"an axis named by both the buffer and the stream must be split compatibly: the stream's "
       "pieces must be unions of pieces of a common refinement of both splits (buffer `A % 5, "
       "A / 5` cannot be read as `A % 3, A / 3`: 5 and 3 have no common refinement; "
       "docs/datapath.md §4)",
       fmt::format("buffer digits of {}: {}", axis, buffer_digits_of(w.b0, axis))});
}

Diagnostic padding_error(const Mapping& term, PaddingKind kind) {
  return seq_error(kStreamPaddingUnsupported,
                   fmt::format("the stream term `{}` declares {} padding, but a fetch reads "
                               "whatever memory holds past the fragment: only top padding (`#`) "
                               "can be over-read",
                               term.to_string(), to_string(kind)),
                   {"reads may over-read top padding (arbitrary values); zero padding `#{0}` "
                    "and bottom padding `#{!}` make promises a fetch cannot keep "
                    "(docs/datapath.md §3 'Padding kinds')",
                    "fix: write `#` (top) in the stream, or fill the padding in memory and read "
                    "it as part of the buffer"});
}

Diagnostic slice_write_error(const Mapping& term, const Walk& w) {
  return seq_error(kStreamPaddingUnsupported,
                   fmt::format("the stream term `{}` slices what it writes into the buffer `{}`: "
                               "the cells past the slice would never be written",
                               term.to_string(), w.buf.to_string()),
                   {"a write covers every live buffer cell from exactly one stream position; its "
                    "padded positions are dropped, but a slice (`= n`) leaves cells unwritten "
                    "(docs/datapath.md §4.2)",
                    "fix: write the whole fragment, or slice the buffer view instead"});
}

Diagnostic not_one_loop_error(const Mapping& term, const std::vector<Seg>& segs,
                              std::uint64_t total, const Walk& w) {
  std::vector<SeqEntry> outer_first;
  for (auto it = segs.rbegin(); it != segs.rend(); ++it) outer_first.push_back(it->e);
  return seq_error(
      kTermNotOneLoop,
      fmt::format("the stream term `{}` pads or slices to {} positions a fragment whose buffer "
                  "layout {} is not one contiguous run, so no loop nest enumerates it",
                  term.to_string(), total, entries_text(outer_first)),
      {"a padded (`# n`) or sliced (`= n`) term is one sequencer loop: its fragment must occupy "
       "the buffer `" +
           w.buf.to_string() +
           "` as a linear run, or its inner loops must tile n "
           "(docs/datapath.md §4.2)",
       "fix: pad or slice a single axis piece (`B # 16`), or list the group's axes in their "
       "memory order"});
}

Result<TermOutcome> derive_term(const Mapping& term, const FactorList& cur, const Walk& w) {
  // The fragment is the term without its outer `# t` / `= r`: `A % 4 = 3` reads fragment `A % 4`
  // with 3 iterations, `C # 16` reads `C` over 16 positions (docs/datapath.md §4).
  std::vector<Mapping> wrappers;
  Mapping x = term;
  while (x.kind() == Mapping::Kind::Padding || x.kind() == Mapping::Kind::Resize) {
    wrappers.push_back(x);
    x = x.lhs();
  }
  // A write of a sliced term (`J = 2`, a commit after a trim that keeps part of an axis,
  // docs/output-path.md §2.1) into a buffer that holds exactly the slice and not the whole
  // fragment fills every live cell once: its fragment is the slice itself. Into a buffer that
  // holds the whole fragment it would leave cells unwritten (below, E-FETCH-018).
  if (w.mode == SeqMode::Write && !wrappers.empty() &&
      wrappers.back().kind() == Mapping::Kind::Resize &&
      !divide_relaxed(cur, factorize(x)).exact() &&
      divide_relaxed(cur, factorize(wrappers.back())).exact()) {
    x = wrappers.back();
    wrappers.pop_back();
  }
  const FactorList fragment = factorize(x);
  const Division div = divide_relaxed(cur, fragment);
  const FactorList& v = div.divisor.refined;

  std::vector<std::uint64_t> stride_of(v.factors.size(), 0);
  for (std::size_t k = 0; k < div.terms.size(); ++k)
    stride_of[div.positions[k].divisor_factor] = div.terms[k].dividend_stride;

  TermOutcome out;
  auto push_live = [&](std::uint64_t count, std::uint64_t stride) {
    out.segs.push_back(Seg{SeqEntry{count, stride}, count - 1});
    out.live_positions *= count;
  };
  for (std::size_t j = 0; j < v.factors.size(); ++j) {
    const Factor& f = v.factors[j];
    if (f.is_term()) {
      if (div.divisor.matched[j]) {
        push_live(f.count, stride_of[j]);
        continue;
      }
      if (auto axis = colliding_axis(f, w)) return collision_error(term, f, *axis, w);
      push_live(f.count, 0);
      out.broadcast = true;
    } else if (f.is_bcast()) {
      // A literal broadcast (`4`) has no axis, so it never occurs in Buf.
      push_live(f.count, 0);
      out.broadcast = true;
    } else {
      // A read over-reads the padded positions (Top only); a write drops them (any kind).
      if (w.mode == SeqMode::Read && f.pad != PaddingKind::Top) return padding_error(term, f.pad);
      out.padded = true;
      if (!extend_block(out.segs, f.total)) return not_one_loop_error(term, out.segs, f.total, w);
    }
  }
  for (auto it = wrappers.rbegin(); it != wrappers.rend(); ++it) {
    const bool pad = it->kind() == Mapping::Kind::Padding;
    const PaddingKind kind = pad ? it->padding_kind() : PaddingKind::Top;
    if (!pad && w.mode == SeqMode::Write) return slice_write_error(term, w);
    if (pad && w.mode == SeqMode::Read && kind != PaddingKind::Top)
      return padding_error(term, kind);
    if (!pad) out.live_positions = std::min(out.live_positions, it->number());
    out.padded = out.padded || pad;
    if (!extend_block(out.segs, it->number()))
      return not_one_loop_error(term, out.segs, it->number(), w);
  }
  for (const Seg& g : out.segs) out.live_max_offset += g.max_live * g.e.stride;
  if (w.mode == SeqMode::Write && out.broadcast)
    return seq_error(kBroadcastWrite,
                     fmt::format("the stream term `{}` is not in the buffer `{}`: a write cannot "
                                 "broadcast (several stream positions would write one cell)",
                                 term.to_string(), w.buf.to_string()),
                     {"every buffer cell is written from exactly one stream position "
                      "(docs/datapath.md §4)"});
  out.buf_after = div.dividend.relaxed_residue;
  return out;
}

} // namespace

std::vector<Mapping> stream_terms(const Mapping& m) {
  std::vector<Mapping> out;
  std::vector<Mapping> stack{m};
  while (!stack.empty()) {
    Mapping t = stack.back();
    stack.pop_back();
    if (t.kind() == Mapping::Kind::Pair) {
      stack.push_back(t.rhs());
      stack.push_back(t.lhs());
      continue;
    }
    out.push_back(std::move(t));
  }
  return out;
}

namespace {

/// Every term of Time then Packet, in order, as sequencer loops over what the buffer still holds
/// (docs/datapath.md §4); returns what the buffer holds after the last term.
Result<FactorList> derive_steps(const Mapping& time, const Mapping& packet, Walk& w,
                                SequencerDerivation& d) {
  std::uint64_t live_max = 0;
  FactorList cur = w.b0;
  for (int side = 0; side < 2; ++side) {
    for (const Mapping& term : stream_terms(side == 0 ? time : packet)) {
      auto r = derive_term(term, cur, w);
      if (!r) return std::move(r).take_diagnostics();
      TermStep step;
      step.term = term.to_string();
      step.in_packet = side == 1;
      step.broadcast = r->broadcast;
      step.padded = r->padded;
      live_max += r->live_max_offset;
      d.live_positions *= r->live_positions;
      // One entry per term where the fragment is linear in Buf (docs/datapath.md §4 "emit
      // (size(t) : stride)"); a fragment Buf holds in pieces keeps one entry per piece.
      std::vector<SeqEntry> outer_first;
      for (auto it = r->segs.rbegin(); it != r->segs.rend(); ++it) outer_first.push_back(it->e);
      outer_first = merge_contiguous(std::move(outer_first), kRngd.sequencer_max_loop_size);
      for (const SeqEntry& e : outer_first)
        if (e.size > 1) step.entries.push_back(e);
      step.buf_after = r->buf_after;
      cur = r->buf_after;
      d.raw_entries.insert(d.raw_entries.end(), step.entries.begin(), step.entries.end());
      if (side == 0) d.time_entries += step.entries.size();
      d.steps.push_back(std::move(step));
    }
  }
  d.live_footprint = live_max + 1;
  return cur;
}

/// A write fills every live cell and every zero-padding cell of its buffer: what the buffer
/// still holds after the last term (`rest`) may only be top padding (docs/datapath.md §4.2).
Status check_write_covers(const Mapping& buf, const FactorList& rest) {
  for (const Factor& f : rest.factors) {
    if (f.is_pad() && f.pad == PaddingKind::Zero)
      return seq_error(kUnwrittenCells,
                       fmt::format("the buffer `{}` declares zero padding (`#{{0}}`), which "
                                   "this write never fills: the stream's padded positions are "
                                   "dropped, so the promised zeros would not be there",
                                   buf.to_string()),
                       {"a write fills every live cell and every zero-padding cell of its "
                        "buffer (docs/datapath.md §4.2)",
                        "fix: declare the buffer's padding top (`#`), or fill it separately"});
    if (!f.is_term()) continue;
    return seq_error(kUnwrittenCells,
                     fmt::format("the stream writes only part of the buffer `{}`: the cells of "
                                 "`{}` are never written",
                                 buf.to_string(), render_text(rest)),
                     {"a write covers every buffer cell from exactly one stream position "
                      "(docs/datapath.md §4)"});
  }
  return {};
}

/// The loops as the sequencer's table holds them: merged when there are too many, then within
/// the table's entry count and each loop's iteration limit (docs/datapath.md §4).
Result<std::vector<SeqEntry>> fit_table(const Mapping& buf, SequencerDerivation& d) {
  std::vector<SeqEntry> entries = d.raw_entries;
  if (entries.size() > kRngd.sequencer_entries) {
    entries = merge_contiguous(std::move(entries), kRngd.sequencer_max_loop_size);
    d.merged = true;
  }
  if (entries.size() > kRngd.sequencer_entries)
    return seq_error(
        kTooManyEntries,
        fmt::format("reading the buffer `{}` as this stream needs {} sequencer loops after "
                    "merging contiguous ones, but the table holds {}",
                    buf.to_string(), entries.size(), kRngd.sequencer_entries),
        {fmt::format("loops (outermost first): {}", entries_text(entries)),
         "adjacent loops (n1:s1), (n2:s2) merge only when s1 == n2·s2 (docs/datapath.md §4)",
         "fix: keep axis pieces that are adjacent in memory adjacent (and in order) in the "
         "stream, or split the transfer into several"});
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].size <= kRngd.sequencer_max_loop_size) continue;
    return seq_error(kLoopTooLarge,
                     fmt::format("sequencer loop {} ({}:{}) iterates {} times; one entry "
                                 "iterates at most {} times",
                                 i, entries[i].size, entries[i].stride, entries[i].size,
                                 kRngd.sequencer_max_loop_size),
                     {fmt::format("loops (outermost first): {}", entries_text(entries)),
                      "fix: split the stream term, e.g. `A / 256, A % 256` instead of `A`"});
  }
  return entries;
}

} // namespace

Result<SequencerDerivation> derive_sequencer(const Mapping& buf, const Mapping& time,
                                             const Mapping& packet, SeqMode mode) {
  Walk w{buf, factorize(buf), {}, mode};
  for (const Axis& a : buf.axes()) w.buf_axes.insert(a.name);
  SequencerDerivation d;
  d.mode = mode;
  d.buffer_size = buf.size();
  d.time_size = time.size();
  auto rest = derive_steps(time, packet, w, d);
  if (!rest) return std::move(rest).take_diagnostics();
  if (mode == SeqMode::Write)
    if (auto r = check_write_covers(buf, *rest); !r) return std::move(r).take_diagnostics();
  auto entries = fit_table(buf, d);
  if (!entries) return std::move(entries).take_diagnostics();
  d.config = make_config(std::move(*entries), packet.size());
  return d;
}

} // namespace tujit::ir::datapath

// What a division leaves behind (docs/mapping.md §7.3 residues, §7.4 bounds, padding ranges,
// remainder, contiguous tail) and the verification helpers built on DivideTerms (§4.7
// padded_extent_at, §7.5 InnerTime). The matching itself is in divide.cpp.
#include "ir/mapping/divide.h"
#include "ir/mapping/factor_detail.h"

#include <algorithm>

#include <fmt/format.h>

namespace tujit::ir {

namespace {

Diagnostic type_error(std::string code, std::string message, std::vector<std::string> notes = {}) {
  Diagnostic d = make_error(std::move(code), std::move(message), std::nullopt, std::move(notes));
  d.stage = "type";
  return d;
}

/// §7.4 `min`: the smallest divisor of `extent` that is >= `live` (the extent itself at worst,
/// since live <= extent). Exact for any u64 extent (factor_detail.h).
std::uint64_t smallest_divisor_at_least(std::uint64_t extent, std::uint64_t live) {
  return detail::smallest_divisor_at_least(extent, live).value_or(extent);
}

/// A leaf whose single term is a matched digit (§7.4 "matched single-term leaf").
bool is_matched_term_leaf(const Leaf& leaf, const DivisionSide& side) {
  return !leaf.group && !leaf.pure_padding && side.matched[leaf.first];
}

/// A group leaf holding a matched digit: the digit cannot be compacted out (§7.4 "misaligned").
bool is_misaligned_leaf(const Leaf& leaf, const DivisionSide& side) {
  if (!leaf.group) return false;
  for (std::size_t j = leaf.first; j <= leaf.last; ++j)
    if (side.matched[j]) return true;
  return false;
}

Diagnostic misaligned(const DivisionSide& side, const Leaf& leaf) {
  FactorList block;
  for (std::size_t j = leaf.first; j <= leaf.last; ++j) {
    Factor f = side.refined.factors[j];
    if (f.is_pad()) f.total /= leaf.stride;
    block.factors.push_back(std::move(f));
  }
  return type_error(
      "E-TYPE-333",
      fmt::format("misaligned: a matched digit lies inside the padded block `{}` "
                  "(at position stride {}), so it cannot be taken out on its own",
                  render_text(block), leaf.stride),
      {"rule (docs/mapping.md §7.4): a matched digit must be a whole axis leaf (one term "
       "with its own padding) to be compacted out of the remainder"});
}

std::vector<StrideRange> merge_ranges(std::vector<StrideRange> rs) {
  std::sort(rs.begin(), rs.end(), [](const StrideRange& a, const StrideRange& b) {
    return a.begin < b.begin || (a.begin == b.begin && a.end < b.end);
  });
  std::vector<StrideRange> out;
  for (const StrideRange& r : rs) {
    if (!out.empty() && r.begin <= out.back().end) {
      out.back().end = std::max(out.back().end, r.end);
      continue;
    }
    out.push_back(r);
  }
  return out;
}

LeafBounds bounds_of(const DivisionSide& side, std::size_t factor, bool& ok) {
  for (const Leaf& leaf : leaves(side.refined)) {
    if (factor < leaf.first || factor > leaf.last) continue;
    if (leaf.group || leaf.pure_padding || leaf.first != factor) break;
    ok = true;
    return LeafBounds{leaf.stride, smallest_divisor_at_least(leaf.extent, leaf.live), leaf.extent};
  }
  ok = false;
  return {};
}

} // namespace

/// §7.3 relaxed residue: every matched digit becomes a Top hole covering its positions.
FactorList relaxed_residue_of(const DivisionSide& side) {
  FactorList out;
  for (std::size_t j = 0; j < side.refined.factors.size(); ++j) {
    if (side.matched[j])
      out.factors.push_back(Factor::padding(side.refined.extent_after(j), PaddingKind::Top));
    else
      out.factors.push_back(side.refined.factors[j]);
  }
  return normalize(std::move(out));
}

Result<Residues> tile_residues(const Division& division, std::size_t term, std::uint64_t len,
                               bool mutable_view) {
  if (term >= division.terms.size())
    return type_error("E-TYPE-332",
                      fmt::format("the tile index is not a factor of the tiled mapping `[{}]`",
                                  render_text(division.dividend.refined)),
                      {fmt::format("the division matched {} digit(s); asked for digit {}",
                                   division.terms.size(), term)});
  const std::uint64_t count = division.terms[term].resize;
  if (len < 1 || len > count)
    return type_error(
        "E-TYPE-332",
        fmt::format("tile length {} is out of range for a tiled digit of {} values", len, count),
        {"rule (docs/mapping.md §7.3): 1 <= LEN <= the count of the tiled digit"});

  const DivisionSide& side = division.dividend;
  const std::size_t at = division.positions[term].dividend_factor;
  const PaddingKind kind = mutable_view ? PaddingKind::Bottom : PaddingKind::Top;
  FactorList out;
  for (std::size_t j = 0; j < side.refined.factors.size(); ++j) {
    const Factor& f = side.refined.factors[j];
    const std::uint64_t after = side.refined.extent_after(j);
    if (j == at) {
      if (len > 1)
        out.factors.push_back(f.is_term() ? Factor::term(f.atom, f.stride, len)
                                          : Factor::bcast(len));
      out.factors.push_back(Factor::padding(after, kind));
    } else if (side.matched[j]) {
      out.factors.push_back(Factor::padding(after, PaddingKind::Top));
    } else {
      out.factors.push_back(f);
    }
  }
  return Residues{normalize(std::move(out)), division.divisor.relaxed_residue};
}

Result<std::vector<TermBounds>> term_bounds(const Division& division) {
  std::vector<TermBounds> out;
  for (const Division::Position& p : division.positions) {
    bool ok_d = false;
    bool ok_v = false;
    TermBounds b{bounds_of(division.dividend, p.dividend_factor, ok_d),
                 bounds_of(division.divisor, p.divisor_factor, ok_v)};
    if (!ok_d || !ok_v) {
      const DivisionSide& side = ok_d ? division.divisor : division.dividend;
      const std::size_t factor = ok_d ? p.divisor_factor : p.dividend_factor;
      for (const Leaf& leaf : leaves(side.refined))
        if (factor >= leaf.first && factor <= leaf.last) return misaligned(side, leaf);
      return type_error("E-TYPE-333", "misaligned: a matched digit is not an axis leaf");
    }
    out.push_back(b);
  }
  return out;
}

std::vector<StrideRange> padding_ranges(const DivisionSide& side, bool live_start) {
  std::vector<StrideRange> out;
  for (const Leaf& leaf : leaves(side.refined)) {
    std::uint64_t start = leaf.live;
    if (is_matched_term_leaf(leaf, side) && !live_start)
      start = smallest_divisor_at_least(leaf.extent, leaf.live);
    if (start < leaf.extent)
      out.push_back(StrideRange{leaf.stride * start, leaf.stride * leaf.extent});
  }
  return merge_ranges(std::move(out));
}

Result<FactorList> remainder(const DivisionSide& side) {
  FactorList acc;
  for (const Leaf& leaf : leaves(side.refined)) {
    if (is_misaligned_leaf(leaf, side)) return misaligned(side, leaf);
    FactorList piece;
    if (is_matched_term_leaf(leaf, side)) {
      // The matched digit is compacted away; only the padding that a whole block of `min`
      // positions cannot absorb remains, as pure padding `1 # (E / min)`.
      const std::uint64_t holes = leaf.extent / smallest_divisor_at_least(leaf.extent, leaf.live);
      if (holes > 1) piece.factors.push_back(Factor::padding(holes, PaddingKind::Top));
    } else {
      for (std::size_t j = leaf.first; j <= leaf.last; ++j) {
        Factor f = side.refined.factors[j];
        if (f.is_pad()) f.total /= leaf.stride;
        piece.factors.push_back(std::move(f));
      }
    }
    acc = pair(piece, acc);
  }
  return normalize(std::move(acc));
}

std::uint64_t contiguous_tail(const Division& division) {
  std::vector<StrideRange> ranges = padding_ranges(division.dividend, true);
  const std::vector<StrideRange> v_ranges = padding_ranges(division.divisor, true);
  ranges.insert(ranges.end(), v_ranges.begin(), v_ranges.end());
  std::uint64_t t = 1;
  for (;;) {
    bool grown = false;
    for (const DivideTerm& term : division.terms) {
      if (term.dividend_stride == t && term.divisor_stride == t) {
        t *= term.resize;
        grown = true;
        break;
      }
    }
    if (grown) continue;
    for (const StrideRange& r : ranges) {
      if (r.begin == t) {
        t = r.end;
        grown = true;
        break;
      }
    }
    if (!grown) return t;
  }
}

std::optional<std::uint64_t>
padded_extent_at(const std::map<std::uint64_t, std::uint64_t>& padding_per_stride_map,
                 const DivideTerm& term) {
  const auto it = padding_per_stride_map.find(term.dividend_stride);
  if (it == padding_per_stride_map.end()) return std::nullopt;
  return it->second;
}

std::uint64_t inner_time_from_division(const std::vector<DivideTerm>& terms,
                                       const std::map<std::uint64_t, std::uint64_t>& time_padding,
                                       std::uint64_t time_size, std::uint64_t out_time_size) {
  // Retained factors at an axis boundary of the pre-reduce time, outermost first; sub-terms are
  // dropped before the walk so that a gap is always measured between whole boundaries (D-13).
  struct Boundary {
    const DivideTerm* term;
    std::uint64_t end;
  };
  std::vector<Boundary> bs;
  for (const DivideTerm& t : terms)
    if (const auto e = padded_extent_at(time_padding, t))
      bs.push_back({&t, t.dividend_stride * *e});
  std::sort(bs.begin(), bs.end(), [](const Boundary& a, const Boundary& b) {
    return a.term->dividend_stride > b.term->dividend_stride;
  });
  if (bs.empty()) return 1;
  if (bs.front().end < time_size) return out_time_size;
  for (std::size_t i = 0; i + 1 < bs.size(); ++i)
    if (bs[i + 1].end != bs[i].term->dividend_stride) return bs[i].term->divisor_stride;
  return 1;
}

} // namespace tujit::ir

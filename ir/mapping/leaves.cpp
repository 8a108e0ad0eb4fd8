// Axis leaves (docs/mapping.md §4.5), rendering of the normal form (§4.6), remove_padding (§4.6)
// and padding_per_stride (§4.7).
#include "ir/mapping/factor.h"

#include "ir/mapping/factor_detail.h"

#include <fmt/format.h>

namespace tujit::ir {

std::vector<Leaf> leaves(const FactorList& l) {
  const std::vector<std::uint64_t> ext = detail::cumulative_extents(l);
  std::vector<Leaf> out;
  for (std::size_t j = 0; j < l.factors.size(); ++j) {
    const Factor& f = l.factors[j];
    if (!f.is_pad()) {
      Leaf leaf;
      leaf.first = leaf.last = j;
      leaf.stride = ext[j];
      leaf.live = f.count;
      leaf.first_pad = j + 1;
      out.push_back(leaf);
      continue;
    }
    if (out.empty()) {
      Leaf leaf;
      leaf.first = leaf.last = j;
      leaf.stride = 1;
      leaf.live = 1;
      leaf.pure_padding = true;
      leaf.first_pad = j;
      out.push_back(leaf);
      continue;
    }
    // Attach to the outermost leaf whose stride divides the total (the innermost leaf has
    // stride 1, so one always does); the leaves outward of it merge into a group.
    std::size_t i = out.size() - 1;
    while (i > 0 && f.total % out[i].stride != 0) --i;
    if (i + 1 < out.size()) {
      Leaf& g = out[i];
      g.group = true;
      g.pure_padding = false;
      // §4.5 "live = E_before(first pad)/stride" for a group: the first Pad of the group as a
      // whole, i.e. this merging Pad. (Inner leaves may carry Pads of their own; counting from
      // the first of those would call live cells padding.)
      g.first_pad = j;
      g.live = ext[j] / g.stride;
      out.resize(i + 1);
    }
    out[i].last = j;
  }
  for (Leaf& leaf : out) leaf.extent = ext[leaf.last + 1] / leaf.stride;
  return out;
}

namespace {

// §4.6 Term leaf operators: the digit (stride s, count c) of an atom of size n.
struct TermOps {
  std::uint64_t stride = 1; // `/ stride` when > 1
  std::uint64_t prefix = 0; // `= prefix` applied before the stride (s does not divide n)
  std::uint64_t modulo = 0; // `% modulo`
  std::uint64_t resize = 0; // `= resize`
};

TermOps term_ops(std::uint64_t s, std::uint64_t c, std::uint64_t n) {
  TermOps ops;
  if (s > 1 && n % s != 0) {
    ops.prefix = s * c;
    ops.stride = s;
    return ops;
  }
  ops.stride = s;
  const std::uint64_t rest = n / s;
  if (c < rest) {
    if (rest % c == 0)
      ops.modulo = c;
    else
      ops.resize = c;
  }
  return ops;
}

std::string_view pad_op(PaddingKind k) {
  switch (k) {
  case PaddingKind::Zero:
    return "#{0}";
  case PaddingKind::Bottom:
    return "#{!}";
  case PaddingKind::Top:
    break;
  }
  return "#";
}

// The inner leaves of a group, as their own list: Pad totals re-based to the group's stride.
FactorList group_body(const FactorList& l, const Leaf& leaf) {
  return detail::divide_pads(detail::slice(l, leaf.first, leaf.first_pad), leaf.stride);
}

std::string leaf_text(const FactorList& l, const Leaf& leaf) {
  std::string s;
  const Factor& f = l.factors[leaf.first];
  if (leaf.pure_padding) {
    s.push_back('1'); // not `s = "1"`: g++ 12 with ASan reports the same false -Wrestrict
  } else if (leaf.group) {
    s = fmt::format("[{}]", render_text(group_body(l, leaf)));
  } else if (f.is_bcast()) {
    s = fmt::format("{}", f.count);
  } else {
    // Formatted, not `"[" + std::string`: g++ 12 at -O3 reports a false -Wrestrict inside
    // libstdc++'s string insert that the latter inlines.
    s = f.atom.is_composite() ? fmt::format("[{}]", render_text(*f.atom.comp)) : f.atom.name;
    const TermOps ops = term_ops(f.stride, f.count, f.atom.size);
    if (ops.prefix) s += fmt::format(" = {}", ops.prefix);
    if (ops.stride > 1) s += fmt::format(" / {}", ops.stride);
    if (ops.modulo) s += fmt::format(" % {}", ops.modulo);
    if (ops.resize) s += fmt::format(" = {}", ops.resize);
  }
  for (std::size_t p = leaf.first_pad; p <= leaf.last; ++p) {
    const Factor& pad = l.factors[p];
    s += fmt::format(" {} {}", pad_op(pad.pad), pad.total / leaf.stride);
  }
  return s;
}

// Factories cannot fail on what rendering builds (every operator respects §1.3 by the leaf
// invariants); a failure is a bug, counted, and the operand is kept.
Mapping checked(Result<Mapping> r, const Mapping& fallback) {
  if (r.ok()) return std::move(r).value();
  detail::note_internal_error();
  return fallback;
}

Mapping leaf_tree(const FactorList& l, const Leaf& leaf) {
  Mapping m;
  const Factor& f = l.factors[leaf.first];
  if (leaf.pure_padding) {
    m = Mapping();
  } else if (leaf.group) {
    m = render(group_body(l, leaf));
  } else if (f.is_bcast()) {
    m = checked(Mapping::broadcast(f.count), m);
  } else {
    m = f.atom.is_composite() ? render(*f.atom.comp)
                              : Mapping::symbol(Axis{f.atom.name, f.atom.size});
    const TermOps ops = term_ops(f.stride, f.count, f.atom.size);
    if (ops.prefix) m = checked(Mapping::resize(m, ops.prefix), m);
    if (ops.stride > 1) m = checked(Mapping::stride(m, ops.stride), m);
    if (ops.modulo) m = checked(Mapping::modulo(m, ops.modulo), m);
    if (ops.resize) m = checked(Mapping::resize(m, ops.resize), m);
  }
  for (std::size_t p = leaf.first_pad; p <= leaf.last; ++p) {
    const Factor& pad = l.factors[p];
    m = checked(Mapping::padding(m, pad.total / leaf.stride, pad.pad), m);
  }
  return m;
}

bool is_identity(const Mapping& m) {
  return m.kind() == Mapping::Kind::Broadcast && m.number() == 1;
}

} // namespace

Mapping render(const FactorList& l) {
  const std::vector<Leaf> ls = leaves(l);
  if (ls.empty()) return Mapping();
  // Leaves outermost first as a right-nested chain: build it from the innermost leaf.
  Mapping acc = leaf_tree(l, ls.front());
  for (std::size_t i = 1; i < ls.size(); ++i)
    acc = checked(Mapping::pair(leaf_tree(l, ls[i]), acc), acc);
  return acc;
}

std::string render_text(const FactorList& l) {
  const std::vector<Leaf> ls = leaves(l);
  if (ls.empty()) return "1";
  std::string s;
  for (std::size_t i = ls.size(); i-- > 0;) {
    if (!s.empty()) s += ", ";
    s += leaf_text(l, ls[i]);
  }
  return s;
}

FactorList remove_padding(const FactorList& l) {
  FactorList r = l;
  while (!r.factors.empty() && r.factors.back().is_pad()) r.factors.pop_back();
  return r;
}

Mapping remove_padding(const Mapping& m) {
  switch (m.kind()) {
  case Mapping::Kind::Padding:
    return remove_padding(m.lhs());
  case Mapping::Kind::Pair: {
    Mapping major = remove_padding(m.lhs());
    if (is_identity(major)) return remove_padding(m.rhs());
    if (is_identity(m.rhs())) return major;
    return checked(Mapping::pair(major, m.rhs()), m);
  }
  default:
    return m;
  }
}

std::map<std::uint64_t, std::uint64_t> padding_per_stride(const FactorList& l) {
  std::map<std::uint64_t, std::uint64_t> out;
  for (const Leaf& leaf : leaves(normalize(l))) out[leaf.stride] = leaf.extent;
  return out;
}

} // namespace tujit::ir

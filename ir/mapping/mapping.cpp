// Mapping values (docs/mapping.md §2, §3): cells, combine/finalize, and the validated expression
// tree with its SIZE and position → Cell function.
#include "ir/mapping/mapping.h"

#include "ir/mapping/rewrite.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace tujit::ir {

std::string_view to_string(PaddingKind k) {
  switch (k) {
  case PaddingKind::Bottom:
    return "bottom";
  case PaddingKind::Zero:
    return "zero";
  case PaddingKind::Top:
    return "top";
  }
  return "top";
}

// ---- AxisTable -------------------------------------------------------------------------------

const Axis* AxisTable::find(std::string_view name) const {
  for (const auto& a : axes_)
    if (a.name == name) return &a;
  return nullptr;
}

bool AxisTable::add(Axis a) {
  if (find(a.name) != nullptr) return false;
  axes_.push_back(std::move(a));
  return true;
}

// ---- Index and Cell --------------------------------------------------------------------------

bool index_equivalent(const Index& a, const Index& b) {
  // Walk both ordered maps, skipping zero entries (docs/mapping.md §2 "equivalent", D-4).
  auto ia = a.begin();
  auto ib = b.begin();
  while (true) {
    while (ia != a.end() && ia->second == 0) ++ia;
    while (ib != b.end() && ib->second == 0) ++ib;
    if (ia == a.end() || ib == b.end()) return ia == a.end() && ib == b.end();
    if (ia->first != ib->first || ia->second != ib->second) return false;
    ++ia;
    ++ib;
  }
}

bool cell_equivalent(const Cell& a, const Cell& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case Cell::Kind::Index:
    return index_equivalent(a.index, b.index);
  case Cell::Kind::Padding:
    return a.padding == b.padding;
  case Cell::Kind::OutOfBounds:
    return true;
  }
  return false;
}

Cell combine(const Cell& major, const Cell& minor) {
  // docs/mapping.md §2: a non-live major wins, then a non-live minor; otherwise coordinates add.
  if (!major.is_live()) return major;
  if (!minor.is_live()) return minor;
  Cell out = major;
  for (const auto& [axis, v] : minor.index) out.index[axis] += v;
  return out;
}

Finalized finalize(const Cell& c, PaddingKind oob_fill, const AxisTable& axes) {
  Finalized f;
  switch (c.kind) {
  case Cell::Kind::OutOfBounds:
    f.kind = Finalized::Kind::Padding;
    f.padding = oob_fill;
    return f;
  case Cell::Kind::Padding:
    f.kind = Finalized::Kind::Padding;
    f.padding = c.padding;
    return f;
  case Cell::Kind::Index:
    break;
  }
  for (const auto& [name, v] : c.index) {
    if (v == 0) continue; // D-4: zero coordinates are dropped
    const Axis* a = axes.find(name);
    // An axis missing from `axes` cannot be addressed at all: reported like an overshoot.
    if (a == nullptr || v >= a->size) {
      // D-5: an overshoot is its own failure; callers needing a PaddingKind use Bottom.
      f.kind = Finalized::Kind::Overshoot;
      f.padding = PaddingKind::Bottom;
      f.overshoot_axis = name;
      f.index.clear();
      return f;
    }
    f.index.emplace(name, v);
  }
  f.kind = Finalized::Kind::Live;
  return f;
}

// ---- Mapping tree ----------------------------------------------------------------------------

struct Mapping::Node {
  Kind kind = Kind::Broadcast;
  Axis axis;                // Symbol
  std::uint64_t number = 1; // Broadcast n, Stride s, Modulo m, Resize r, Padding t
  PaddingKind pad = PaddingKind::Top;
  std::vector<Mapping> kids; // Pair: {major, minor}; Stride/Modulo/Resize/Padding: {operand}
  std::uint64_t size = 1;
  std::size_t depth = 1;
};

namespace {

using NodePtr = std::shared_ptr<const Mapping::Node>;

const NodePtr& identity_node() {
  static const NodePtr n = [] {
    auto p = std::make_shared<Mapping::Node>();
    p->kind = Mapping::Kind::Broadcast;
    p->number = 1;
    p->size = 1;
    return NodePtr(p);
  }();
  return n;
}

Diagnostic map_error(std::string code, std::string msg, std::vector<std::string> notes) {
  Diagnostic d = make_error(std::move(code), std::move(msg), std::nullopt, std::move(notes));
  d.stage = "type"; // static validity (docs/mapping.md §1.3) is a type-level rule
  return d;
}

// The `m![…]` text of a node, at "postfix" level: Pairs need brackets there because `,` binds
// looser than every postfix operator (docs/mapping.md §1.2).
void print_chain(const Mapping& m, std::string& out);

void print_postfix(const Mapping& m, std::string& out) {
  switch (m.kind()) {
  case Mapping::Kind::Symbol:
    out += m.axis().name;
    return;
  case Mapping::Kind::Broadcast:
    out += std::to_string(m.number());
    return;
  case Mapping::Kind::Pair:
    out += '[';
    print_chain(m, out);
    out += ']';
    return;
  case Mapping::Kind::Stride:
  case Mapping::Kind::Modulo:
  case Mapping::Kind::Resize:
  case Mapping::Kind::Padding:
    break;
  }
  // Left-associative postfix chain: the operand may itself be a postfix node, unbracketed.
  print_postfix(m.lhs(), out);
  switch (m.kind()) {
  case Mapping::Kind::Stride:
    out += " / ";
    break;
  case Mapping::Kind::Modulo:
    out += " % ";
    break;
  case Mapping::Kind::Resize:
    out += " = ";
    break;
  default:
    switch (m.padding_kind()) {
    case PaddingKind::Top:
      out += " # ";
      break;
    case PaddingKind::Zero:
      out += " #{0} ";
      break;
    case PaddingKind::Bottom:
      out += " #{!} ";
      break;
    }
    break;
  }
  out += std::to_string(m.number());
}

void print_chain(const Mapping& m, std::string& out) {
  // `,` is right-associative: the minor side continues the chain, the major side is a postfix.
  const Mapping* cur = &m;
  while (cur->kind() == Mapping::Kind::Pair) {
    print_postfix(cur->lhs(), out);
    out += ", ";
    cur = &cur->rhs();
  }
  print_postfix(*cur, out);
}

bool nodes_equal(const Mapping::Node* a, const Mapping::Node* b);

} // namespace

Mapping::Mapping() : node_(identity_node()) {}

Mapping Mapping::symbol(const Axis& a) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Symbol;
  n->axis = a;
  n->size = a.size;
  return Mapping(std::move(n));
}

Result<Mapping> Mapping::broadcast(std::uint64_t n) {
  if (n == 0)
    return map_error("E-TYPE-301", "a broadcast must have at least one position",
                     {"rule: `n` needs n >= 1 (docs/mapping.md §1.3, D-7); got 0"});
  if (n == 1) return Mapping();
  auto p = std::make_shared<Node>();
  p->kind = Kind::Broadcast;
  p->number = n;
  p->size = n;
  return Mapping(std::move(p));
}

Result<Mapping> Mapping::pair(const Mapping& major, const Mapping& minor) {
  std::uint64_t size = 0;
  if (__builtin_mul_overflow(major.size(), minor.size(), &size))
    return map_error("E-TYPE-306", "the pair's size does not fit 64 bits",
                     {fmt::format("SIZE(major) = {} times SIZE(minor) = {} overflows u64 "
                                  "(docs/mapping.md §1.3)",
                                  major.size(), minor.size())});
  auto n = std::make_shared<Node>();
  n->kind = Kind::Pair;
  n->kids = {major, minor};
  n->size = size;
  n->depth = 1 + std::max(major.node_->depth, minor.node_->depth);
  return Mapping(std::move(n));
}

namespace {
std::shared_ptr<Mapping::Node> unary(Mapping::Kind k, const Mapping& x, std::uint64_t number,
                                     std::uint64_t size) {
  auto n = std::make_shared<Mapping::Node>();
  n->kind = k;
  n->kids = {x};
  n->number = number;
  n->size = size;
  n->depth = 1 + x.depth();
  return n;
}
} // namespace

Result<Mapping> Mapping::stride(const Mapping& x, std::uint64_t s) {
  if (s == 0)
    return map_error("E-TYPE-302", "stride by 0",
                     {"rule: `x / s` needs s >= 1 (docs/mapping.md §1.3, D-7)"});
  if (x.size() % s != 0)
    return map_error(
        "E-TYPE-302", fmt::format("stride {} does not divide the operand's size {}", s, x.size()),
        {fmt::format("rule: `x / s` needs s | SIZE(x) (docs/mapping.md §1.3); {} mod {} = {}",
                     x.size(), s, x.size() % s)});
  return Mapping(unary(Kind::Stride, x, s, x.size() / s));
}

Result<Mapping> Mapping::modulo(const Mapping& x, std::uint64_t m) {
  if (m == 0)
    return map_error("E-TYPE-303", "modulo by 0",
                     {"rule: `x % m` needs m >= 1 (docs/mapping.md §1.3, D-7)"});
  if (x.size() % m != 0)
    return map_error(
        "E-TYPE-303", fmt::format("modulo {} does not divide the operand's size {}", m, x.size()),
        {fmt::format("rule: `x % m` needs m | SIZE(x) (docs/mapping.md §1.3); {} mod {} = {}",
                     x.size(), m, x.size() % m)});
  return Mapping(unary(Kind::Modulo, x, m, m));
}

Result<Mapping> Mapping::resize(const Mapping& x, std::uint64_t r) {
  if (r == 0)
    return map_error("E-TYPE-304", "resize to 0",
                     {"rule: `x = r` needs r >= 1 (docs/mapping.md §1.3, D-7)"});
  if (r > x.size())
    return map_error(
        "E-TYPE-304", fmt::format("resize to {} is larger than the operand's size {}", r, x.size()),
        {fmt::format("rule: `x = r` needs r <= SIZE(x) (docs/mapping.md §1.3, D-6); use "
                     "`# {}` to pad instead",
                     r)});
  return Mapping(unary(Kind::Resize, x, r, r));
}

Result<Mapping> Mapping::padding(const Mapping& x, std::uint64_t t, PaddingKind k) {
  if (t == 0)
    return map_error("E-TYPE-305", "padding to 0",
                     {"rule: `x # t` needs t >= 1 (docs/mapping.md §1.3, D-7)"});
  if (t < x.size())
    return map_error(
        "E-TYPE-305",
        fmt::format("padding to {} is smaller than the operand's size {}", t, x.size()),
        {fmt::format("rule: `x # t` needs t >= SIZE(x) (docs/mapping.md §1.3, D-6); use "
                     "`= {}` to keep a prefix instead",
                     t)});
  auto n = unary(Kind::Padding, x, t, t);
  n->pad = k;
  return Mapping(std::move(n));
}

Mapping::Kind Mapping::kind() const {
  return node_->kind;
}
std::uint64_t Mapping::size() const {
  return node_->size;
}
std::size_t Mapping::depth() const {
  return node_->depth;
}
const Axis& Mapping::axis() const {
  return node_->axis;
}
std::uint64_t Mapping::number() const {
  return node_->number;
}
PaddingKind Mapping::padding_kind() const {
  return node_->pad;
}

const Mapping& Mapping::lhs() const {
  return node_->kids.empty() ? *this : node_->kids[0];
}
const Mapping& Mapping::rhs() const {
  return node_->kids.size() < 2 ? *this : node_->kids[1];
}

Cell Mapping::map(std::uint64_t pos) const {
  const Node& n = *node_;
  if (pos >= n.size) return Cell::out_of_bounds();
  switch (n.kind) {
  case Kind::Symbol:
    return Cell::live(Index{{n.axis.name, pos}});
  case Kind::Broadcast:
    return Cell::live({});
  case Kind::Pair: {
    std::uint64_t minor = n.kids[1].size();
    return combine(lhs().map(pos / minor), rhs().map(pos % minor));
  }
  case Kind::Stride:
    return lhs().map(pos * n.number);
  case Kind::Modulo:
  case Kind::Resize:
    return lhs().map(pos); // the first m / r cells (docs/mapping.md §3)
  case Kind::Padding:
    return pos < n.kids[0].size() ? lhs().map(pos) : Cell::pad(n.pad);
  }
  return Cell::out_of_bounds();
}

std::string Mapping::to_string() const {
  std::string out;
  print_chain(*this, out);
  return out;
}

Result<Mapping> with_operand(const Mapping& m, const Mapping& operand) {
  switch (m.kind()) {
  case Mapping::Kind::Stride:
    return Mapping::stride(operand, m.number());
  case Mapping::Kind::Modulo:
    return Mapping::modulo(operand, m.number());
  case Mapping::Kind::Resize:
    return Mapping::resize(operand, m.number());
  default:
    return Mapping::padding(operand, m.number(), m.padding_kind());
  }
}

Result<Mapping> broadcast_axes(const Mapping& m, const std::vector<std::string>& axes) {
  switch (m.kind()) {
  case Mapping::Kind::Symbol:
    if (std::find(axes.begin(), axes.end(), m.axis().name) == axes.end()) return m;
    return Mapping::broadcast(m.size());
  case Mapping::Kind::Broadcast:
    return m;
  case Mapping::Kind::Pair: {
    auto major = broadcast_axes(m.lhs(), axes);
    if (!major) return major;
    auto minor = broadcast_axes(m.rhs(), axes);
    if (!minor) return minor;
    return Mapping::pair(*major, *minor);
  }
  default:
    break;
  }
  // Stride, Modulo, Resize, Padding: the same operation on the rewritten operand (sizes are kept,
  // so every precondition still holds).
  auto x = broadcast_axes(m.lhs(), axes);
  if (!x) return x;
  return with_operand(m, *x);
}

std::vector<Axis> Mapping::axes() const {
  std::vector<Axis> out;
  // Iterative pre-order walk (major before minor, operand before nothing) to avoid deep recursion.
  std::vector<const Node*> stack{node_.get()};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (n->kind == Kind::Symbol) {
      if (std::find(out.begin(), out.end(), n->axis) == out.end()) out.push_back(n->axis);
      continue;
    }
    for (auto it = n->kids.rbegin(); it != n->kids.rend(); ++it) stack.push_back(it->node_.get());
  }
  return out;
}

namespace {
bool nodes_equal(const Mapping::Node* a, const Mapping::Node* b) {
  if (a == b) return true;
  if (a->kind != b->kind || a->size != b->size || a->number != b->number) return false;
  switch (a->kind) {
  case Mapping::Kind::Symbol:
    return a->axis == b->axis;
  case Mapping::Kind::Broadcast:
    return true;
  case Mapping::Kind::Pair:
    return a->kids[0] == b->kids[0] && a->kids[1] == b->kids[1];
  case Mapping::Kind::Padding:
    if (a->pad != b->pad) return false;
    return a->kids[0] == b->kids[0];
  case Mapping::Kind::Stride:
  case Mapping::Kind::Modulo:
  case Mapping::Kind::Resize:
    return a->kids[0] == b->kids[0];
  }
  return false;
}
} // namespace

bool operator==(const Mapping& a, const Mapping& b) {
  return nodes_equal(a.node_.get(), b.node_.get());
}

bool equivalent_by_map(const Mapping& a, const Mapping& b) {
  if (a.size() != b.size()) return false;
  for (std::uint64_t i = 0; i < a.size(); ++i)
    if (!cell_equivalent(a.map(i), b.map(i))) return false;
  return true;
}

} // namespace tujit::ir

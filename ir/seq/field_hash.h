// Fingerprints generated from the programs' fields: the JIT's object-cache keys of every Sequencer
// IR program kind (ContractionProgram, RunProgram, FetchProgram, VectorProgram), and the exact
// comparison of the same fields (a run reusing what it derived from a program). Every struct a
// program holds names its fields once, in a `for_each_field(x, f)` overload whose structured
// binding must list exactly the aggregate's fields (a field added to the struct and not named
// there is a compile error); FieldHash walks them by type, so no fingerprint lists a field by hand:
//   numbers, flags, enums   by value (a floating-point field is a compile error: decide first)
//   vectors, arrays         their size, then element by element (integers: Fnv1a::add_table)
//   optionals, variants     presence / the alternative's index, then the value
//   an address table        its own exact form (AddressTable::hash: the class keeps its
//                           representation private)
//   names, mappings, types  nothing: kept for reports and the cycle model, never read by an
//                           engine's code (std::string, ChainMappings, TensorType)
#pragma once

#include "ir/datapath/sequencer_config.h"
#include "ir/lang/types.h"
#include "ir/mapping/mapping.h"
#include "ir/seq/address_stream.h"
#include "ir/seq/contraction_program.h"
#include "ir/seq/fnv1a.h"
#include "ir/types/vector_op.h"

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

// The field lists of the types defined outside ir/seq/ that programs hold.
namespace tujit::ir {
template <class A, class F>
requires std::same_as<std::remove_const_t<A>, Axis>
void for_each_field(A& a, F&& f) {
  auto& [name, size] = a;
  (f(name), f(size));
}
template <class C, class F>
requires std::same_as<std::remove_const_t<C>, VectorCall>
void for_each_field(C& c, F&& f) {
  auto& [kind, op, mul, mode, operand, int_width, source, ternary_mode, comparisons, branches,
         guard, groups, zip, reduce] = c;
  (f(kind), f(op), f(mul), f(mode), f(operand), f(int_width), f(source), f(ternary_mode),
   f(comparisons), f(branches), f(guard), f(groups), f(zip), f(reduce));
}
template <class R, class F>
requires std::same_as<std::remove_const_t<R>, VeReduce>
void for_each_field(R& r, F&& f) {
  auto& [op, lanes, steps] = r;
  (f(op), f(lanes), f(steps));
}
template <class G, class F>
requires std::same_as<std::remove_const_t<G>, VeGroupArgs>
void for_each_field(G& g, F&& f) {
  auto& [runs, operand] = g;
  (f(runs), f(operand));
}
template <class C, class F>
requires std::same_as<std::remove_const_t<C>, VeCmp>
void for_each_field(C& c, F&& f) {
  auto& [kind, boundary] = c;
  (f(kind), f(boundary));
}
template <class G, class F>
requires std::same_as<std::remove_const_t<G>, TagGuard>
void for_each_field(G& g, F&& f) {
  auto& [bits, negate] = g;
  (f(bits), f(negate));
}
template <class S, class F>
requires std::same_as<std::remove_const_t<S>, VeSlot>
void for_each_field(S& s, F&& f) {
  auto& [guard, operand] = s;
  (f(guard), f(operand));
}
template <class Br, class F>
requires std::same_as<std::remove_const_t<Br>, VeBranches>
void for_each_field(Br& b, F&& f) {
  auto& [imm, rf, rf_guard, rf_operand1] = b;
  (f(imm), f(rf), f(rf_guard), f(rf_operand1));
}
} // namespace tujit::ir

namespace tujit::ir::datapath {
template <class E, class F>
requires std::same_as<std::remove_const_t<E>, SeqEntry>
void for_each_field(E& e, F&& f) {
  auto& [size, stride] = e;
  (f(size), f(stride));
}
template <class S, class F>
requires std::same_as<std::remove_const_t<S>, SequencerConfig>
void for_each_field(S& s, F&& f) {
  auto& [entries, packet_size, contiguous_run, max_access_size] = s;
  (f(entries), f(packet_size), f(contiguous_run), f(max_access_size));
}
} // namespace tujit::ir::datapath

// The field lists of the address streams' aggregates (address_stream.h).
namespace tujit::ir::seq {
template <class L, class F>
requires std::same_as<std::remove_const_t<L>, AddressLoop>
void for_each_field(L& l, F&& f) {
  auto& [size, stride] = l;
  (f(size), f(stride));
}
template <class C, class F>
requires std::same_as<std::remove_const_t<C>, CellStreams>
void for_each_field(C& c, F&& f) {
  auto& [outer_size, inner_size, separable, outer, inner, full] = c;
  (f(outer_size), f(inner_size), f(separable), f(outer), f(inner), f(full));
}
template <class T, class F>
requires std::same_as<std::remove_const_t<T>, TensorStreams>
void for_each_field(T& t, F&& f) {
  auto& [tensor, dtype, axes, spatial, cells] = t;
  (f(tensor), f(dtype), f(axes), f(spatial), f(cells));
}
template <class A, class F>
requires std::same_as<std::remove_const_t<A>, FetchAdapter>
void for_each_field(A& a, F&& f) {
  auto& [lookup_to, cast_to, zero_point] = a;
  (f(lookup_to), f(cast_to), f(zero_point));
}
template <class O, class F>
requires std::same_as<std::remove_const_t<O>, OperandStreams>
void for_each_field(O& o, F&& f) {
  auto& [streams, adapter, type] = o;
  (f(streams), f(adapter), f(type));
}

/// A type whose fields are listed by a for_each_field overload (found by argument-dependent
/// lookup in the type's namespace).
template <class T>
concept HasFieldList = requires(const T& x) {
  for_each_field(x, [](const auto&) {});
};

/// Fields kept for reports and the cycle model, which no fingerprint reads (the file comment).
template <class T>
concept ReportOnlyField = std::same_as<T, std::string> || std::same_as<T, ChainMappings> ||
    std::same_as<T, TensorType> || std::same_as<T, std::monostate>;

/// Adds a field's value to a fingerprint by its type (the file comment).
struct FieldHash {
  Fnv1a& h;
  template <ReportOnlyField T>
  void operator()(const T&) const {}
  void operator()(const AddressTable& t) const { t.hash(h); }
  template <class T>
  requires std::is_integral_v<T> || std::is_enum_v<T>
  void operator()(T v) const { h.add(static_cast<std::uint64_t>(v)); }
  template <class T>
  void operator()(const std::vector<T>& v) const {
    if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
      h.add_table(v); // one fold per element (the tables of a program are its largest fields)
    } else {
      h.add(v.size());
      for (const T& x : v) (*this)(x);
    }
  }
  template <class T, std::size_t N>
  void operator()(const std::array<T, N>& v) const {
    h.add(N);
    for (const T& x : v) (*this)(x);
  }
  template <class T>
  void operator()(const std::optional<T>& v) const {
    h.add(v ? 1 : 0);
    if (v) (*this)(*v);
  }
  template <class... T>
  void operator()(const std::variant<T...>& v) const {
    h.add(v.index());
    std::visit(*this, v);
  }
  template <class T>
  requires HasFieldList<T>
  void operator()(const T& x) const { for_each_field(x, *this); }
};

/// The fingerprint of a program (or any struct with a field list).
template <class T>
requires HasFieldList<T> std::uint64_t field_fingerprint(const T& x) {
  Fnv1a h;
  FieldHash{h}(x);
  return h.value();
}

/// Compares two values field for field over exactly what FieldHash reads, without hashing: equal
/// values have equal fingerprints (and no two different values compare equal).
struct FieldEqual {
  template <ReportOnlyField T>
  bool operator()(const T&, const T&) const {
    return true;
  }
  bool operator()(const AddressTable& a, const AddressTable& b) const { return a == b; }
  template <class T>
  requires std::is_integral_v<T> || std::is_enum_v<T>
  bool operator()(T a, T b) const { return a == b; }
  template <class T>
  bool operator()(const std::vector<T>& a, const std::vector<T>& b) const {
    if constexpr (std::is_integral_v<T> || std::is_enum_v<T>)
      return a == b; // one memory comparison
    else
      return std::equal(a.begin(), a.end(), b.begin(), b.end(), *this);
  }
  template <class T, std::size_t N>
  bool operator()(const std::array<T, N>& a, const std::array<T, N>& b) const {
    return std::equal(a.begin(), a.end(), b.begin(), *this);
  }
  template <class T>
  bool operator()(const std::optional<T>& a, const std::optional<T>& b) const {
    return a.has_value() == b.has_value() && (!a || (*this)(*a, *b));
  }
  template <class... T>
  bool operator()(const std::variant<T...>& a, const std::variant<T...>& b) const {
    return a.index() == b.index() &&
           std::visit(
               [&](const auto& x) { return (*this)(x, std::get<std::decay_t<decltype(x)>>(b)); },
               a);
  }
  /// Walks `b`'s fields first (their addresses, in order), then `a`'s against them.
  template <class T>
  requires HasFieldList<T>
  bool operator()(const T& a, const T& b) const {
    std::array<const void*, kMaxFields> fields{};
    std::size_t n = 0;
    for_each_field(b, [&](const auto& f) {
      if (n < kMaxFields) fields[n] = &f;
      ++n;
    });
    // A struct past kMaxFields compares unequal to itself, which the tests of FieldEqual catch.
    if (n > kMaxFields) return false;
    std::size_t i = 0;
    bool same = true;
    for_each_field(a, [&](const auto& f) {
      using F = std::remove_cvref_t<decltype(f)>;
      same = same && (*this)(f, *static_cast<const F*>(fields[i++]));
    });
    return same;
  }

private:
  static constexpr std::size_t kMaxFields = 64; // ContractionProgram, the largest, has 36
};

} // namespace tujit::ir::seq

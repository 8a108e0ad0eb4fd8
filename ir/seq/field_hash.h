// Fingerprints generated from the programs' fields: the JIT's object-cache keys of every Sequencer
// IR program kind (ContractionProgram, RunProgram, FetchProgram, VectorProgram). Every struct a
// program holds names its fields once, in a `for_each_field(x, f)` overload whose structured
// binding must list exactly the aggregate's fields (a field added to the struct and not named
// there is a compile error); FieldHash walks them by type, so no fingerprint lists a field by hand:
//   numbers, flags, enums   by value (a floating-point field is a compile error: decide first)
//   vectors, arrays         their size, then element by element
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
  auto& [kind, op, mul, mode, operand, int_width] = c;
  (f(kind), f(op), f(mul), f(mode), f(operand), f(int_width));
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
  auto& [cast_to, zero_point] = a;
  (f(cast_to), f(zero_point));
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

/// Adds a field's value to a fingerprint by its type (the file comment).
struct FieldHash {
  Fnv1a& h;
  void operator()(const std::string&) const {}
  void operator()(const ChainMappings&) const {}
  void operator()(const TensorType&) const {}
  void operator()(std::monostate) const {}
  void operator()(const AddressTable& t) const { t.hash(h); }
  template <class T>
  requires std::is_integral_v<T> || std::is_enum_v<T>
  void operator()(T v) const { h.add(static_cast<std::uint64_t>(v)); }
  template <class T>
  void operator()(const std::vector<T>& v) const {
    h.add(v.size());
    for (const T& x : v) (*this)(x);
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

} // namespace tujit::ir::seq

// The name ↔ enum tables of the book's enums (ops, comparison kinds, argument modes), looked up in
// both directions: the front end parses the book's names, reports print them.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace tujit::ir {

template <class E, std::size_t N>
using NameTable = std::array<std::pair<E, std::string_view>, N>;

/// The enumerator named `name`, nullopt for a name the table lacks.
template <class E, std::size_t N>
std::optional<E> find_name(const NameTable<E, N>& table, std::string_view name) {
  for (const auto& [e, n] : table)
    if (n == name) return e;
  return std::nullopt;
}

/// The name of `e`, "?" for an enumerator the table lacks.
template <class E, std::size_t N>
std::string_view name_of(const NameTable<E, N>& table, E e) {
  for (const auto& [v, n] : table)
    if (v == e) return n;
  return "?";
}

} // namespace tujit::ir

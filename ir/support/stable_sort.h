// std::stable_sort's order without std::stable_sort: libstdc++ 12 takes its merge buffer from
// std::get_temporary_buffer, deprecated since C++17, and clang 19 reports that deprecation at every
// instantiation, inside the library, where no pragma of ours reaches. Sorting positions by
// (element, original position) with std::sort gives exactly the stable order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

namespace tujit {

/// Sorts `v` by the strict weak order `less`; elements that compare equal keep their order.
template <class T, class Less>
void stable_sort(std::vector<T>& v, Less less) {
  std::vector<std::size_t> order(v.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (less(v[a], v[b])) return true;
    if (less(v[b], v[a])) return false;
    return a < b;
  });
  std::vector<T> sorted;
  sorted.reserve(v.size());
  for (std::size_t i : order) sorted.push_back(std::move(v[i]));
  v = std::move(sorted);
}

} // namespace tujit

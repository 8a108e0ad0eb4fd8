// What every libFuzzer target of tests/fuzz/ does with a property check's answer: a broken
// property is printed and aborts, so libFuzzer saves the input as a crasher.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace tujit::fuzz {

inline int stop_if_broken(const std::optional<std::string>& broken) {
  if (broken) {
    std::fprintf(stderr, "FUZZ PROPERTY BROKEN: %s\n", broken->c_str());
    std::abort();
  }
  return 0;
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

} // namespace tujit::fuzz

// libFuzzer entry of the spec target (tests/support/fuzz_properties.h says what it checks).
#include "tests/support/fuzz_properties.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (auto broken = tujit::fuzz::spec_properties({reinterpret_cast<const char*>(data), size})) {
    std::fprintf(stderr, "FUZZ PROPERTY BROKEN: %s\n", broken->c_str());
    std::abort();
  }
  return 0;
}

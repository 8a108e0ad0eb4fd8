// libFuzzer entry of the generated-kernel target (tests/support/fuzz_properties.h says what it
// checks).
#include "tests/fuzz/fuzz_entry.h"
#include "tests/support/fuzz_properties.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return tujit::fuzz::stop_if_broken(tujit::fuzz::generated_properties({data, size}));
}

// The fuzz properties (tests/support/fuzz_properties.h) on inputs chosen by hand: they accept
// correct behaviour, so a failure a fuzz target reports is a real one. The files of
// tests/corpus/fuzz/ (every target's seeds, and every input a campaign once failed on) are
// replayed through the targets' own entry points by the CTest tests TARGET_replay
// (tests/fuzz/CMakeLists.txt).
#include "tests/support/fuzz_properties.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace fs = std::filesystem;
using namespace tujit::fuzz;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void require_holds(const std::optional<std::string>& broken) {
  if (broken) FAIL(*broken);
  SUCCEED();
}

} // namespace

TEST_CASE("the fuzz properties hold on the seeds they start from", "[fuzz-regression]") {
  // A well-formed mapping, a rejected one, and a spec kernel of the book: the checks accept
  // correct behaviour (so a reported failure is a real one).
  require_holds(mapping_properties("A=8, B=512\nB / 64, B % 32, B / 32 % 2"));
  require_holds(mapping_properties("A=8, B=512\nB / 3"));
  require_holds(mapping_properties("A=8, A=4\nA"));
  const std::string spec = read(fs::path(TUJIT_SOURCE_DIR) / "specs" / "bmatmul_m_in_time.rs");
  REQUIRE(!spec.empty());
  require_holds(spec_properties(spec));
  require_holds(spec_properties(spec.substr(0, spec.size() / 2)));
  // Kernels fed from DM (one with a zero point, one through a Fetch Adapter cast), a store, and a
  // parameter-fed chain: run end to end on both engines and the oracle, fetches on both engines.
  for (const char* name : {"derived/i8_contract.rs", "derived/zero_point_sub_contract.rs",
                           "derived/f8e4m3_contract.rs", "store.rs", "bmatmul_m_in_time.rs"}) {
    INFO(name);
    const std::string text = read(fs::path(TUJIT_SOURCE_DIR) / "specs" / name);
    REQUIRE(!text.empty());
    require_holds(run_properties(text));
    require_holds(fetch_properties(text));
  }
  // Generated kernels of every form choice (byte 0 = 0…5), two seeds each.
  for (std::uint8_t seed : {std::uint8_t{1}, std::uint8_t{2}})
    for (std::uint8_t choice = 0; choice < 6; ++choice) {
      INFO("seed " << int{seed} << ", choice " << int{choice});
      require_holds(generated_properties(std::vector<std::uint8_t>{choice, seed}));
    }
}

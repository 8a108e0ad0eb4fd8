// Every input a fuzz target of tests/fuzz/ once failed on (tests/corpus/fuzz/) is
// replayed through the same property checks (tests/support/fuzz_properties.h): the fixed bug must
// stay fixed. Cases too small to deserve a file are inline below, with what they exposed.
#include "tests/support/fuzz_properties.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace fs = std::filesystem;
using namespace tujit::fuzz;

namespace {

std::vector<fs::path> saved(const char* target) {
  std::vector<fs::path> out;
  const fs::path dir = fs::path(TUJIT_SOURCE_DIR) / "tests" / "corpus" / "fuzz" / target;
  if (fs::exists(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void require_holds(const std::optional<std::string>& broken) {
  if (broken) FAIL(*broken);
  SUCCEED();
}

} // namespace

TEST_CASE("saved fuzz inputs of every target still pass their checks", "[fuzz-regression]") {
  for (const auto& p : saved("mapping")) {
    INFO(p.string());
    require_holds(mapping_properties(read(p)));
  }
  for (const auto& p : saved("spec")) {
    INFO(p.string());
    require_holds(spec_properties(read(p)));
  }
  for (const auto& p : saved("npy")) {
    INFO(p.string());
    const std::string bytes = read(p);
    const std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
    require_holds(npy_properties(data));
  }
  for (const auto& p : saved("run")) {
    INFO(p.string());
    require_holds(run_properties(read(p)));
  }
  for (const auto& p : saved("fetch")) {
    INFO(p.string());
    require_holds(fetch_properties(read(p)));
  }
  for (const auto& p : saved("gen")) {
    INFO(p.string());
    const std::string bytes = read(p);
    require_holds(generated_properties(std::vector<std::uint8_t>(bytes.begin(), bytes.end())));
  }
}

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

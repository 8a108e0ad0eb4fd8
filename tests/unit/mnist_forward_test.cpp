// The reference's MNIST classifier `forward` (tests/data/mnist/mod.rs, furiosa-opt-examples
// src/mnist/mod.rs) run by `tujit run --verify` on each of the ten labelled images with the trained
// weights (tests/data/mnist/*.npy, axes in declaration order, docs/cli.md §6.1): both engines bit
// for bit, every command judged by the oracle and ok, and the argmax of the first ten logits is the
// image's label, as the reference's tests/mnist_tests.rs asserts on the device.
#include "runtime/npy/npy.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::testing;

namespace {

std::string data(const std::string& name) {
  return (std::filesystem::path(TUJIT_SOURCE_DIR) / "tests/data/mnist" / name).string();
}

} // namespace

TEST_CASE("mnist forward: each image's label is the argmax of the run's logits", "[mnist][run]") {
  TempDir dir("mnist_forward");
  for (int i = 0; i < 10; ++i) {
    const std::string out = (dir.path / fmt::format("logits_{}.npy", i)).string();
    const CliRun r = run_tujit(
        {"run", data("mod.rs"), "--kernel", "forward", "--verify", "--input",
         "input=" + data(fmt::format("hw.image_{}.npy", i)), "--input",
         "fc1_weight=" + data("hw.fc1.weight.npy"), "--input", "fc1_bias=" + data("fc1.bias.npy"),
         "--input", "fc2_weight=" + data("hw.fc2.weight.npy"), "--input",
         "fc2_bias=" + data("hw.fc2.bias.npy"), "--raw-output", "--output", out, "--json"});
    INFO("image " << i << "\n" << r.out << r.err);
    REQUIRE(r.status == 0);
    const auto j = r.json();
    CHECK(j["verify"]["engines_bit_exact"] == true);
    CHECK(j["verify"]["oracle_ok"] == true);
    // Every command is judged by the oracle, the pair passes through their cast to bf16 too.
    CHECK_FALSE(j["verify"].contains("oracle_not_applicable"));
    REQUIRE(j["earlier_commands"].size() == 7);
    for (const auto& c : j["earlier_commands"]) {
      INFO(c["value"]);
      CHECK(c["verify"]["engines_bit_exact"] == true);
      CHECK(c["verify"]["oracle_ok"] == true);
      CHECK_FALSE(c["verify"].contains("oracle_not_applicable"));
    }
    auto logits = runtime::read_npy_file(out);
    REQUIRE(logits.ok());
    REQUIRE(logits->dtype == runtime::NpyDtype::U2);
    REQUIRE(logits->elements() == 16);
    std::vector<float> v(10);
    for (std::size_t c = 0; c < 10; ++c) {
      std::uint16_t code = 0;
      std::memcpy(&code, logits->data.data() + 2 * c, 2);
      v[c] = std::bit_cast<float>(std::uint32_t{code} << 16);
    }
    auto label = runtime::read_npy_file(data(fmt::format("label_{}.npy", i)));
    REQUIRE(label.ok());
    std::int32_t expected = -1;
    std::memcpy(&expected, label->data.data(), 4);
    CHECK(std::max_element(v.begin(), v.end()) - v.begin() == expected);
  }
}

// The reference's MNIST weights and images as `tujit run` inputs (tests/data/mnist/, converted by
// scripts/mnist_to_npy.py from furiosa-opt-examples/data/mnist/mnist.safetensors): every file
// reads as the shape and dtype `forward` declares, and a plain double-precision forward pass of
// the two-layer MLP (furiosa-opt docs/src/scheduling/schedule.md: fc1 + ReLU, then fc2) over them
// predicts each image's label — the check that the conversion kept every bit and the figure a run
// of `forward` is compared with.
#include "runtime/npy/npy.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <vector>

using namespace tujit;

namespace {

constexpr std::size_t kX = 800, kH = 256, kC = 16, kClasses = 10;

runtime::NpyArray load(const std::string& name) {
  const auto path = std::filesystem::path(TUJIT_SOURCE_DIR) / "tests/data/mnist" / (name + ".npy");
  auto a = runtime::read_npy_file(path.string());
  INFO(path.string());
  REQUIRE(a);
  return *a;
}

// A bf16 code as the f32 whose upper half it is, in double.
std::vector<double> bf16_values(const runtime::NpyArray& a, std::vector<std::uint64_t> shape) {
  REQUIRE(a.dtype == runtime::NpyDtype::U2);
  REQUIRE(a.shape == shape);
  std::vector<double> v(a.elements());
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::uint16_t code = 0;
    std::memcpy(&code, a.data.data() + 2 * i, 2);
    v[i] = double(std::bit_cast<float>(std::uint32_t{code} << 16));
  }
  return v;
}

} // namespace

TEST_CASE("mnist data: a double-precision MLP over the converted weights predicts every label",
          "[mnist]") {
  // The weights in the `axes!` declaration order X, H, C (docs/cli.md §6.1): [X][H] and [H][C].
  const auto w1 = bf16_values(load("hw.fc1.weight"), {kX, kH});
  const auto b1 = bf16_values(load("fc1.bias"), {kH});
  const auto w2 = bf16_values(load("hw.fc2.weight"), {kH, kC});
  const auto b2 = bf16_values(load("hw.fc2.bias"), {kC});
  for (int i = 0; i < 10; ++i) {
    const auto x = bf16_values(load(fmt::format("hw.image_{}", i)), {kX});
    const auto label = load(fmt::format("label_{}", i));
    REQUIRE(label.dtype == runtime::NpyDtype::I4);
    std::int32_t expected = -1;
    std::memcpy(&expected, label.data.data(), 4);
    std::vector<double> h(kH);
    for (std::size_t r = 0; r < kH; ++r) {
      double s = b1[r];
      for (std::size_t c = 0; c < kX; ++c) s += w1[c * kH + r] * x[c];
      h[r] = std::max(s, 0.0);
    }
    std::vector<double> logits(kClasses);
    for (std::size_t r = 0; r < kClasses; ++r) {
      double s = b2[r];
      for (std::size_t c = 0; c < kH; ++c) s += w2[c * kC + r] * h[c];
      logits[r] = s;
    }
    const auto predicted = std::max_element(logits.begin(), logits.end()) - logits.begin();
    INFO("image " << i);
    CHECK(predicted == expected);
  }
}

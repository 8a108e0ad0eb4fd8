#include "tests/support/kernel_gen_vector.h"

#include <fmt/format.h>

#include <array>
#include <string_view>
#include <vector>

namespace tujit::testing {

namespace {

template <class T, std::size_t N>
const T& pick(std::mt19937_64& rng, const std::array<T, N>& from) {
  return from[std::uniform_int_distribution<std::size_t>(0, N - 1)(rng)];
}

bool coin(std::mt19937_64& rng, double p = 0.5) {
  return std::bernoulli_distribution(p)(rng);
}

// Constants at the edges of each scalar (docs/vector-engine.md §3): zero, ±1, shift counts at and
// past 31 (the low 5 bits count), the i32 extremes; for f32 ±0, a subnormal, the largest finite
// value, values whose sums and products round.
constexpr std::array<std::string_view, 10> kI32 = {
    "0", "1", "-1", "7", "31", "33", "0x7fff_ffff", "-2147483648", "65536", "-1000"};
constexpr std::array<std::string_view, 9> kF32 = {"0.0f32",    "-0.0f32",          "1.0f32",
                                                  "-2.5f32",   "0.1f32",           "1.0e-40f32",
                                                  "3.0e38f32", "-3.4028235e38f32", "16777217.0f32"};
constexpr std::array<std::string_view, 4> kModes = {"Mode00", "Mode01", "Mode10", "Mode11"};
constexpr std::array<std::string_view, 7> kTernaryModes = {
    "Mode012", "Mode002", "Mode102", "Mode112", "Mode020", "Mode021", "Mode120"};
constexpr std::array<std::string_view, 10> kFxp = {
    "AddFxp",       "AddFxpSat", "SubFxp", "SubFxpSat",       "LeftShift",
    "LeftShiftSat", "MulFxp",    "MulInt", "LogicRightShift", "ArithRightShift"};
constexpr std::array<std::string_view, 6> kLogicI32 = {
    "BitAnd", "BitOr", "BitXor", "LeftShift", "LogicRightShift", "ArithRightShift"};
constexpr std::array<std::string_view, 3> kLogicF32 = {"BitAnd", "BitOr", "BitXor"};
constexpr std::array<std::string_view, 6> kClipI32 = {"Min",    "Max",    "AbsMin",
                                                      "AbsMax", "AddFxp", "AddFxpSat"};
constexpr std::array<std::string_view, 5> kClipF32 = {"Min", "Max", "AbsMin", "AbsMax", "Add"};
constexpr std::array<std::string_view, 9> kFpUnary = {"Exp", "NegExp", "Sqrt", "Tanh", "Sigmoid",
                                                      "Erf", "Log",    "Sin",  "Cos"};
constexpr std::array<std::string_view, 5> kFpBinary = {
    "AddF", "SubF", "MulF(FpMulAlu::Mul0)", "MulF(FpMulAlu::Mul1)", "MulF(FpMulAlu::Fma)"};
constexpr std::array<std::string_view, 4> kIntWidths = {"0", "8", "16", "31"};

class Builder {
public:
  explicit Builder(std::mt19937_64& rng) : rng_(rng) {}

  std::string constant(bool f32) { return std::string(f32 ? pick(rng_, kF32) : pick(rng_, kI32)); }

  /// `method(Enum::op, c)` or `method_with_mode(Enum::op, BinaryArgMode::m, c)`.
  void binary(const char* family, const char* method, const std::string& enum_name,
              std::string_view op, bool f32) {
    std::string name(op);
    features.insert(family);
    features.insert(fmt::format("{}:{}", family, name.substr(0, name.find('('))));
    if (coin(rng_)) {
      const std::string_view mode = pick(rng_, kModes);
      features.insert(fmt::format("mode:{}", mode));
      add(fmt::format(".{}_with_mode({}::{}, BinaryArgMode::{}, {})", method, enum_name, op, mode,
                      constant(f32)));
    } else {
      add(fmt::format(".{}({}::{}, {})", method, enum_name, op, constant(f32)));
    }
  }

  void add(std::string call) { calls += "        " + call + "\n"; }

  std::string calls;
  std::set<std::string> features;
  int float_calls = 0;

private:
  std::mt19937_64& rng_;
};

/// The Fp stage, 4-way (docs/vector-engine.md §2): binary, unary or ternary ops between a narrow
/// and a widen, then optionally the divider.
void fp_stage(std::mt19937_64& rng, Builder& b, std::size_t index) {
  b.add(".vector_narrow_split::<m![A / 8, A % 8 / 4], m![A % 4]>()");
  const int ops = std::uniform_int_distribution<int>(0, 2)(rng);
  for (int i = 0; i < ops; ++i) {
    // The ternary FMA half the time: its seven modes need the draws.
    const int family = coin(rng) ? 2 : std::uniform_int_distribution<int>(0, 1)(rng);
    ++b.float_calls;
    switch (family) {
    case 0:
      b.binary("fp_binary", "vector_fp_binary", "FpBinaryOp", pick(rng, kFpBinary), true);
      break;
    case 1: {
      const std::string_view op = pick(rng, kFpUnary);
      b.features.insert("fp_unary");
      b.features.insert(fmt::format("fp_unary:{}", op));
      b.add(fmt::format(".vector_fp_unary(FpUnaryOp::{})", op));
      break;
    }
    default: {
      const std::string_view mode = kTernaryModes[index % kTernaryModes.size()];
      b.features.insert("fp_ternary");
      b.features.insert(fmt::format("ternary:{}", mode));
      b.add(fmt::format(".vector_fp_ternary_with_mode(FpTernaryOp::FmaF, TernaryArgMode::{}, "
                        "({}, {}))",
                        mode, b.constant(true), b.constant(true)));
    }
    }
  }
  if (coin(rng, 0.4)) {
    ++b.float_calls;
    b.features.insert("fp_div");
    if (coin(rng)) {
      const std::string_view mode = pick(rng, kModes);
      b.features.insert(fmt::format("mode:{}", mode));
      b.add(fmt::format(".vector_fp_div_with_mode(BinaryArgMode::{}, {})", mode, b.constant(true)));
    } else {
      b.add(fmt::format(".vector_fp_div({})", b.constant(true)));
    }
  }
  b.add(".vector_widen_concat::<m![A / 8], m![A % 8]>()");
}

} // namespace

VectorKernel generate_vector_kernel(std::mt19937_64& rng, std::size_t index) {
  VectorKernel k;
  k.f32_input = coin(rng);
  Builder b(rng);
  bool f32 = k.f32_input;
  b.features.insert(f32 ? "input:f32" : "input:i32");
  // Logic, then (i32) Fxp and the conversion to f32.
  if (coin(rng, 0.4))
    b.binary("logic", "vector_logic", f32 ? "LogicBinaryOpF32" : "LogicBinaryOpI32",
             f32 ? pick(rng, kLogicF32) : pick(rng, kLogicI32), f32);
  if (!f32) {
    if (coin(rng, 0.6)) b.binary("fxp", "vector_fxp", "FxpBinaryOp", pick(rng, kFxp), false);
    if (coin(rng)) {
      const std::string_view iw = pick(rng, kIntWidths);
      b.features.insert("fxp_to_fp");
      b.add(fmt::format(".vector_fxp_to_fp({})", iw));
      f32 = true;
      ++b.float_calls;
    }
  }
  // The 4-way float stages, then (f32) the conversion back.
  if (f32 && coin(rng, 0.8)) fp_stage(rng, b, index);
  if (f32 && coin(rng, 0.3)) {
    b.features.insert("fp_to_fxp");
    b.add(fmt::format(".vector_fp_to_fxp({})", pick(rng, kIntWidths)));
    f32 = false;
  }
  if (coin(rng, 0.5)) {
    if (f32) ++b.float_calls; // an f32 clip is a float call to the oracle
    b.binary("clip", "vector_clip", f32 ? "ClipBinaryOpF32" : "ClipBinaryOpI32",
             f32 ? pick(rng, kClipF32) : pick(rng, kClipI32), f32);
  }
  k.f32_output = f32;
  k.float_calls = b.float_calls;
  k.features = std::move(b.features);

  const char* in = k.f32_input ? "f32" : "i32";
  const char* out = k.f32_output ? "f32" : "i32";
  k.text = fmt::format(R"(use furiosa_opt_std::prelude::*;

axes![S = {}, A = {}];

type Chip = m![1];
type Cluster = m![1 # 2];

#[device(chip = 1)]
pub fn k(ctx: &mut Context, input: &HbmTensor<{}, Chip, m![S, A]>) -> HbmTensor<{}, Chip, m![S, A]> {{
    let dm = input.to_dm::<Cluster, m![S # 256], m![A]>(&mut ctx.tdma);
    let result: DmTensor<{}, Chip, Cluster, m![S # 256], m![A]> = ctx
        .main
        .begin(dm.view())
        .fetch::<m![A / 8], m![A % 8]>()
        .collect::<m![A / 8], m![A % 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
{}        .vector_final()
        .commit_trim::<m![A % 8]>()
        .commit();
    result.to_hbm(&mut ctx.tdma)
}}
)",
                       kVectorGenSlices, kVectorGenElements, in, out, out, b.calls);
  return k;
}

} // namespace tujit::testing

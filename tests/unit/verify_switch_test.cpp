// The Switch Engine's verifier (ir/verify/switch.h, docs/switch.md) and its front end. Expected
// values come from the book page (furiosa-opt docs/src/computing-tensors/switch-engine.md: each
// example's derived sizes and printed cycle estimate, worked by hand below), the reference's
// fixtures (furiosa-opt-examples src/switch_assertions.rs and src/negative/switch_assertions.rs:
// which kernels compile and which are refused, and why) and the reference's CustomBroadcast tests
// (furiosa-opt-std engine/switch.rs: each accepted case's ring_size, each refused case's reason).
#include "ir/lang/kernel.h"
#include "ir/verify/switch.h"
#include "tests/support/mapping_fixture.h"

#include <catch2/catch.hpp>

#include <string>

using namespace tujit;
using namespace tujit::ir;
using tujit::testing::Axes;

namespace {

SwitchConfig cfg(SwitchKind k, std::uint64_t slice1, std::uint64_t slice0,
                 std::uint64_t time0 = 0) {
  SwitchConfig c;
  c.kind = k;
  c.slice1 = slice1;
  c.slice0 = slice0;
  c.time0 = time0;
  return c;
}

SwitchConfig custom(std::uint64_t ring) {
  SwitchConfig c;
  c.kind = SwitchKind::CustomBroadcast;
  c.ring_size = ring;
  return c;
}

Result<verify::SwitchDerived> run(const Axes& ax, const SwitchConfig& c, ScalarType d,
                                  const char* slice, const char* time, const char* packet,
                                  const char* out_slice, const char* out_time) {
  return verify::verify_switch(
      {c, d, ax(slice), ax(time), ax(packet), ax(out_slice), ax(out_time)});
}

std::string code_of(const Result<verify::SwitchDerived>& r) {
  if (r) return "ok";
  return r.diagnostics().front().code + ": " + r.diagnostics().front().message;
}

bool refused_with(const Result<verify::SwitchDerived>& r, const char* code) {
  UNSCOPED_INFO(code_of(r));
  return !r && r.diagnostics().front().code == code;
}

} // namespace

TEST_CASE("switch: the book's regular examples derive the book's sizes and cycles", "[switch]") {
  using K = SwitchKind;
  SECTION("Broadcast01: slice2 64, time1 16, ring 4; 4 · 64 · (4 B · 64 / 32 = 8) = 2048") {
    const Axes ax("A = 256, B = 64, C = 63, D = 2, X = 2, Y = 2");
    auto r = run(ax, cfg(K::Broadcast01, 2, 2, 4), ScalarType::F32, "A", "B", "C # 64",
                 "A / 4, X, Y", "B / 4, A / 2 % 2, B % 4, A % 2");
    REQUIRE(r);
    CHECK(r->slice2 == 64);
    CHECK(r->time1 == 16);
    CHECK(r->time0 == 4);
    CHECK(r->ring_size == 4);
    CHECK(r->sub_rings == 64);
    CHECK(r->flits_per_packet == 8);
    CHECK(r->cycles == 2048);
  }
  SECTION("Broadcast1: slice2 8, ring 32; 32 · 64 · (1 B · 64 / 32 = 2) = 4096") {
    const Axes ax("A = 256, B = 64, C = 63, X = 4");
    auto r = run(ax, cfg(K::Broadcast1, 4, 8), ScalarType::I8, "A", "B", "C # 64",
                 "A / 32, X, A % 8", "B, A / 8 % 4");
    REQUIRE(r);
    CHECK(r->slice2 == 8);
    CHECK(r->ring_size == 32);
    CHECK(r->flits_per_packet == 2);
    CHECK(r->cycles == 4096);
  }
  SECTION("Transpose: slice2 4, ring 64; 64 · 64 · 2 = 8192") {
    const Axes ax("A = 256, B = 64, C = 63");
    auto r = run(ax, cfg(K::Transpose, 32, 2), ScalarType::I8, "A", "B", "C # 64",
                 "A / 64, A % 2, A / 2 % 32", "B");
    REQUIRE(r);
    CHECK(r->slice2 == 4);
    CHECK(r->ring_size == 64);
    CHECK(r->cycles == 8192);
  }
  SECTION("InterTranspose: slice2 8, time2 2, ring 32; 32 · 8 · 1 = 256") {
    const Axes ax("A = 256, B = 8, C = 32");
    auto r = run(ax, cfg(K::InterTranspose, 2, 16, 2), ScalarType::I8, "A", "B", "C # 32",
                 "A / 32, B / 2 % 2, A % 16", "B / 4, B % 2, A / 16 % 2");
    REQUIRE(r);
    CHECK(r->slice2 == 8);
    CHECK(r->time2 == 2);
    CHECK(r->time1 == 2);
    CHECK(r->ring_size == 32);
    CHECK(r->cycles == 256);
  }
  SECTION("TransposedBroadcast1: slice2 4, ring 64; 64 · 16 · 1 = 1024") {
    const Axes ax("A = 256, B = 16, C = 32, Y = 8");
    auto r = run(ax, cfg(K::TransposedBroadcast1, 8, 8), ScalarType::I8, "A", "B", "C # 32",
                 "A / 64, Y, A / 8 % 8", "B, A % 8");
    REQUIRE(r);
    CHECK(r->slice2 == 4);
    CHECK(r->ring_size == 64);
    CHECK(r->cycles == 1024);
  }
}

TEST_CASE("switch: the book's custom examples derive their rings", "[switch]") {
  SECTION("Example 1, arbitrary permutation: ring 256; 256 · 8 · 8 = 16384") {
    const Axes ax("A = 16, B = 16, C = 8, D = 8, E = 8");
    auto r = run(ax, custom(256), ScalarType::F32, "A, B", "C", "D, E",
                 "B % 4, B / 4, A % 4, A / 4", "C");
    REQUIRE(r);
    CHECK(r->cycles == 16384);
  }
  SECTION("Example 2, multi-dimension broadcast: ring 32; 32 · 8 · 8 = 2048") {
    const Axes ax("A = 16, B = 16, C = 8, D = 8, E = 8, X = 2, Y = 2");
    auto r = run(ax, custom(32), ScalarType::F32, "A, B", "C", "D, E", "A / 2, X, B / 2, Y",
                 "C, A % 2, B % 2");
    REQUIRE(r);
    CHECK(r->cycles == 2048);
  }
  SECTION("Example 3, partial extraction of a padded axis: ring 4") {
    const Axes ax("A = 16, B = 4, C = 3, D = 8, E = 8, X = 4");
    auto r = run(ax, custom(4), ScalarType::F32, "A, B, C # 4", "D", "E", "A, B, X", "D, C");
    REQUIRE(r);
    CHECK(r->ring_size == 4);
    CHECK(r->flits_per_packet == 1); // 4 B · 8 / 32
  }
  SECTION("a stated ring other than the layouts' is refused") {
    const Axes ax("A = 16, B = 16, C = 8, D = 8, E = 8, X = 2, Y = 2");
    CHECK(refused_with(run(ax, custom(64), ScalarType::F32, "A, B", "C", "D, E",
                           "A / 2, X, B / 2, Y", "C, A % 2, B % 2"),
                       "E-SWITCH-010"));
    CHECK(refused_with(run(ax, custom(24), ScalarType::F32, "A, B", "C", "D, E",
                           "A / 2, X, B / 2, Y", "C, A % 2, B % 2"),
                       "E-SWITCH-009"));
  }
}

TEST_CASE("switch: the book's custom constraints, each refused with its rule", "[switch]") {
  SECTION("broadcast axes must be new: B of InTime in OutSlice") {
    const Axes ax("A = 256, B = 64, C = 32");
    CHECK(refused_with(
        run(ax, custom(4), ScalarType::I8, "A", "B", "C # 32", "A / 8, B / 32, A % 4", "B"),
        "E-SWITCH-011"));
  }
  SECTION("each broadcast axis used once") {
    const Axes ax("A = 256, B = 8, C = 32, X = 4");
    CHECK(refused_with(
        run(ax, custom(16), ScalarType::I8, "A", "B", "C # 32", "A / 16, X, X", "B, A % 16"),
        "E-SWITCH-012"));
  }
  SECTION("broadcast axes must not be padded") {
    const Axes ax("A = 256, B = 8, C = 32, X = 2, Y = 2");
    CHECK(refused_with(
        run(ax, custom(16), ScalarType::I8, "A", "B", "C # 32", "A / 8, X # 4, Y", "B, A % 8"),
        "E-SWITCH-013"));
  }
  SECTION("order preservation: B % 2 and B / 2 reversed") {
    const Axes ax("A = 16, B = 16, C = 8, D = 8, E = 8");
    CHECK(refused_with(run(ax, custom(16), ScalarType::I8, "A, B", "C", "D, E", "A, B / 4, 4",
                           "C, B % 2, B / 2 % 2"),
                       "E-SWITCH-015"));
    CHECK(run(ax, custom(4), ScalarType::I8, "A, B", "C", "D, E", "A, B / 4, 4",
              "C, B / 2 % 2, B % 2"));
  }
  SECTION("innermost time position: C between the moved A % 2 and B % 2") {
    const Axes ax("A = 16, B = 16, C = 8, D = 8, E = 8");
    CHECK(refused_with(run(ax, custom(32), ScalarType::I8, "A, B", "C", "D, E",
                           "A / 2, 2, B / 2, 2", "A % 2, C, B % 2"),
                       "E-SWITCH-014"));
  }
  SECTION("dropped values must be padding: slicing a live axis") {
    const Axes ax("A = 16, B = 4, C = 3, D = 8, E = 8, X = 4");
    CHECK(refused_with(
        run(ax, custom(4), ScalarType::F32, "A, C # 4, B", "D", "E", "A, C # 4, X", "D, B = 3"),
        "E-SWITCH-017"));
  }
}

TEST_CASE("switch: the reference's CustomBroadcast tests", "[switch]") {
  const Axes ax("A = 16, B = 16, C = 8, D = 2, E = 2, P = 4, Q = 8, R = 8, S = 256, X = 4, Y = 2, "
                "Z = 2");
  struct Case {
    const char *slice, *time, *out_slice, *out_time;
    std::uint64_t ring;
  };
  const Case accepted[] = {
      {"S", "C", "S", "C", 1},
      {"A, B", "C", "B % 4, B / 4, A % 4, A / 4", "C", 256},
      {"A, B", "C", "A, B % 4, B / 4", "C", 16},
      {"R, Q, P", "C", "R, P, Q", "C", 32},
      {"R, Q, P", "C", "Q, R, P", "C", 256},
      {"P # 16, Q # 16", "C", "P # 16, Q # 16", "C", 1},
      {"R # 16, Q # 16", "C", "Q # 16, R # 16", "C", 128},
      {"R # 16, Q # 16", "C", "Q # 32, R # 8", "C", 128},
      {"R # 16, Q # 16", "C", "R # 16, Q # 16 % 4, Q # 16 / 4", "C", 16},
      {"A, B", "C", "A, B / 4, X", "C, B % 4", 4},
      {"A, B", "C", "A / 2, Y, B / 2, Z", "C, A % 2, B % 2", 32},
      {"A, B", "C", "A % 4, A / 4, B / 4, X", "C, B % 4", 256},
      {"R, Q, P", "C", "R, P / 2, Q, Y", "C, P % 2", 32},
      {"R, Q, P", "C", "R, Q, P / 2, Y", "C, P % 2", 2},
      {"R, Q, P", "C", "R / 2, Y, Q, P / 2, Z", "C, R % 2, P % 2", 64},
      {"A, B", "C", "S", "C, A, B", 256},
      {"A, B", "C # 32", "A, B / 4, X", "C # 32, B % 4", 4},
      {"P # 8, Q # 32", "C", "P # 8, Q # 32 / 4, X", "C, Q # 32 % 4", 4},
      {"P # 32, Q", "C", "P # 32, Q / 4, X", "C, Q % 4", 4},
      {"P # 16, Q # 16", "C", "P # 16, Q # 16 / 4, X", "C, Q # 16 % 4", 4},
      {"P # 8, Q # 32", "C # 16", "P # 8, Q # 32 / 4, X", "C # 16, Q # 32 % 4", 4},
  };
  for (const Case& c : accepted) {
    INFO(c.slice << " / " << c.time << " -> " << c.out_slice << " / " << c.out_time);
    auto r =
        run(ax, custom(c.ring), ScalarType::I8, c.slice, c.time, "D, E", c.out_slice, c.out_time);
    INFO(code_of(r));
    CHECK(r);
  }
  // Refused as unsequenceable: a live slice digit replaced by a broadcast, or a partial read.
  const Case refused[] = {
      {"A, B", "C", "A / 2, Y, B / 2, Z", "C, B % 2", 32},
      {"R, P", "C", "R, X", "C", 4},
      {"A, B", "C", "A, B / 4, X", "C, B % 4 = 3", 4},
      {"S", "C", "S / 4, X", "C, S % 4 = 3", 4},
  };
  for (const Case& c : refused) {
    INFO(c.slice << " / " << c.time << " -> " << c.out_slice << " / " << c.out_time);
    CHECK(refused_with(
        run(ax, custom(c.ring), ScalarType::I8, c.slice, c.time, "D, E", c.out_slice, c.out_time),
        "E-SWITCH-017"));
  }
}

TEST_CASE("switch: the reference's fixtures, accepted and refused with their rule", "[switch]") {
  using K = SwitchKind;
  // furiosa-opt-examples switch_assertions.rs: axes, the input Slice C and Time A of an i8 stream.
  const Axes ax("A = 8, B = 32, C = 256, D = 64, E = 1024, F = 1024, G = 32");
  auto in = [&](const SwitchConfig& c, const char* os, const char* ot, const char* slice = "C",
                const char* time = "A") {
    return run(ax, c, ScalarType::I8, slice, time, "B", os, ot);
  };
  SECTION("valid twins") {
    CHECK(in(cfg(K::Broadcast1, 4, 4), "C / 16, 1 # 4, C % 4", "A, C / 4 % 4"));
    CHECK(in(cfg(K::Broadcast1, 4, 64), "1 # 4, C % 64", "A, C / 64"));
    CHECK(in(cfg(K::Broadcast01, 256, 1, 1), "F / 4", "E / 4", "E / 4", "1"));
    CHECK(in(cfg(K::Broadcast01, 2, 2, 2), "C / 4, D % 4", "A / 2, C / 2 % 2, A % 2, C % 2"));
    CHECK(in(cfg(K::Broadcast01, 2, 2, 1), "C / 4, 1 # 4", "A, C / 2 % 2, C % 2"));
    CHECK(in(cfg(K::Transpose, 32, 2), "C / 64, C % 2, C / 2 % 32", "A"));
    CHECK(in(cfg(K::Transpose, 16, 8), "C / 128, C % 8, C / 8 % 16", "A"));
    CHECK(in(cfg(K::Transpose, 4, 4), "C / 16, C % 4, C / 4 % 4", "A"));
    CHECK(in(cfg(K::InterTranspose, 2, 16, 2), "C / 32, A / 2 % 2, C % 16",
             "A / 4, A % 2, C / 16 % 2"));
    CHECK(in(cfg(K::InterTranspose, 8, 32, 1), "A, C % 32", "C / 32 % 8"));
  }
  SECTION("Broadcast1") {
    CHECK(refused_with(in(cfg(K::Broadcast1, 0, 64), "C / 4, D % 4", "A, C % 4"), "E-SWITCH-001"));
    CHECK(refused_with(in(cfg(K::Broadcast1, 3, 64), "C / 4, D % 4", "A, C % 4"), "E-SWITCH-004"));
    CHECK(
        refused_with(in(cfg(K::Broadcast1, 4, 16), "D % 4, C % 64", "A, C / 64"), "E-SWITCH-006"));
    CHECK(
        refused_with(in(cfg(K::Broadcast1, 4, 64), "C / 64, C % 64", "A, C / 64"), "E-SWITCH-008"));
    CHECK(
        refused_with(in(cfg(K::Broadcast1, 4, 64), "1 # 4, D % 64", "A, C / 64"), "E-SWITCH-006"));
    CHECK(refused_with(in(cfg(K::Broadcast1, 4, 64), "1 # 4, C % 64", "A, E % 4"), "E-SWITCH-007"));
  }
  SECTION("Broadcast01") {
    const char* ot = "A, C / 2 % 2, C % 2";
    CHECK(refused_with(in(cfg(K::Broadcast01, 2, 0, 1), "C / 4, D % 4", ot), "E-SWITCH-001"));
    CHECK(refused_with(in(cfg(K::Broadcast01, 3, 2, 1), "C / 4, D % 4", ot), "E-SWITCH-004"));
    CHECK(refused_with(in(cfg(K::Broadcast01, 2, 2, 2), "C / 4, D % 4", ot), "E-SWITCH-007"));
    CHECK(refused_with(
        in(cfg(K::Broadcast01, 2, 2, 2), "C / 8, D % 8", "A / 2, C / 2 % 2, A % 2, C % 2"),
        "E-SWITCH-006"));
    CHECK(refused_with(in(cfg(K::Broadcast01, 2, 2, 1), "C / 4, C % 4", ot), "E-SWITCH-008"));
    CHECK(refused_with(in(cfg(K::Broadcast01, 2, 2, 1), "C / 4, A % 4", ot), "E-SWITCH-008"));
    CHECK(
        refused_with(in(cfg(K::Broadcast01, 2, 2, 2), "C / 4, E % 4", "A / 2, C / 2, A % 2, C % 2"),
                     "E-SWITCH-007"));
  }
  SECTION("Transpose") {
    CHECK(refused_with(in(cfg(K::Transpose, 32, 2), "C / 64, C % 2, C / 2 % 32", "D"),
                       "E-SWITCH-007"));
    CHECK(refused_with(in(cfg(K::Transpose, 32, 2), "C / 64, C % 2, C / 2 % 32", "E % 8"),
                       "E-SWITCH-007"));
    CHECK(refused_with(in(cfg(K::Transpose, 16, 8), "C % 8, C / 128, C / 8 % 16", "A",
                          "C / 128, C / 8 % 16, C % 8"),
                       "E-SWITCH-006"));
  }
  SECTION("InterTranspose") {
    CHECK(refused_with(in(cfg(K::InterTranspose, 8, 32, 0), "A, C % 32", "C / 32 % 8"),
                       "E-SWITCH-001"));
    CHECK(refused_with(in(cfg(K::InterTranspose, 3, 2, 1), "1 # 256", "A", "1 # 256"),
                       "E-SWITCH-004"));
    CHECK(refused_with(in(cfg(K::InterTranspose, 4, 64, 3), "A, C % 32", "C / 32 % 8"),
                       "E-SWITCH-005"));
    CHECK(refused_with(in(cfg(K::InterTranspose, 8, 16, 2), "D % 2, A, C % 16",
                          "B / 16, E % 2, C / 16 % 8", "C / 128, C % 128", "A, B / 8"),
                       "E-SWITCH-006"));
    CHECK(refused_with(in(cfg(K::InterTranspose, 8, 16, 2), "D % 2, A, B / 2",
                          "B / 8, B / 4 % 2, B % 2, C / 16 % 8", "D % 2, A, C % 16", "B"),
                       "E-SWITCH-006"));
    CHECK(refused_with(in(cfg(K::InterTranspose, 2, 16, 2), "C / 32, D % 2, C % 16",
                          "A / 2, G / 16, A % 2", "C / 128, C % 128"),
                       "E-SWITCH-006"));
    CHECK(refused_with(in(cfg(K::InterTranspose, 2, 16, 2), "C / 32, A / 2 % 2, C % 16",
                          "A / 2, A % 2, C / 16 % 2"),
                       "E-SWITCH-007"));
    CHECK(refused_with(in(cfg(K::InterTranspose, 2, 16, 2), "C / 32, A / 2 % 2, C % 16",
                          "A / 4, A / 2 % 2, D % 2"),
                       "E-SWITCH-007"));
    CHECK(refused_with(
        in(cfg(K::InterTranspose, 2, 16, 2), "C / 32, A / 2 % 2, C % 16", "A / 4, A % 2, D % 2"),
        "E-SWITCH-007"));
  }
}

TEST_CASE("switch: the book's cycle formula, worked by hand", "[switch][cycles]") {
  // Broadcast01: f32, Packet 64 → 4 · 64 / 32 = 8 flits; 4 · 64 · 8 = 2048.
  CHECK(verify::switch_flits_per_packet(ScalarType::F32, 64) == 8);
  CHECK(verify::switch_cycles(4, 64, 8) == 2048);
  // Broadcast1: i8, Packet 64 → 2 flits; 32 · 64 · 2 = 4096.
  CHECK(verify::switch_flits_per_packet(ScalarType::I8, 64) == 2);
  CHECK(verify::switch_cycles(32, 64, 2) == 4096);
  // InterTranspose: i8, Packet 32 → 1 flit; 32 · 8 · 1 = 256.
  CHECK(verify::switch_flits_per_packet(ScalarType::I8, 32) == 1);
  CHECK(verify::switch_cycles(32, 8, 1) == 256);
  // A packet smaller than a flit still takes one.
  CHECK(verify::switch_flits_per_packet(ScalarType::I8, 8) == 1);
}

TEST_CASE("switch: the front end types the call and its configuration literal", "[switch][lang]") {
  const std::string head = R"(axes![A = 256, B = 64, C = 63, X = 4];
fn k<'l, const T: Tu>(
    input: FetchTensor<'l, T, i8, m![1], m![1 # 2], m![A], m![B], m![C # 64]>,
) -> SwitchTensor<'l, T, i8, m![1], m![1 # 2], m![A / 32, X, A % 8], m![B, A / 8 % 4], m![C # 64]> {
    input.switch::<m![A / 32, X, A % 8], m![B, A / 8 % 4]>()";
  auto first_code = [](const SpecAnalysis& a) {
    return a.diagnostics.empty() ? std::string("ok") : a.diagnostics.front().code;
  };
  SECTION("a Broadcast1 literal") {
    auto a = analyze(
        SourceBuffer("t.rs", head + "SwitchConfig::Broadcast1 { slice1: 4, slice0: 8, })\n}\n"));
    REQUIRE(first_code(a) == "ok");
    REQUIRE(a.file.kernels.size() == 1);
    const Stage& s = a.file.kernels[0].stages.at(0);
    CHECK(s.op == StageOp::Switch);
    REQUIRE(s.switch_config);
    CHECK(s.switch_config->kind == SwitchKind::Broadcast1);
    CHECK(s.switch_config->slice1 == 4);
    CHECK(s.switch_config->slice0 == 8);
    CHECK(s.output.kind == TensorKind::Switch);
  }
  SECTION("malformed literals") {
    CHECK(first_code(analyze(SourceBuffer(
              "t.rs", head + "SwitchConfig::Broadcast1 { slice1: 4 })\n}\n"))) == "E-TYPE-027");
    CHECK(
        first_code(analyze(SourceBuffer(
            "t.rs", head + "SwitchConfig::Broadcast1 { slice1: 4, slice0: 8, time0: 1 })\n}\n"))) ==
        "E-TYPE-027");
    CHECK(first_code(analyze(SourceBuffer(
              "t.rs", head + "SwitchConfig::Forwarding { slice1: 4 })\n}\n"))) == "E-TYPE-027");
    CHECK(first_code(analyze(SourceBuffer("t.rs", head + "4)\n}\n"))) == "E-TYPE-016");
    // The body that fails to parse also loses its tail (E-TYPE-018 follows).
    const SpecAnalysis other = analyze(SourceBuffer("t.rs", head + "Config { slice1: 4 })\n}\n"));
    bool refused = false;
    for (const Diagnostic& d : other.diagnostics) refused = refused || d.code == "E-PARSE-208";
    CHECK(refused);
  }
}

TEST_CASE("switch: the three switches of the reference's MNIST verify", "[switch]") {
  // furiosa-opt-examples src/mnist/mod.rs: fc1_bias_prepared, fc2_input_prepared,
  // fc2_bias_prepared (bf16 streams of one padded word per packet).
  using K = SwitchKind;
  const Axes ax("X = 800, H = 256, C = 16, I = 2, Dummy8 = 8, Dummy16 = 16");
  auto r1 = run(ax, cfg(K::InterTranspose, 8, 1, 1), ScalarType::BF16, "H / 8, Dummy8", "H % 8",
                "1 # 8", "H", "Dummy8");
  UNSCOPED_INFO(code_of(r1));
  CHECK(r1);
  auto r2 =
      run(ax, cfg(K::Broadcast1, 256, 1), ScalarType::BF16, "H", "1", "1 # 4", "C, 1 # 16", "H");
  UNSCOPED_INFO(code_of(r2));
  CHECK(r2);
  auto r3 = run(ax, cfg(K::InterTranspose, 16, 16, 1), ScalarType::BF16, "Dummy16, 1 # 16", "C",
                "1 # 4", "C, 1 # 16", "Dummy16");
  UNSCOPED_INFO(code_of(r3));
  CHECK(r3);
  if (r2) CHECK(r2->ring_size == 256);
}

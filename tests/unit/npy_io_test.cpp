// .npy I/O: files assembled byte by byte in the test from the NumPy format description (magic,
// version, little-endian header length, dict header, raw C-order data), write → read round
// trips per dtype, conversion to parameter types, and every malformed-input diagnostic.
#include "runtime/io/output_file.h"
#include "runtime/npy/npy_convert.h"
#include "runtime/tensor/random_fill.h"

#include <unistd.h>

#include "tests/support/tensor_values.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <bit>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

using namespace tujit;
using namespace tujit::runtime;
using ir::ScalarType;

namespace {

// An independent writer: version `major`.0, header text as given (padded to 64 with spaces and
// '\n' unless `raw_header`), then `data`.
std::vector<std::uint8_t> npy_bytes(const std::string& header,
                                    const std::vector<std::uint8_t>& data, int major = 1,
                                    bool raw_header = false) {
  std::string h = header;
  const std::size_t prefix = major == 1 ? 10 : 12;
  if (!raw_header) {
    while ((prefix + h.size() + 1) % 64 != 0) h += ' ';
    h += '\n';
  }
  std::vector<std::uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<std::uint8_t>(major),
                                   0};
  out.push_back(static_cast<std::uint8_t>(h.size()));
  out.push_back(static_cast<std::uint8_t>(h.size() >> 8));
  if (major != 1) {
    out.push_back(static_cast<std::uint8_t>(h.size() >> 16));
    out.push_back(static_cast<std::uint8_t>(h.size() >> 24));
  }
  out.insert(out.end(), h.begin(), h.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::vector<std::uint8_t> f32_le(std::initializer_list<float> v) {
  std::vector<std::uint8_t> out;
  for (float f : v) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(b >> (8 * k)));
  }
  return out;
}

std::string parse_error(const std::vector<std::uint8_t>& bytes, NpyLimits limits = {}) {
  auto r = parse_npy(bytes, "x.npy", limits);
  if (r.ok()) return "OK";
  CHECK(r.diagnostics().front().code == "E-NPY-001");
  return r.diagnostics().front().message;
}

const std::vector<ir::Axis> kAB = {{"A", 2}, {"B", 3}};

} // namespace

TEST_CASE("npy: reads hand-assembled files of every supported dtype and version", "[npy]") {
  auto a = parse_npy(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                               f32_le({1, 2, 3, 4, 5, 6.5f})),
                     "x.npy");
  REQUIRE(a.ok());
  CHECK(a->dtype == NpyDtype::F4);
  CHECK(a->shape == std::vector<std::uint64_t>{2, 3});
  auto t = tensor_from_npy(*a, ScalarType::F32, kAB, "x");
  REQUIRE(t.ok());
  CHECK(t->get(5) == 0x40D00000u); // 6.5
  // Version 2 and 3, double quotes, no trailing comma, extra spaces.
  for (int v : {2, 3}) {
    auto b = parse_npy(npy_bytes("{\"descr\": \"|i1\" , \"shape\":(6,),\"fortran_order\":False}",
                                 {1, 0xFF, 0x7F, 0x80, 0, 3}, v),
                       "x.npy");
    REQUIRE(b.ok());
    CHECK(b->shape == std::vector<std::uint64_t>{6});
    auto i8 = tensor_from_npy(*b, ScalarType::I8, {{"A", 6}}, "x");
    REQUIRE(i8.ok());
    CHECK(testing::containers(*i8) ==
          std::vector<std::uint32_t>{1, 0xFFFFFFFFu, 127, 0xFFFFFF80u, 0, 3});
  }
  // 0-d array.
  auto s = parse_npy(npy_bytes("{'descr': '<i8', 'fortran_order': False, 'shape': (), }",
                               {0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}),
                     "x.npy");
  REQUIRE(s.ok());
  auto i4 = tensor_from_npy(*s, ScalarType::I4, {}, "x");
  REQUIRE(i4.ok());
  CHECK(testing::containers(*i4) == std::vector<std::uint32_t>{0xFFFFFFFEu}); // -2
  // <u2 data for a bf16 parameter is its raw codes (no option needed: uint16 is no float form).
  auto u2 = parse_npy(
      npy_bytes("{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }", {0x80, 0x3F}),
      "x.npy");
  REQUIRE(u2.ok());
  auto raw = tensor_from_npy(*u2, ScalarType::BF16, {{"A", 1}}, "x");
  REQUIRE(raw.ok());
  CHECK(raw->get(0) == 0x3F80u);
  auto u2i = tensor_from_npy(*u2, ScalarType::I16, {{"A", 1}}, "x"); // 0x3F80 = 16256 fits
  REQUIRE(u2i.ok());
  CHECK(u2i->get(0) == 16256u);
}

TEST_CASE("npy: write → read round trips for every dtype", "[npy]") {
  for (ScalarType t : ir::kAllScalarTypes) {
    INFO(ir::name(t));
    auto x = make_logical_tensor(t, kAB);
    REQUIRE(x.ok());
    fill_random(*x, 9);
    for (bool raw : {false, true}) {
      NpyConvertOptions opt{raw};
      auto bytes = serialize_npy(npy_from_tensor(*x, opt));
      auto a = parse_npy(bytes, "rt.npy");
      REQUIRE(a.ok());
      auto back = tensor_from_npy(*a, t, kAB, "x", opt);
      REQUIRE(back.ok());
      CHECK(back->data == x->data);
    }
  }
  // NumPy's alignment: the data starts at a multiple of 64.
  auto x = make_logical_tensor(ScalarType::F32, kAB);
  auto bytes = serialize_npy(npy_from_tensor(*x));
  CHECK((bytes.size() - 6 * 4) % 64 == 0);
  std::string header(bytes.begin() + 10, bytes.end() - 24);
  CHECK(header.find("'descr': '<f4'") != std::string::npos);
  CHECK(header.find("'shape': (2, 3)") != std::string::npos);
  CHECK(header.back() == '\n');
}

TEST_CASE("npy: conversion to the parameter type", "[npy]") {
  auto f64 = [](std::initializer_list<double> v) {
    std::vector<std::uint8_t> out;
    for (double d : v) {
      std::uint64_t b;
      std::memcpy(&b, &d, 8);
      for (int k = 0; k < 8; ++k) out.push_back(static_cast<std::uint8_t>(b >> (8 * k)));
    }
    return out;
  };
  auto a = parse_npy(npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }",
                               f64({1.0 + 0x1p-8 + 0x1p-30, 1.125, -0.0})),
                     "x.npy");
  REQUIRE(a.ok());
  auto bf = tensor_from_npy(*a, ScalarType::BF16, {{"A", 3}}, "w");
  REQUIRE(bf.ok());
  CHECK(testing::containers(*bf) == std::vector<std::uint32_t>{0x3F81u, 0x3F90u, 0x8000u});
  auto e5 = tensor_from_npy(*a, ScalarType::F8E5M2, {{"A", 3}}, "w");
  REQUIRE(e5.ok());
  CHECK(testing::containers(*e5) ==
        std::vector<std::uint32_t>{0x3Cu, 0x3Cu, 0x80u}); // RNE ties to even
  // Out of range: names the element, the value and the limit.
  auto big = parse_npy(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                                 f32_le({0, 0, 0, 0, 500, 0})),
                       "x.npy");
  REQUIRE(big.ok());
  auto e4 = tensor_from_npy(*big, ScalarType::F8E4M3, kAB, "w");
  REQUIRE_FALSE(e4.ok());
  CHECK(e4.diagnostics().front().code == "E-NPY-004");
  CHECK(e4.diagnostics().front().message.find("A=1, B=1") != std::string::npos);
  CHECK(e4.diagnostics().front().message.find("448") != std::string::npos);
  // Integers must fit: 8 does not fit i4.
  auto ints = parse_npy(npy_bytes("{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }",
                                  {1, 0, 7, 0, 0xF8, 0xFF, 8, 0, 0, 0, 0, 0}),
                        "x.npy");
  REQUIRE(ints.ok());
  auto i4 = tensor_from_npy(*ints, ScalarType::I4, kAB, "q");
  REQUIRE_FALSE(i4.ok());
  CHECK(i4.diagnostics().front().message.find("element A=1, B=0 is 8, outside the i4 range "
                                              "[-8, 7]") != std::string::npos);
  CHECK(tensor_from_npy(*ints, ScalarType::I8, kAB, "q").ok());
  // Shape mismatch gives both shapes; dtype mismatch names both types.
  auto shape = tensor_from_npy(*ints, ScalarType::I8, {{"A", 3}, {"B", 2}}, "q");
  REQUIRE_FALSE(shape.ok());
  CHECK(shape.diagnostics().front().message.find("[2, 3]") != std::string::npos);
  CHECK(shape.diagnostics().front().message.find("[3, 2]") != std::string::npos);
  CHECK(tensor_from_npy(*ints, ScalarType::BF16, kAB, "q").diagnostics().front().code ==
        "E-NPY-003");
  CHECK(tensor_from_npy(*big, ScalarType::I32, kAB, "q").diagnostics().front().code == "E-NPY-003");
}

TEST_CASE("npy: malformed files are diagnostics, never a crash", "[npy]") {
  const std::string good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  const auto data = f32_le({1, 2});
  CHECK(parse_error(npy_bytes(good, data)) == "OK");
  CHECK(parse_error({}).find("magic") != std::string::npos);
  CHECK(parse_error({'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0, 0}).find("magic") != std::string::npos);
  auto v4 = npy_bytes(good, data);
  v4[6] = 4;
  CHECK(parse_error(v4).find("version 4.0") != std::string::npos);
  auto v2short = npy_bytes(good, data, 2);
  v2short.resize(11);
  CHECK(parse_error(v2short).find("header length") != std::string::npos);
  auto cut = npy_bytes(good, data);
  cut.resize(40);
  CHECK(parse_error(cut).find("ends inside the header") != std::string::npos);
  CHECK(parse_error(npy_bytes(good, {1, 2, 3})).find("truncated") != std::string::npos);
  auto extra = data;
  extra.push_back(0);
  CHECK(parse_error(npy_bytes(good, extra)).find("after the 2 elements") != std::string::npos);
  CHECK(parse_error(npy_bytes("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", data))
            .find("big-endian") != std::string::npos);
  CHECK(parse_error(npy_bytes("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", data))
            .find("unsupported dtype") != std::string::npos);
  CHECK(parse_error(npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", data))
            .find("Fortran") != std::string::npos);
  CHECK(parse_error(npy_bytes("{'descr': '<f4', 'shape': (2,), }", data)).find("lacks") !=
        std::string::npos);
  for (const char* h : {"['descr']", "{'descr' '<f4'}", "{'descr': <f4}", "{'descr': '<f4",
                        "{'fortran_order': Maybe}", "{'shape': (2, x)}", "{'shape': 2}",
                        "{'other': 1}", "{'shape': (2,)} trailing", "{'shape': (2,) 'x'}"})
    CHECK(parse_error(npy_bytes(h, data)).find("malformed header") != std::string::npos);
  // Absurd shapes: overflow of the element count, and above the configured limit.
  CHECK(parse_error(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': "
                              "(4294967296, 4294967296, 16), }",
                              data))
            .find("too many elements") != std::string::npos);
  CHECK(parse_error(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': "
                              "(99999999999999999999,), }",
                              data))
            .find("64 bits") != std::string::npos);
  NpyLimits small;
  small.max_elements = 1;
  CHECK(parse_error(npy_bytes(good, data), small).find("more than the limit of 1") !=
        std::string::npos);
  small.max_header_bytes = 16;
  CHECK(parse_error(npy_bytes(good, data), small).find("header claims") != std::string::npos);
  // Every truncation of a valid file is a diagnostic.
  auto full = npy_bytes(good, data);
  for (std::size_t n = 0; n < full.size(); ++n) {
    std::vector<std::uint8_t> part(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
    CHECK_FALSE(parse_npy(part, "x.npy").ok());
  }
}

TEST_CASE("npy: files on disk, atomic write and --force semantics", "[npy]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tujit_npy_test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "out.npy").string();
  auto x = make_logical_tensor(ScalarType::I32, kAB);
  fill_random(*x, 3);
  auto bytes = serialize_npy(npy_from_tensor(*x));
  CHECK_FALSE(io::write_file(path, bytes, false).has_value());
  auto again = io::write_file(path, bytes, false);
  REQUIRE(again.has_value());
  CHECK(again->code == "E-IO-002");
  CHECK_FALSE(io::write_file(path, bytes, true).has_value());
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
  auto a = read_npy_file(path);
  REQUIRE(a.ok());
  auto back = tensor_from_npy(*a, ScalarType::I32, kAB, "out");
  REQUIRE(back.ok());
  CHECK(back->data == x->data);
  auto missing = read_npy_file((dir / "nope.npy").string());
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.diagnostics().front().code == "E-IO-001");
  fs::remove_all(dir);
}

TEST_CASE("npy: raw bit patterns for every operand type", "[npy]") {
  auto array = [](const char* descr, const char* shape, std::vector<std::uint8_t> data) {
    auto a = parse_npy(npy_bytes(fmt::format("{{'descr': '{}', 'fortran_order': False, "
                                             "'shape': {}, }}",
                                             descr, shape),
                                 std::move(data)),
                       "raw.npy");
    REQUIRE(a.ok());
    return *a;
  };
  // f8 codes as |u1, taken as they are: 0x7E is f8e4m3's 448 and f8e5m2's NaN, 0x3D is
  // f8e5m2's 1.25 (the code RNE would never give 1.125).
  for (ScalarType t : {ScalarType::F8E4M3, ScalarType::F8E5M2}) {
    auto r = tensor_from_npy(array("|u1", "(3,)", {0x7E, 0x3D, 0xFF}), t, {{"A", 3}}, "x");
    REQUIRE(r.ok());
    CHECK(testing::containers(*r) == std::vector<std::uint32_t>{0x7E, 0x3D, 0xFF});
  }
  // f32 <f4 bit for bit: a NaN with a payload survives (a float conversion would canonicalise).
  auto f = tensor_from_npy(array("<f4", "(1,)", {0x01, 0x00, 0xA0, 0xFF}), ScalarType::F32,
                           {{"A", 1}}, "x");
  REQUIRE(f.ok());
  CHECK(f->get(0) == 0xFFA00001u);
  // i4 packed two per byte, the even element in the low nibble: 0x8F = elements -1 (0xF), -8
  // (0x8); a row of 3 elements takes 2 bytes, the last high nibble unused.
  auto p = tensor_from_npy(array("|u1", "(2, 2)", {0x8F, 0x07, 0x21, 0xF3}), ScalarType::I4,
                           {{"A", 2}, {"B", 3}}, "x");
  REQUIRE(p.ok());
  const std::vector<std::uint32_t> i4{0xFFFFFFFFu, 0xFFFFFFF8u, 7, 1, 2, 3};
  CHECK(testing::containers(*p) == i4);
  // The full logical shape of |u1 still means integer values (range-checked).
  auto v = tensor_from_npy(array("|u1", "(2, 3)", {0, 1, 7, 2, 3, 4}), ScalarType::I4,
                           {{"A", 2}, {"B", 3}}, "x");
  REQUIRE(v.ok());
  CHECK(testing::containers(*v) == std::vector<std::uint32_t>{0, 1, 7, 2, 3, 4});
}

TEST_CASE("npy: f4e2m1 inputs as codes, packed codes or exact values (docs/cli.md §6.1)", "[npy]") {
  auto array = [](const char* descr, const char* shape, std::vector<std::uint8_t> data) {
    auto a = parse_npy(npy_bytes(fmt::format("{{'descr': '{}', 'fortran_order': False, "
                                             "'shape': {}, }}",
                                             descr, shape),
                                 std::move(data)),
                       "e2m1.npy");
    REQUIRE(a.ok());
    return *a;
  };
  const std::vector<ir::Axis> a2b3 = {{"A", 2}, {"B", 3}};
  // One code per element (|u1 of the full shape).
  auto codes =
      tensor_from_npy(array("|u1", "(2, 3)", {0, 1, 7, 8, 9, 15}), ScalarType::F4E2M1, a2b3, "x");
  REQUIRE(codes.ok());
  CHECK(testing::containers(*codes) == std::vector<std::uint32_t>{0, 1, 7, 8, 9, 15});
  // Packed as the device packs them: byte 0x71 is element 0 = code 1, element 1 = code 7 (codes
  // kept, not sign-extended as an i4's would be); a row of 3 takes 2 bytes.
  auto packed = tensor_from_npy(array("|u1", "(2, 2)", {0x71, 0x0F, 0x98, 0xFA}),
                                ScalarType::F4E2M1, a2b3, "x");
  REQUIRE(packed.ok());
  CHECK(testing::containers(*packed) == std::vector<std::uint32_t>{1, 7, 15, 8, 9, 10});
  // Exact values: 0.5 is code 1, -0.0 code 8, -6 code 15, 3 code 5.
  auto values = tensor_from_npy(array("<f4", "(2, 2)", f32_le({0.5f, -0.0f, -6.0f, 3.0f})),
                                ScalarType::F4E2M1, {{"A", 2}, {"B", 2}}, "x");
  REQUIRE(values.ok());
  CHECK(testing::containers(*values) == std::vector<std::uint32_t>{1, 8, 15, 5});
  // Not a code, not a value of the set, not a form: E-NPY-004, E-NPY-004, E-NPY-003.
  auto code16 = tensor_from_npy(array("|u1", "(1,)", {16}), ScalarType::F4E2M1, {{"A", 1}}, "x");
  REQUIRE_FALSE(code16.ok());
  CHECK(code16.diagnostics().front().code == "E-NPY-004");
  auto inexact =
      tensor_from_npy(array("<f4", "(1,)", f32_le({2.5f})), ScalarType::F4E2M1, {{"A", 1}}, "x");
  REQUIRE_FALSE(inexact.ok());
  CHECK(inexact.diagnostics().front().code == "E-NPY-004");
  auto ints = tensor_from_npy(array("|i1", "(1,)", {1}), ScalarType::F4E2M1, {{"A", 1}}, "x");
  REQUIRE_FALSE(ints.ok());
  CHECK(ints.diagnostics().front().code == "E-NPY-003");
  // Written as exact <f4 values, or |u1 codes raw; both read back to the same codes.
  for (bool raw : {false, true}) {
    auto bytes = serialize_npy(npy_from_tensor(*codes, NpyConvertOptions{raw}));
    auto back = parse_npy(bytes, "rt.npy");
    REQUIRE(back.ok());
    CHECK(back->dtype == (raw ? NpyDtype::U1 : NpyDtype::F4));
    auto t = tensor_from_npy(*back, ScalarType::F4E2M1, a2b3, "x");
    REQUIRE(t.ok());
    CHECK(t->data == codes->data);
  }
}

TEST_CASE("npy: --float-input-rounding device applies the chip's converters", "[npy]") {
  // 1.125 lies halfway between the f8e5m2 codes 0x3C (1.0) and 0x3D (1.25): round to nearest
  // even gives 0x3C, the Cast Engine's encoder (scalars reference, ties away from zero) 0x3D.
  std::vector<std::uint8_t> data(4);
  const std::uint32_t b = std::bit_cast<std::uint32_t>(1.125f);
  for (int k = 0; k < 4; ++k) data[k] = static_cast<std::uint8_t>(b >> (8 * k));
  auto a = parse_npy(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", data),
                     "r.npy");
  REQUIRE(a.ok());
  auto rne = tensor_from_npy(*a, ScalarType::F8E5M2, {{"A", 1}}, "x");
  REQUIRE(rne.ok());
  CHECK(rne->get(0) == 0x3Cu);
  NpyConvertOptions device;
  device.rounding = FloatInputRounding::Device;
  auto dev = tensor_from_npy(*a, ScalarType::F8E5M2, {{"A", 1}}, "x", device);
  REQUIRE(dev.ok());
  CHECK(dev->get(0) == 0x3Du);
  // f8e4m3: a value beyond 448 is E-NPY-004 by default, saturates on the chip.
  const std::uint32_t big = std::bit_cast<std::uint32_t>(1000.0f);
  for (int k = 0; k < 4; ++k) data[k] = static_cast<std::uint8_t>(big >> (8 * k));
  auto a2 = parse_npy(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", data),
                      "r.npy");
  REQUIRE(a2.ok());
  CHECK(tensor_from_npy(*a2, ScalarType::F8E4M3, {{"A", 1}}, "x").diagnostics().front().code ==
        "E-NPY-004");
  auto sat = tensor_from_npy(*a2, ScalarType::F8E4M3, {{"A", 1}}, "x", device);
  REQUIRE(sat.ok());
  CHECK(sat->get(0) == 0x7Eu);
}

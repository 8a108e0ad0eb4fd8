// Layout rules of spec/scalars.md §2: 4-bit packing, nibble read-modify-write, little-endian byte
// images of every byte-addressable type, and the byte-size helpers and their errors.
#include "ir/types/scalar_type.h"
#include "runtime/scalar/packing.h"
#include "runtime/scalar/scalar_traits.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using namespace tujit;
using namespace tujit::runtime;
using ir::ScalarType;

TEST_CASE("4-bit packing: element 0 in the low nibble, i4 sign-extends", "[scalar]") {
  std::vector<std::int8_t> all;
  for (int v = -8; v <= 7; ++v) all.push_back(static_cast<std::int8_t>(v));
  auto packed = pack_i4(all);
  REQUIRE(packed.ok());
  REQUIRE(packed->size() == 8);
  for (std::size_t i = 0; i < all.size(); ++i) {
    // independent: nibble i of the image is (v mod 16) at bit 4·(i mod 2) of byte i/2
    const unsigned nib = ((*packed)[i / 2] >> (4 * (i % 2))) & 0xF;
    CHECK(nib == static_cast<unsigned>((all[i] + 16) % 16));
  }
  CHECK(unpack_i4(*packed) == all);
  std::vector<std::uint8_t> bytes = {0x9A};
  CHECK(load_i4(bytes, 0) == -6);            // 0xA
  CHECK(load_i4(bytes, 1) == -7);            // 0x9
  CHECK(load_e2m1(bytes, 0) == F4E2M1{0xA}); // codes are kept, not sign-extended
  CHECK(load_e2m1(bytes, 1) == F4E2M1{0x9});
}

TEST_CASE("nibble store leaves the sibling nibble unchanged", "[scalar]") {
  for (unsigned start = 0; start < 256; ++start) {
    for (unsigned code = 0; code < 16; ++code) {
      std::vector<std::uint8_t> b = {static_cast<std::uint8_t>(start)};
      store_nibble(b, 0, static_cast<std::uint8_t>(code));
      CHECK(b[0] == ((start & 0xF0) | code));
      b[0] = static_cast<std::uint8_t>(start);
      store_nibble(b, 1, static_cast<std::uint8_t>(code | 0xF0)); // high bits of code ignored
      CHECK(b[0] == ((start & 0x0F) | (code << 4)));
    }
  }
  std::vector<std::uint8_t> b = {0x00, 0x00};
  store_i4(b, 3, -1);
  CHECK(b == std::vector<std::uint8_t>{0x00, 0xF0});
}

TEST_CASE("odd 4-bit element counts cannot be serialized", "[scalar]") {
  std::vector<std::int8_t> odd = {1, 2, 3};
  auto r = pack_i4(odd);
  REQUIRE_FALSE(r.ok());
  CHECK(r.diagnostics().front().code == "E-TYPE-101");
  CHECK(r.diagnostics().front().message.find("3 i4") != std::string::npos);
  std::vector<F4E2M1> odd_codes = {F4E2M1{1}};
  CHECK_FALSE(pack_e2m1(odd_codes).ok());
  std::vector<std::int8_t> none;
  auto empty = pack_i4(none);
  REQUIRE(empty.ok());
  CHECK(empty->empty());
}

TEST_CASE("byte images are little-endian and round-trip for every byte-addressable type",
          "[scalar]") {
  std::vector<std::int16_t> i16 = {0x1234, -2};
  CHECK(to_byte_image<ScalarType::I16>(i16) == std::vector<std::uint8_t>{0x34, 0x12, 0xFE, 0xFF});
  std::vector<std::int32_t> i32 = {0x01020304, -1};
  CHECK(to_byte_image<ScalarType::I32>(i32) ==
        std::vector<std::uint8_t>{0x04, 0x03, 0x02, 0x01, 0xFF, 0xFF, 0xFF, 0xFF});
  std::vector<float> f32 = {1.0f, -2.5f};
  CHECK(to_byte_image<ScalarType::F32>(f32) ==
        std::vector<std::uint8_t>{0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x20, 0xC0});
  std::vector<Bf16> bf = {Bf16{0x3F80}, Bf16{0xC020}};
  CHECK(to_byte_image<ScalarType::BF16>(bf) == std::vector<std::uint8_t>{0x80, 0x3F, 0x20, 0xC0});
  std::vector<F8E4M3> e4 = {F8E4M3{0x38}, F8E4M3{0xFE}};
  CHECK(to_byte_image<ScalarType::F8E4M3>(e4) == std::vector<std::uint8_t>{0x38, 0xFE});
  std::vector<F8E5M2> e5 = {F8E5M2{0x3C}};
  CHECK(to_byte_image<ScalarType::F8E5M2>(e5) == std::vector<std::uint8_t>{0x3C});
  std::vector<std::uint8_t> u8 = {0, 255};
  CHECK(to_byte_image<ScalarType::U8>(u8) == u8);

  auto back16 = from_byte_image<ScalarType::I16>(std::vector<std::uint8_t>{0x34, 0x12, 0xFE, 0xFF});
  REQUIRE(back16.ok());
  CHECK(*back16 == i16);
  auto back32 = from_byte_image<ScalarType::F32>(to_byte_image<ScalarType::F32>(f32));
  REQUIRE(back32.ok());
  CHECK(*back32 == f32);
  auto backbf = from_byte_image<ScalarType::BF16>(to_byte_image<ScalarType::BF16>(bf));
  REQUIRE(backbf.ok());
  CHECK(*backbf == bf);
  auto bad = from_byte_image<ScalarType::I32>(std::vector<std::uint8_t>{1, 2, 3});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.diagnostics().front().code == "E-TYPE-103");
}

TEST_CASE("byte sizes: n·BITS/8 on the wire, staging widths on the host", "[scalar]") {
  CHECK(*wire_byte_size(ScalarType::I4, 64) == 32);
  CHECK(*wire_byte_size(ScalarType::I5, 64) == 32); // i5 counts as 4 bits on the wire
  CHECK(*wire_byte_size(ScalarType::I9, 32) == 32); // i9 counts as 8 bits
  CHECK(*wire_byte_size(ScalarType::BF16, 16) == 32);
  CHECK(*wire_byte_size(ScalarType::F32, 8) == 32);
  auto odd = wire_byte_size(ScalarType::F4E2M1, 3);
  REQUIRE_FALSE(odd.ok());
  CHECK(odd.diagnostics().front().code == "E-TYPE-102");
  CHECK(*host_byte_size(ScalarType::I5, 10) == 10); // one byte per i5
  CHECK(*host_byte_size(ScalarType::I9, 10) == 20); // two bytes per i9
  CHECK(*host_byte_size(ScalarType::I4, 10) == 5);  // packed
  CHECK_FALSE(host_byte_size(ScalarType::I4, 5).ok());
  CHECK(*host_element_count(ScalarType::I9, 20) == 10);
  CHECK(*host_element_count(ScalarType::I4, 3) == 6);
  CHECK(*host_element_count(ScalarType::F32, 32) == 8);
  CHECK_FALSE(host_element_count(ScalarType::F32, 6).ok());
  CHECK_FALSE(host_element_count(ScalarType::I9, 3).ok());
}

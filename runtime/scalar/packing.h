// Byte layout of host buffers and device images (spec/scalars.md §2): little-endian byte images
// of the byte-addressable types, 4-bit packing (two per byte, element 0 in the low nibble), and
// the byte-size rules. Size and packing mistakes are errors (Result), never aborts.
#pragma once

#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "runtime/scalar/integer.h"
#include "runtime/scalar/scalar_traits.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tujit::runtime {

// Diagnostic codes of this file (stage "type").
inline constexpr const char* kErrOddNibbleCount = "E-TYPE-101";   // 4-bit image of odd length
inline constexpr const char* kErrNotWholeBytes = "E-TYPE-102";    // n·BITS not a multiple of 8
inline constexpr const char* kErrNotWholeElements = "E-TYPE-103"; // bytes do not divide evenly

// --- nibbles: element i lives in byte i/2, low nibble if i is even ---------------------------

constexpr std::uint8_t load_nibble(std::span<const std::uint8_t> bytes, std::size_t i) {
  const std::uint8_t b = bytes[i / 2];
  return static_cast<std::uint8_t>((i % 2 == 0) ? (b & 0xFu) : (b >> 4));
}

/// An i4 element: the nibble sign-extended (Wrap(4)).
constexpr std::int8_t load_i4(std::span<const std::uint8_t> bytes, std::size_t i) {
  return static_cast<std::int8_t>(sign_extend(load_nibble(bytes, i), 4));
}

/// An f4e2m1 element: the 4-bit code as is.
constexpr F4E2M1 load_e2m1(std::span<const std::uint8_t> bytes, std::size_t i) {
  return F4E2M1{load_nibble(bytes, i)};
}

/// Read-modify-write of one nibble: the sibling nibble is left unchanged. Only the low 4 bits of
/// `code` are stored (for an i4 that is Wrap(4) of the value).
constexpr void store_nibble(std::span<std::uint8_t> bytes, std::size_t i, std::uint8_t code) {
  std::uint8_t& b = bytes[i / 2];
  const std::uint8_t c = static_cast<std::uint8_t>(code & 0xFu);
  b = (i % 2 == 0) ? static_cast<std::uint8_t>((b & 0xF0u) | c)
                   : static_cast<std::uint8_t>((b & 0x0Fu) | (c << 4));
}

constexpr void store_i4(std::span<std::uint8_t> bytes, std::size_t i, std::int8_t v) {
  store_nibble(bytes, i, static_cast<std::uint8_t>(v));
}

/// Packed byte image of 4-bit values; an odd element count is an error (§2).
Result<std::vector<std::uint8_t>> pack_i4(std::span<const std::int8_t> values);
Result<std::vector<std::uint8_t>> pack_e2m1(std::span<const F4E2M1> codes);

/// All 2·bytes.size() elements of a packed image.
std::vector<std::int8_t> unpack_i4(std::span<const std::uint8_t> bytes);
std::vector<F4E2M1> unpack_e2m1(std::span<const std::uint8_t> bytes);

// --- sizes ------------------------------------------------------------------------------------

/// Bytes of n elements on the wire / in DM / in HBM: n·BITS/8, the bit count must be whole bytes.
Result<std::uint64_t> wire_byte_size(ScalarType t, std::uint64_t n);
/// Bytes of n elements in a host buffer: n·STAGING_BITS/8 (i5 one byte, i9 two, i4 packed).
Result<std::uint64_t> host_byte_size(ScalarType t, std::uint64_t n);
/// Elements in a host buffer of `bytes` bytes: bytes·8/STAGING_BITS, which must divide exactly.
Result<std::uint64_t> host_element_count(ScalarType t, std::uint64_t bytes);

// --- byte images of byte-addressable types (little-endian, independent of the host's order) ---

template <ScalarType T>
std::vector<std::uint8_t> to_byte_image(std::span<const typename ScalarTraits<T>::Host> values) {
  static_assert(ir::is_byte_addressable(T), "only byte-addressable types have a byte image");
  constexpr std::size_t w = ir::wire_bits(T) / 8;
  std::vector<std::uint8_t> out(values.size() * w);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::uint64_t raw = to_raw<T>(values[i]);
    for (std::size_t k = 0; k < w; ++k)
      out[i * w + k] = static_cast<std::uint8_t>((raw >> (8 * k)) & 0xFFu);
  }
  return out;
}

/// The inverse; a byte count that is not a multiple of the element width is an error.
template <ScalarType T>
Result<std::vector<typename ScalarTraits<T>::Host>>
from_byte_image(std::span<const std::uint8_t> bytes) {
  static_assert(ir::is_byte_addressable(T), "only byte-addressable types have a byte image");
  using Raw = typename ScalarTraits<T>::Raw;
  auto count = host_element_count(T, bytes.size());
  if (!count) return std::move(count).take_diagnostics();
  constexpr std::size_t w = ir::wire_bits(T) / 8;
  std::vector<typename ScalarTraits<T>::Host> out(*count);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::uint64_t raw = 0;
    for (std::size_t k = 0; k < w; ++k)
      raw |= static_cast<std::uint64_t>(bytes[i * w + k]) << (8 * k);
    out[i] = from_raw<T>(static_cast<Raw>(raw));
  }
  return out;
}

} // namespace tujit::runtime

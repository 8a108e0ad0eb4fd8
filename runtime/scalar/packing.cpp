// 4-bit packing and size rules (spec/scalars.md §2).
#include "runtime/scalar/packing.h"

#include <fmt/format.h>

namespace tujit::runtime {
namespace {

Diagnostic odd_count_error(ScalarType t, std::size_t n) {
  Diagnostic d =
      make_error(kErrOddNibbleCount,
                 fmt::format("cannot pack {} {} elements into bytes: a {} byte image needs an even "
                             "element count",
                             n, ir::name(t), ir::name(t)),
                 std::nullopt,
                 {"rule: 4-bit types pack two elements per byte, element 0 in the low nibble "
                  "(scalars.md §2)"});
  d.stage = "type";
  return d;
}

Result<std::vector<std::uint8_t>> pack_codes(ScalarType t, std::span<const std::uint8_t> codes) {
  if (codes.size() % 2 != 0) return odd_count_error(t, codes.size());
  std::vector<std::uint8_t> out(codes.size() / 2, 0);
  for (std::size_t i = 0; i < codes.size(); ++i) store_nibble(out, i, codes[i]);
  return out;
}

} // namespace

Result<std::vector<std::uint8_t>> pack_i4(std::span<const std::int8_t> values) {
  std::vector<std::uint8_t> codes(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) codes[i] = static_cast<std::uint8_t>(values[i]);
  return pack_codes(ScalarType::I4, codes);
}

Result<std::vector<std::uint8_t>> pack_e2m1(std::span<const F4E2M1> codes) {
  std::vector<std::uint8_t> raw(codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) raw[i] = codes[i].code;
  return pack_codes(ScalarType::F4E2M1, raw);
}

std::vector<std::int8_t> unpack_i4(std::span<const std::uint8_t> bytes) {
  std::vector<std::int8_t> out(bytes.size() * 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = load_i4(bytes, i);
  return out;
}

std::vector<F4E2M1> unpack_e2m1(std::span<const std::uint8_t> bytes) {
  std::vector<F4E2M1> out(bytes.size() * 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = load_e2m1(bytes, i);
  return out;
}

namespace {

Result<std::uint64_t> bits_to_bytes(ScalarType t, std::uint64_t n, std::uint32_t bits,
                                    const char* which) {
  const std::uint64_t total = n * bits;
  if (total % 8 != 0) {
    Diagnostic d = make_error(
        kErrNotWholeBytes,
        fmt::format("{} {} elements take {} bits {}, which is not a whole number of bytes", n,
                    ir::name(t), total, which),
        std::nullopt,
        {fmt::format("rule: n·{}/8 must be whole bytes ({} is {} bits per element; "
                     "scalars.md §2)",
                     bits, ir::name(t), bits)});
    d.stage = "type";
    return d;
  }
  return total / 8;
}

} // namespace

Result<std::uint64_t> wire_byte_size(ScalarType t, std::uint64_t n) {
  return bits_to_bytes(t, n, ir::wire_bits(t), "on the wire");
}

Result<std::uint64_t> host_byte_size(ScalarType t, std::uint64_t n) {
  return bits_to_bytes(t, n, ir::host_staging_bits(t), "in a host buffer");
}

Result<std::uint64_t> host_element_count(ScalarType t, std::uint64_t bytes) {
  const std::uint32_t bits = ir::host_staging_bits(t);
  const std::uint64_t total = bytes * 8;
  if (total % bits != 0) {
    Diagnostic d = make_error(
        kErrNotWholeElements,
        fmt::format("{} bytes do not hold a whole number of {} elements ({} bits each)", bytes,
                    ir::name(t), bits),
        std::nullopt,
        {fmt::format("rule: a host buffer of {} holds bytes·8/{} elements, which must divide "
                     "exactly (scalars.md §2)",
                     ir::name(t), bits)});
    d.stage = "type";
    return d;
  }
  return total / bits;
}

} // namespace tujit::runtime

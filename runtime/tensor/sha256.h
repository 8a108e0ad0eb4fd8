// SHA-256 (FIPS 180-4) for the `sha256` of `tujit run` (docs/cli.md: over the output tensor's
// bytes in logical order, little-endian). Small and self-contained: no crypto dependency.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace tujit::runtime {

class Sha256 {
public:
  Sha256();
  void update(std::span<const std::uint8_t> data);
  /// Pads, finishes and returns the digest; the object must not be updated afterwards.
  std::array<std::uint8_t, 32> finish();

private:
  void block(const std::uint8_t* p);
  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buf_{};
  std::size_t used_ = 0;
  std::uint64_t total_bytes_ = 0;
};

/// Lower-case hex of the digest of `data`.
std::string sha256_hex(std::span<const std::uint8_t> data);

} // namespace tujit::runtime

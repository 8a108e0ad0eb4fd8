// SHA-256 (FIPS 180-4) for the `sha256` of `tujit run` (docs/cli.md: over the output tensor's
// bytes in logical order, little-endian) and the object cache's checks. OpenSSL's libcrypto
// computes it: it uses the host's SHA extensions where present, several times faster than portable
// code on the multi-MiB outputs of a run, whose digest is a serial part of every run.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace tujit::runtime {

class Sha256 {
public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::span<const std::uint8_t> data);
  /// Finishes and returns the digest; the object must not be updated afterwards.
  std::array<std::uint8_t, 32> finish();

private:
  struct Context;
  std::unique_ptr<Context> ctx_;
};

/// Lower-case hex of a digest.
std::string digest_hex(const std::array<std::uint8_t, 32>& digest);

/// Lower-case hex of the digest of `data`.
std::string sha256_hex(std::span<const std::uint8_t> data);

} // namespace tujit::runtime

#include "runtime/tensor/sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <stdexcept>

namespace tujit::runtime {

struct Sha256::Context {
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  ~Context() { EVP_MD_CTX_free(md); }
};

namespace {
// libcrypto fails only when it cannot allocate or is misconfigured: an internal error, not an
// input the user can fix.
void require(int ok) {
  if (ok != 1) throw std::runtime_error("libcrypto SHA-256 failed");
}
// A digest needs neither the system's openssl.cnf nor libcrypto's error strings; loading them
// on first use cost about a millisecond of every run. Must precede every other libcrypto call.
void init_libcrypto() {
  static const int ok = OPENSSL_init_crypto(
      OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS, nullptr);
  require(ok);
}
} // namespace

Sha256::Sha256() : ctx_((init_libcrypto(), std::make_unique<Context>())) {
  if (ctx_->md == nullptr) throw std::bad_alloc();
  require(EVP_DigestInit_ex(ctx_->md, EVP_sha256(), nullptr));
}

Sha256::~Sha256() = default;

void Sha256::update(std::span<const std::uint8_t> data) {
  if (!data.empty()) require(EVP_DigestUpdate(ctx_->md, data.data(), data.size()));
}

std::array<std::uint8_t, 32> Sha256::finish() {
  std::array<std::uint8_t, 32> out{};
  unsigned len = 0;
  require(EVP_DigestFinal_ex(ctx_->md, out.data(), &len));
  if (len != out.size())
    throw std::runtime_error("libcrypto SHA-256 gave a digest of the wrong size");
  return out;
}

std::string digest_hex(const std::array<std::uint8_t, 32>& digest) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  text.reserve(64);
  for (std::uint8_t b : digest) {
    text += kHex[b >> 4];
    text += kHex[b & 15];
  }
  return text;
}

std::string sha256_hex(std::span<const std::uint8_t> data) {
  Sha256 s;
  s.update(data);
  return digest_hex(s.finish());
}

} // namespace tujit::runtime

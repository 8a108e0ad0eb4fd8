// The SHA-256 of a buffer that several threads write block by block, in any order: each finished
// block is reported once, and whichever thread finds the next blocks in order finished hashes
// them, so the digest follows the writers instead of starting after the last one. SHA-256 is a
// chain over the bytes in order: one thread hashes at a time, the others go on writing. The
// digest is the one-shot digest of the whole buffer (docs/cli.md §6).
#pragma once

#include "runtime/tensor/sha256.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace tujit::runtime::exec {

class PrefixDigest {
public:
  /// `data` in `blocks` blocks of `block_bytes` bytes (the last ends at the buffer's end).
  PrefixDigest(std::span<const std::uint8_t> data, std::uint64_t block_bytes);
  PrefixDigest(const PrefixDigest&) = delete;
  PrefixDigest& operator=(const PrefixDigest&) = delete;

  /// Block `k` is written (each block once, from any thread; its writes happen before).
  void done(std::uint64_t k);
  /// Hashes the blocks not hashed yet (every block must be done) and returns the lower-case hex
  /// digest. Called once, after the writers.
  std::string finish();

private:
  void hash_ready();

  std::span<const std::uint8_t> data_;
  std::uint64_t block_bytes_, blocks_;
  std::unique_ptr<std::atomic<bool>[]> done_;
  std::atomic<std::uint64_t> next_{0}; // blocks hashed
  std::atomic<bool> busy_{false};      // a thread is hashing
  Sha256 sha_;
};

} // namespace tujit::runtime::exec

#include "runtime/exec/prefix_digest.h"

#include <algorithm>

namespace tujit::runtime::exec {

PrefixDigest::PrefixDigest(std::span<const std::uint8_t> data, std::uint64_t block_bytes)
    : data_(data), block_bytes_(std::max<std::uint64_t>(block_bytes, 1)),
      blocks_((data.size() + block_bytes_ - 1) / block_bytes_),
      done_(std::make_unique<std::atomic<bool>[]>(blocks_)) {} // value-initialised: false

void PrefixDigest::done(std::uint64_t k) {
  done_[k].store(true, std::memory_order_release);
  hash_ready();
}

void PrefixDigest::hash_ready() {
  // A block finished while another thread held the hash is seen by that thread's check after it
  // lets go, or by this loop's.
  for (;;) {
    const std::uint64_t next = next_.load(std::memory_order_acquire);
    if (next == blocks_ || !done_[next].load(std::memory_order_acquire)) return;
    if (busy_.exchange(true, std::memory_order_acquire)) return; // the holder will see it
    std::uint64_t k = next_.load(std::memory_order_relaxed);
    for (; k < blocks_ && done_[k].load(std::memory_order_acquire); ++k) {
      const std::uint64_t begin = k * block_bytes_;
      sha_.update(data_.subspan(begin, std::min(block_bytes_, data_.size() - begin)));
    }
    next_.store(k, std::memory_order_release);
    busy_.store(false, std::memory_order_release);
  }
}

std::string PrefixDigest::finish() {
  for (std::uint64_t k = 0; k < blocks_; ++k) done_[k].store(true, std::memory_order_relaxed);
  hash_ready();
  return digest_hex(sha_.finish());
}

} // namespace tujit::runtime::exec

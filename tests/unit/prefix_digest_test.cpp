// The digest that follows the writers of a buffer (runtime/exec/prefix_digest.h, "[digest]"): for
// any block size and any order and number of threads reporting the blocks, it is the one-shot
// SHA-256 of the whole buffer.
#include "runtime/exec/prefix_digest.h"
#include "runtime/tensor/random_fill.h"
#include "runtime/tensor/sha256.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <thread>
#include <vector>

using namespace tujit;

TEST_CASE("prefix digest: blocks reported in any order by any threads give the whole digest",
          "[digest]") {
  std::vector<std::uint8_t> data(300'001);
  runtime::SplitMix64 g(5);
  for (auto& b : data) b = static_cast<std::uint8_t>(g.next());
  const std::string want = runtime::sha256_hex(data);
  std::mt19937_64 order_rng(11);
  for (std::uint64_t block : {1ull, 63ull, 64ull, 4096ull, 100'000ull, 300'001ull, 1'000'000ull}) {
    const std::uint64_t blocks = (data.size() + block - 1) / block;
    for (unsigned threads : {1u, 2u, 4u}) {
      INFO("block " << block << ", threads " << threads);
      std::vector<std::uint64_t> order(blocks);
      for (std::uint64_t k = 0; k < blocks; ++k) order[k] = k;
      std::shuffle(order.begin(), order.end(), order_rng);
      runtime::exec::PrefixDigest digest(data, block);
      std::vector<std::thread> pool;
      for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
          for (std::uint64_t i = t; i < blocks; i += threads) digest.done(order[i]);
        });
      for (auto& th : pool) th.join();
      CHECK(digest.finish() == want);
    }
  }
  // A digest finished before every block was reported hashes the rest itself.
  runtime::exec::PrefixDigest partial(data, 1000);
  partial.done(2);
  partial.done(0);
  CHECK(partial.finish() == want);
}

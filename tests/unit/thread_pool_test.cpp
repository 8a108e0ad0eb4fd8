// The runners' thread pool (runtime/exec/thread_pool.h, "[pool]"): every task of every run runs
// exactly once, on a worker index below the pool's size, with runs back to back (workers late for
// a run they were woken for must claim nothing of the next), with fewer tasks than workers, and
// from pools lent by PoolLease to several threads at once.
#include "runtime/exec/thread_pool.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

using tujit::runtime::exec::PoolLease;
using tujit::runtime::exec::ThreadPool;

namespace {

/// Runs `runs` runs of 0, 1, … tasks on `pool`; counts how often each task ran, checks each
/// worker index. Returns the runs in which some task did not run exactly once.
unsigned broken_runs(ThreadPool& pool, unsigned runs) {
  unsigned broken = 0;
  for (unsigned r = 0; r < runs; ++r) {
    const std::uint64_t tasks = r % 37;
    std::vector<std::atomic<unsigned>> ran(tasks);
    std::atomic<unsigned> bad_worker{0};
    pool.run(tasks, [&](std::uint64_t i, unsigned worker) {
      ran[i].fetch_add(1);
      if (worker >= pool.size()) bad_worker.fetch_add(1);
    });
    bool ok = bad_worker == 0;
    for (const auto& n : ran) ok = ok && n.load() == 1;
    broken += ok ? 0 : 1;
  }
  return broken;
}

} // namespace

TEST_CASE("thread pool: every task runs once, run after run, any pool size", "[pool]") {
  for (unsigned size : {1u, 2u, 3u, 7u}) {
    INFO("workers " << size);
    ThreadPool pool(size);
    CHECK(pool.size() == size);
    CHECK(broken_runs(pool, 2000) == 0);
  }
}

TEST_CASE("thread pool: leases from several threads at once each get a pool of their own",
          "[pool]") {
  std::atomic<unsigned> broken{0};
  std::vector<std::thread> callers;
  for (unsigned c = 0; c < 3; ++c)
    callers.emplace_back([&broken, c] {
      for (unsigned k = 0; k < 50; ++k) {
        PoolLease pool(2 + (c + k) % 2);
        broken.fetch_add(broken_runs(*pool, 20));
      }
    });
  for (auto& t : callers) t.join();
  CHECK(broken == 0);
}

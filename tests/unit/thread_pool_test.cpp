// The runners' thread pool (runtime/exec/thread_pool.h, "[pool]"): every task of every run runs
// exactly once, on a worker index below the pool's size, with runs back to back (workers late for
// a run they were woken for must claim nothing of the next), with fewer tasks than workers, and
// from pools lent by PoolLease to several threads at once. A worker starts on another CPU than
// its creator's and is then free to run on any of the creator's CPUs (cpu_placement.h).
#include "runtime/exec/cpu_placement.h"
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

namespace {
cpu_set_t cpus(std::initializer_list<int> list) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : list) CPU_SET(c, &set);
  return set;
}
} // namespace

TEST_CASE("cpu placement: worker w takes the w-th allowed CPU after its creator's", "[pool]") {
  using tujit::runtime::exec::worker_cpu;
  const cpu_set_t two = cpus({0, 1});
  CHECK(worker_cpu(two, 1, 1) == 0);
  CHECK(worker_cpu(two, 0, 1) == 1);
  CHECK(worker_cpu(two, 0, 2) == 0);  // more workers than CPUs: round the allowed set again
  CHECK(worker_cpu(two, 0, 0) == -1); // the creator itself stays
  const cpu_set_t sparse = cpus({2, 5, 7});
  CHECK(worker_cpu(sparse, 5, 1) == 7);
  CHECK(worker_cpu(sparse, 5, 2) == 2);
  CHECK(worker_cpu(sparse, 5, 3) == 5);
  CHECK(worker_cpu(sparse, 5, 4) == 7);
  CHECK(worker_cpu(sparse, 3, 1) == 5);     // a creator outside the set: the next allowed CPU
  CHECK(worker_cpu(cpus({4}), 4, 1) == -1); // one CPU: nowhere to go
  CHECK(worker_cpu(two, -1, 1) == -1);      // the creator's CPU unknown
}

TEST_CASE("cpu placement: a settled worker may run on every CPU its creator may", "[pool]") {
  using tujit::runtime::exec::CpuPlacement;
  cpu_set_t creator;
  REQUIRE(sched_getaffinity(0, sizeof creator, &creator) == 0);
  const CpuPlacement placement = CpuPlacement::of_calling_thread();
  cpu_set_t after;
  CPU_ZERO(&after);
  std::thread([&] {
    placement.settle_worker(1);
    (void)sched_getaffinity(0, sizeof after, &after);
  }).join();
  CHECK(CPU_EQUAL(&after, &creator)); // a hint, not a pin
}

#include "runtime/exec/thread_pool.h"

#include "runtime/exec/cpu_placement.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace tujit::runtime::exec {

namespace {

/// A claim index past every batch's tasks: the claim counter between two batches.
constexpr std::uint32_t kClosed = 0xFFFFFFFFu;
/// How long a thread spins for the next run (a worker) or the last task (the caller) before it
/// sleeps: longer than a sleeping thread takes to wake on a virtual machine (tens of
/// microseconds) and than a slice's task, short next to a run. It spins rather than yield its core:
/// a worker that yielded to another process's thread on a busy machine took 6% of the tasks
/// instead of half.
constexpr auto kSpin = std::chrono::microseconds(200);

void relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

/// Spins until `ready()` or kSpin has passed; ready()'s last value.
template <class Ready>
bool spin_until(const Ready& ready) {
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (unsigned i = 1;; ++i) {
    if (ready()) return true;
    relax();
    if (i % 64 == 0 && std::chrono::steady_clock::now() > deadline) return ready();
  }
}

unsigned workers_for(unsigned threads) {
  if (threads == 0) threads = std::thread::hardware_concurrency();
  return threads == 0 ? 1 : threads;
}

} // namespace

ThreadPool::ThreadPool(unsigned threads) : size_(workers_for(threads)) {
  claim_.store(kClosed);
  const CpuPlacement placement = CpuPlacement::of_calling_thread();
  for (unsigned w = 1; w < size_; ++w)
    threads_.emplace_back([this, w, placement] {
      placement.settle_worker(w);
      worker_loop(w);
    });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_.store(true);
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void ThreadPool::drain(std::uint32_t generation, unsigned worker) {
  for (;;) {
    std::uint64_t c = claim_.load(std::memory_order_acquire);
    std::uint32_t n = 0;
    for (;;) {
      // A claim of another run, or past this one's tasks: nothing left to take. The batch's
      // count is read before the claim; a claim that succeeds proves the batch still runs.
      if (c >> 32 != generation) return;
      n = tasks_.load(std::memory_order_acquire);
      if (static_cast<std::uint32_t>(c) >= n) return;
      if (claim_.compare_exchange_weak(c, c + 1, std::memory_order_acq_rel,
                                       std::memory_order_acquire))
        break;
    }
    (*task_.load(std::memory_order_acquire))(
        first_.load(std::memory_order_relaxed) + static_cast<std::uint32_t>(c), worker);
    if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 == n) {
      { std::lock_guard<std::mutex> lock(mu_); } // the caller sleeps or sees the count
      done_.notify_all();
    }
  }
}

void ThreadPool::worker_loop(unsigned worker) {
  std::uint32_t seen = 0;
  for (;;) {
    const auto fresh = [&] {
      return stop_.load(std::memory_order_acquire) ||
             generation_.load(std::memory_order_acquire) != seen;
    };
    if (!spin_until(fresh)) {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, fresh);
    }
    if (stop_.load()) return;
    seen = generation_.load(std::memory_order_acquire);
    drain(seen, worker);
  }
}

void ThreadPool::run_batch(std::uint64_t first, std::uint32_t tasks, const Task& task) {
  const std::uint32_t generation = generation_.load() + 1; // only the caller writes it
  const std::uint64_t tag = std::uint64_t{generation} << 32;
  // Closed first: a worker late for an earlier batch fails its claim from here on, before the
  // batch's data changes.
  claim_.store(tag | kClosed);
  task_.store(&task);
  first_.store(first);
  tasks_.store(tasks);
  finished_.store(0);
  claim_.store(tag);
  {
    std::lock_guard<std::mutex> lock(mu_);
    generation_.store(generation);
  }
  wake_.notify_all();
  drain(generation, 0);
  const auto all_done = [&] { return finished_.load(std::memory_order_acquire) == tasks; };
  if (!spin_until(all_done)) {
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, all_done);
  }
}

void ThreadPool::run(std::uint64_t tasks, const Task& task) {
  for (std::uint64_t first = 0; first < tasks;) {
    const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(tasks - first, kClosed - 1));
    run_batch(first, n, task);
    first += n;
  }
}

namespace {

/// The pools no run holds, of at most kMostKeptWorkers workers each, at most kKeptPools of them.
struct IdlePools {
  std::mutex mu;
  std::vector<std::unique_ptr<ThreadPool>> pools;
};
IdlePools& idle_pools() {
  static IdlePools idle;
  return idle;
}
constexpr std::size_t kKeptPools = 4;
constexpr unsigned kMostKeptWorkers = 64;

} // namespace

PoolLease::PoolLease(unsigned threads) {
  const unsigned size = workers_for(threads);
  {
    IdlePools& idle = idle_pools();
    std::lock_guard<std::mutex> lock(idle.mu);
    auto it = std::find_if(idle.pools.begin(), idle.pools.end(),
                           [&](const auto& p) { return p->size() == size; });
    if (it != idle.pools.end()) {
      pool_ = std::move(*it);
      idle.pools.erase(it);
      return;
    }
  }
  pool_ = std::make_unique<ThreadPool>(size);
}

PoolLease::~PoolLease() {
  if (pool_->size() > kMostKeptWorkers) return; // joined here
  IdlePools& idle = idle_pools();
  std::lock_guard<std::mutex> lock(idle.mu);
  if (idle.pools.size() < kKeptPools) idle.pools.push_back(std::move(pool_));
  // else the pool is joined after the lock is released (pool_ dies last)
}

} // namespace tujit::runtime::exec

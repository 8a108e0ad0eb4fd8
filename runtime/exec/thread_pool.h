// A small fixed-size thread pool (std::thread) for the JIT's slice-parallel runs
// (Chip × Cluster × Slice partitioned across threads). Work is a count of independent tasks; each
// task runs exactly once on some worker, and the worker index lets a task use per-worker scratch.
// Results must not depend on which worker runs a task (the engines' determinism, docs/design.md
// §5.6).
//
// A worker first moves itself to another CPU than the pool's creator's (cpu_placement.h), then
// may run anywhere. Workers claim tasks one at a time from an atomic counter, so a worker that
// starts late (woken after the caller began) or runs slower (a core shared with other work) takes
// fewer tasks. After a run a worker spins a little before it sleeps, and so does the caller waiting
// for the last task: a run lasts about a millisecond, and a sleeping thread takes tens of
// microseconds to wake on a virtual machine. A worker that wakes after the run it was called for
// ended claims nothing: a claim names its run (the generation), and the caller's data is read only
// under a valid claim.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tujit::runtime::exec {

class ThreadPool {
public:
  using Task = std::function<void(std::uint64_t, unsigned)>;

  /// `threads` workers; 0 = std::thread::hardware_concurrency() (at least 1). The calling thread
  /// is worker 0, so a pool of 1 starts no thread.
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return size_; }

  /// Runs task(i, worker) for every i in [0, tasks) and returns when all are done.
  /// Not reentrant: one run at a time per pool.
  void run(std::uint64_t tasks, const Task& task);

private:
  void worker_loop(unsigned worker);
  /// Claims and runs tasks of run `generation` until none is left.
  void drain(std::uint32_t generation, unsigned worker);
  void run_batch(std::uint64_t first, std::uint32_t tasks, const Task& task);

  unsigned size_ = 1;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable wake_, done_;
  // claim_ = generation << 32 | next task index: one compare-and-swap claims a task of one run.
  std::atomic<std::uint64_t> claim_{0};
  std::atomic<std::uint32_t> generation_{0}; // the run workers wake for
  std::atomic<std::uint32_t> tasks_{0};
  std::atomic<std::uint64_t> first_{0}; // the batch's first task index (run splits huge counts)
  std::atomic<const Task*> task_{nullptr};
  std::atomic<std::uint32_t> finished_{0};
  std::atomic<bool> stop_{false};
};

/// A pool of `threads` workers lent to one run at a time and kept, process-wide, for the next
/// run of the same size: a benchmark runs a kernel thousands of times, and starting and joining
/// a thread on every run cost more than its wake-up. Idle workers sleep (after their brief spin).
class PoolLease {
public:
  explicit PoolLease(unsigned threads);
  ~PoolLease();
  PoolLease(const PoolLease&) = delete;
  PoolLease& operator=(const PoolLease&) = delete;

  ThreadPool& operator*() const { return *pool_; }
  ThreadPool* operator->() const { return pool_.get(); }

private:
  std::unique_ptr<ThreadPool> pool_;
};

} // namespace tujit::runtime::exec

// A small fixed-size thread pool (std::thread) for the JIT's slice-parallel runs
// (Chip × Cluster × Slice partitioned across threads). Work is a count of independent tasks; each
// task runs exactly once on some worker, and the worker index lets a task use per-worker scratch.
// Results must not depend on which worker runs a task (the engines' determinism, docs/design.md
// §5.6).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tujit::runtime::exec {

class ThreadPool {
public:
  /// `threads` workers; 0 = std::thread::hardware_concurrency() (at least 1). The calling thread
  /// is worker 0, so a pool of 1 starts no thread.
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return size_; }

  /// Runs task(i, worker) for every i in [0, tasks) and returns when all are done.
  /// Not reentrant: one run at a time per pool.
  void run(std::uint64_t tasks, const std::function<void(std::uint64_t, unsigned)>& task);

private:
  void worker_loop(unsigned worker);
  void drain(unsigned worker);

  unsigned size_ = 1;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable wake_, done_;
  const std::function<void(std::uint64_t, unsigned)>* task_ = nullptr;
  std::uint64_t tasks_ = 0, next_ = 0, finished_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
};

} // namespace tujit::runtime::exec

#include "runtime/exec/thread_pool.h"

namespace tujit::runtime::exec {

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = std::thread::hardware_concurrency();
  size_ = threads == 0 ? 1 : threads;
  for (unsigned w = 1; w < size_; ++w) threads_.emplace_back([this, w] { worker_loop(w); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

// Takes tasks until none is left; the lock is held only to claim and to count.
void ThreadPool::drain(unsigned worker) {
  std::unique_lock<std::mutex> lock(mu_);
  while (task_ != nullptr && next_ < tasks_) {
    const std::uint64_t i = next_++;
    const auto* task = task_;
    lock.unlock();
    (*task)(i, worker);
    lock.lock();
    if (++finished_ == tasks_) done_.notify_all();
  }
}

void ThreadPool::worker_loop(unsigned worker) {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    drain(worker);
  }
}

void ThreadPool::run(std::uint64_t tasks,
                     const std::function<void(std::uint64_t, unsigned)>& task) {
  if (tasks == 0) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    task_ = &task;
    tasks_ = tasks;
    next_ = 0;
    finished_ = 0;
    ++generation_;
  }
  wake_.notify_all();
  drain(0);
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [&] { return finished_ == tasks_; });
  task_ = nullptr;
}

} // namespace tujit::runtime::exec

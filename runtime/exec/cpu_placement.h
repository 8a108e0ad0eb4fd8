// Where a pool's worker thread starts running. Linux places a new thread on its creator's CPU
// and spreads it only when load balancing next runs, up to a scheduler tick later; a worker that
// then sleeps is often woken on that same CPU again. The worker and the thread that started it
// then share one CPU for milliseconds while another idles: measured on `tujit run --threads 2`
// on a two-CPU machine, the caller's first slice began 1.6 to 5.4 ms after the worker's, both on
// one CPU, in 9 of 12 runs (docs/cli.md §6).
//
// So a worker moves itself, once, to a CPU other than its creator's and then lets the scheduler
// place it anywhere again: a hint, not a pin, inside the CPUs the process may use.
#pragma once

#include <sched.h>

namespace tujit::runtime::exec {

/// The CPU worker `worker` (1-based) of threads started from `creator_cpu` settles on: the
/// worker-th of `allowed` after the creator's CPU, cyclically. -1 for worker 0, or when fewer
/// than two CPUs are allowed or the creator's CPU is unknown (< 0).
int worker_cpu(const cpu_set_t& allowed, int creator_cpu, unsigned worker);

/// The CPUs the calling thread may run on and the one it runs on now, captured by the thread
/// that starts workers and handed to each.
class CpuPlacement {
public:
  static CpuPlacement of_calling_thread();

  /// Moves the calling thread, worker `worker`, to its worker_cpu, then allows it every CPU of
  /// the creator's again. Does nothing where worker_cpu is -1 or the system refuses.
  void settle_worker(unsigned worker) const;

private:
  int creator_cpu_ = -1;
  cpu_set_t allowed_{};
};

} // namespace tujit::runtime::exec

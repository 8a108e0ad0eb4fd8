#include "runtime/exec/cpu_placement.h"

namespace tujit::runtime::exec {

int worker_cpu(const cpu_set_t& allowed, int creator_cpu, unsigned worker) {
  const int count = CPU_COUNT(&allowed);
  if (worker == 0 || count < 2 || creator_cpu < 0) return -1;
  const int index = static_cast<int>((worker - 1) % static_cast<unsigned>(count));
  int order = 0;
  for (int step = 1; step <= CPU_SETSIZE; ++step) {
    const int cpu = (creator_cpu + step) % CPU_SETSIZE;
    if (CPU_ISSET(cpu, &allowed) && order++ == index) return cpu;
  }
  return -1;
}

CpuPlacement CpuPlacement::of_calling_thread() {
  CpuPlacement p;
  CPU_ZERO(&p.allowed_);
  if (sched_getaffinity(0, sizeof p.allowed_, &p.allowed_) != 0) return CpuPlacement{};
  p.creator_cpu_ = sched_getcpu();
  return p;
}

void CpuPlacement::settle_worker(unsigned worker) const {
  const int cpu = worker_cpu(allowed_, creator_cpu_, worker);
  if (cpu < 0) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  // Narrowing a thread's own affinity moves it before the call returns; widening it again leaves
  // it where it now runs.
  if (sched_setaffinity(0, sizeof one, &one) == 0)
    (void)sched_setaffinity(0, sizeof allowed_, &allowed_);
}

} // namespace tujit::runtime::exec

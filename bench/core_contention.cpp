// `tujit_core_contention [TRIALS]`: whether two of this machine's CPUs are two cores' worth. It
// times a register-only multiply-add loop pinned to the first CPU the process may use, alone, and
// then on the first two at once, TRIALS times (default 9), and prints how much slower the slower of
// the pair ran than the loop alone, per trial and as the median. No memory is touched in the loop,
// so a slowdown comes from the CPUs themselves: SMT siblings, a host that shares or throttles them
// (README "Performance" uses it to bound what a second thread can give).
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

constexpr long kSteps = 200'000'000;

/// Eight independent chains of 16-wide multiply-adds held in vector registers, enough to keep the
/// floating-point pipes busy; the result keeps the loop from being removed.
using Vec16 = float __attribute__((vector_size(64)));
[[gnu::target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")]] float fma_loop(long steps) {
  const Vec16 scale = Vec16{} + 0.9999999f, step = Vec16{} + 1e-7f;
  volatile float start = 1.0f; // unknown to the compiler, which would else fold the loop
  Vec16 a0 = Vec16{} + start, a1 = a0 + 1e-7f, a2 = a1 + 1e-7f, a3 = a2 + 1e-7f;
  Vec16 a4 = a3 + 1e-7f, a5 = a4 + 1e-7f, a6 = a5 + 1e-7f, a7 = a6 + 1e-7f;
  for (long n = 0; n < steps; ++n) {
    a0 = a0 * scale + step;
    a1 = a1 * scale + step;
    a2 = a2 * scale + step;
    a3 = a3 * scale + step;
    a4 = a4 * scale + step;
    a5 = a5 * scale + step;
    a6 = a6 * scale + step;
    a7 = a7 * scale + step;
  }
  const Vec16 all = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
  float sum = 0.0f;
  for (int i = 0; i < 16; ++i) sum += all[i];
  return sum;
}

/// Milliseconds of fma_loop on `cpu`, pinned there.
double timed_on(int cpu, volatile float* sink) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  (void)pthread_setaffinity_np(pthread_self(), sizeof one, &one);
  const auto t0 = std::chrono::steady_clock::now();
  *sink = fma_loop(kSteps);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char** argv) {
  const int trials = argc > 1 ? std::atoi(argv[1]) : 9;
  if (trials < 1 || trials > 1000) {
    std::fprintf(stderr, "usage: tujit_core_contention [TRIALS (1-1000)]\n");
    return 2;
  }
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
    std::perror("tujit_core_contention: sched_getaffinity");
    return 1;
  }
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE && cpus.size() < 2; ++c)
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  if (cpus.size() < 2) {
    std::fprintf(stderr, "tujit_core_contention: the process may use fewer than two CPUs\n");
    return 1;
  }
  volatile float sink[2] = {};
  std::vector<double> slowdowns;
  for (int t = 1; t <= trials; ++t) {
    double alone = 0.0, pair[2] = {};
    std::thread([&] { alone = timed_on(cpus[0], &sink[0]); }).join();
    std::thread second([&] { pair[1] = timed_on(cpus[1], &sink[1]); });
    std::thread([&] { pair[0] = timed_on(cpus[0], &sink[0]); }).join();
    second.join();
    const double slowest = std::max(pair[0], pair[1]);
    slowdowns.push_back(100.0 * (slowest / alone - 1.0));
    std::printf("trial %d: alone on CPU %d %.0f ms; on CPUs %d and %d at once %.0f / %.0f ms "
                "(slower %+.0f %%)\n",
                t, cpus[0], alone, cpus[0], cpus[1], pair[0], pair[1], slowdowns.back());
  }
  std::sort(slowdowns.begin(), slowdowns.end());
  std::printf("median slowdown of the slower of two busy CPUs: %+.0f %% (%d trials, %+.0f to "
              "%+.0f %%)\n",
              slowdowns[slowdowns.size() / 2], trials, slowdowns.front(), slowdowns.back());
  return 0;
}

#include "harness/bench/bench_types.h"

#include "ir/support/stable_sort.h"

#include <algorithm>

namespace tujit::bench {

Spread spread_of(std::vector<double> v) {
  Spread s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  const std::size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return s;
}

void rank_kernels(std::vector<KernelResult>& ks) {
  tujit::stable_sort(ks, [](const KernelResult& a, const KernelResult& b) {
    if (a.cycles_trace != b.cycles_trace) return a.cycles_trace < b.cycles_trace;
    if (a.cycles_analytic != b.cycles_analytic) return a.cycles_analytic < b.cycles_analytic;
    if (a.point != b.point) return a.point < b.point;
    return a.label < b.label;
  });
  for (std::size_t i = 0; i < ks.size(); ++i) ks[i].rank = i + 1;
}

} // namespace tujit::bench

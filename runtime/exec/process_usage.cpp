#include "runtime/exec/process_usage.h"

#include <sys/resource.h>

namespace tujit::runtime {

namespace {

double ms(const timeval& t) {
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3;
}

} // namespace

double peak_rss_mib() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

double process_cpu_ms() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return ms(u.ru_utime) + ms(u.ru_stime);
}

} // namespace tujit::runtime

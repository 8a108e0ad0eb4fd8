// What this process has used so far (getrusage): the peak resident set and the CPU time of all
// its threads. `tujit run --json` reports them ("process") and `tujit bench` its peak RSS, so
// memory and time claims are measured on the process that did the work (docs/cli.md §6, §8).
#pragma once

namespace tujit::runtime {

/// The process's peak resident set so far, MiB.
double peak_rss_mib();

/// User + system CPU time of every thread of the process so far, milliseconds.
double process_cpu_ms();

} // namespace tujit::runtime

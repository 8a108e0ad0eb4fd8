#include "harness/cycles/dma_model.h"

#include "harness/cycles/cycle_model.h"
#include "ir/target/rngd.h"

#include <algorithm>
#include <vector>

namespace tujit::cycles {
namespace {

const target::TensorUnitDescription& tu = target::kRngd;

constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? 0 : (a + b - 1) / b;
}

std::uint64_t runs_of(const ir::verify::DmaDerived& d) {
  return ceil_div(d.elements, std::max<std::uint64_t>(1, d.run_elements));
}

/// Request slots of `requests` requests, `partial` of them partial HBM writes, and `unaligned`
/// second transfers of reads that cross a 256-byte HBM block.
std::uint64_t slots(std::uint64_t requests, std::uint64_t partial, std::uint64_t unaligned) {
  return requests + partial * (tu.hbm_partial_write_penalty - 1) + unaligned;
}

void finish(DmaCycles& c) {
  const std::uint64_t m = std::max({c.request_cycles, c.dm_cycles, c.hbm_cycles});
  c.bound = m == c.request_cycles ? "requests"
            : m == c.dm_cycles    ? "DM bandwidth"
                                  : "HBM bandwidth";
  c.total = c.startup + m;
}

} // namespace

DmaCycles dma_analytic(const ir::verify::DmaDerived& d) {
  DmaCycles c;
  c.startup = tu.dma_startup_cycles;
  c.requests = slots(d.requests, d.partial_hbm_writes, d.unaligned_hbm_reads);
  c.request_cycles = ceil_div(c.requests, d.engines);
  c.dm_cycles = ceil_div(d.bytes, d.dmns * tu.dmn_bytes_per_cycle);
  // Every route tujit runs has an HBM side (docs/dma.md §1).
  c.hbm_cycles = ceil_div(d.bytes, tu.hbm_bytes_per_cycle);
  c.steps = runs_of(d);
  finish(c);
  return c;
}

DmaCycles dma_trace(const ir::verify::DmaDerived& d) {
  const std::uint64_t runs = runs_of(d);
  if (runs > kTraceStepLimit) {
    DmaCycles c = dma_analytic(d);
    c.closed_form = true;
    return c;
  }
  DmaCycles c;
  c.startup = tu.dma_startup_cycles;
  c.steps = runs;
  const std::uint64_t per_run = ceil_div(d.run_bytes, tu.dma_request_bytes);
  const bool partial = d.partial_hbm_writes > 0; // the last request of every run into HBM
  const std::uint64_t dmns = std::max<std::uint64_t>(1, d.dmns);
  std::vector<std::uint64_t> engine_slots(d.engines, 0), dmn_bytes(dmns, 0);
  const bool from_hbm =
      d.route == ir::verify::DmaRoute::HbmToDm || d.route == ir::verify::DmaRoute::HbmToHbm;
  std::uint64_t unaligned = 0;
  for (std::uint64_t r = 0; r < runs; ++r) {
    const std::uint64_t dmn = r * dmns / runs; // consecutive blocks of runs per DMN
    const std::uint64_t engine = (dmn / tu.dmns_per_dma_engine) % d.engines;
    // Run r read from HBM at r · run_bytes (docs/cycle-model.md §10).
    const std::uint64_t second =
        from_hbm
            ? ir::verify::unaligned_run_reads(r * d.run_bytes % tu.dma_request_bytes, d.run_bytes)
            : 0;
    unaligned += second;
    engine_slots[engine] += slots(per_run, partial ? 1 : 0, second);
    dmn_bytes[dmn] += d.run_bytes;
  }
  c.requests = slots(d.requests, d.partial_hbm_writes, unaligned);
  c.request_cycles = *std::max_element(engine_slots.begin(), engine_slots.end());
  c.dm_cycles = d.dmns == 0 ? 0
                            : ceil_div(*std::max_element(dmn_bytes.begin(), dmn_bytes.end()),
                                       tu.dmn_bytes_per_cycle);
  c.hbm_cycles = ceil_div(d.bytes, tu.hbm_bytes_per_cycle);
  finish(c);
  return c;
}

} // namespace tujit::cycles

#include "harness/tune/ranked_kernel.h"

#include "harness/cycles/cycle_model.h"
#include "harness/run/run_footprint.h"
#include "ir/lang/kernel.h"
#include "ir/seq/lower_contraction.h"
#include "ir/verify/kernel_checker.h"

#include <fmt/format.h>

namespace tujit::tune {

namespace {

Diagnostic round_trip_error(std::string message, std::vector<std::string> notes = {}) {
  Diagnostic d =
      make_error("E-TUNE-011", "internal: " + std::move(message), std::nullopt, std::move(notes));
  d.stage = "tune";
  return d;
}

std::string header(const Problem& p, const Ranked& r, std::uint64_t space) {
  const Score& s = r.score;
  return fmt::format(
      "tujit tune --einsum \"{}\" --sizes \"{}\" --dtype {}\n"
      "candidate {} of {}: {} cycles per slice (analytic model) on {} live slices, MAC "
      "utilisation {:.1f} %, bottleneck {};\n"
      "PackSize {}, ReadSize {} ({}), time broadcast {}, InnerTime {}, LaneMode {}.\n"
      "The stream (first operand) is a CollectTensor, the TRF operand (second) a TrfTensor.",
      p.einsum, p.sizes_text(), p.dtype_text(), r.choice.index, space, s.cycles, s.live_slices,
      100.0 * s.mac_utilization, cycles::stage_name(s.bottleneck), s.pack_size, s.read_size,
      s.wide_read ? "wide" : "narrow", s.time_broadcast, s.inner_time,
      r.choice.mode == ir::LaneMode::Interleaved ? "Interleaved" : "Sequential");
}

} // namespace

bool entry_before(const Entry& a, const Entry& b) {
  if (a.cycles != b.cycles) return a.cycles < b.cycles;
  if (a.live_slices != b.live_slices) return a.live_slices < b.live_slices;
  if (a.trf_bytes != b.trf_bytes) return a.trf_bytes < b.trf_bytes;
  return a.index < b.index;
}

Result<Entry> ranked_entry(const Problem& p, const Ranked& r, std::uint64_t space,
                           std::uint64_t max_bytes) {
  auto chain = build_chain(p, r.choice);
  if (!chain) return chain.diagnostics();
  const ir::seq::ChainMappings& m = *chain;
  Entry e;
  e.index = r.choice.index;
  e.cycles = r.score.cycles;
  e.mac_utilization = r.score.mac_utilization;
  e.bottleneck = std::string(cycles::stage_name(r.score.bottleneck));
  e.live_slices = r.score.live_slices;
  e.trf_bytes = r.score.trf_bytes;
  e.trf_misses = r.score.trf_misses;
  e.lanes = r.score.lanes;
  e.pack_size = r.score.pack_size;
  e.time_broadcast = r.score.time_broadcast;
  e.read_size = r.score.read_size;
  e.read_width = r.score.wide_read ? "wide" : "narrow";
  e.inner_time = r.score.inner_time;
  e.slot_capacity = r.score.slot_capacity;
  e.lane_mode = r.choice.mode == ir::LaneMode::Interleaved ? "Interleaved" : "Sequential";
  for (const auto& [name, slot] : kChainSlots) e.mappings[name] = (m.*slot).to_string();
  e.mapping = mapping_summary(m);
  e.spec = kernel_text(p, m, r.choice.mode, header(p, r, space));

  // The text is the kernel: front end, kernel checker, lowering and both cycle models on it.
  const std::string file = kernel_name(p) + ".rs";
  ir::SpecAnalysis a = ir::analyze(SourceBuffer(file, e.spec));
  if (has_errors(a.diagnostics) || a.file.kernels.size() != 1)
    return round_trip_error(
        fmt::format("the emitted spec of candidate {} does not read back", e.index),
        {a.diagnostics.empty() ? "no kernel" : render(a.diagnostics.front(), &a.file.source)});
  const ir::Kernel& k = a.file.kernels.front();
  const auto check = ir::verify::check_kernel(a.file, k);
  if (!check.ok())
    return round_trip_error(
        fmt::format("the emitted spec of candidate {} fails `tujit check`", e.index),
        {render(check.all_diagnostics().front(), &a.file.source)});
  const ir::verify::CheckedKernel checked(k, check);
  if (auto d = run::kernel_size_error(a.file, checked, max_bytes)) {
    d->notes.push_back(fmt::format("the kernel of candidate {}, which the search ranked; "
                                   "`tujit run` would refuse it too",
                                   e.index));
    return *d;
  }
  auto program = ir::seq::lower_contraction(checked);
  if (!program)
    return round_trip_error(fmt::format("the emitted spec of candidate {} does not lower", e.index),
                            {render(program.diagnostics().front(), &a.file.source)});
  const cycles::CycleOptions options = cycles::cycle_options_for(checked);
  const cycles::AnalyticCycles analytic = cycles::analytic_cycles(*program, options);
  if (analytic.total != e.cycles)
    return round_trip_error(
        fmt::format("candidate {}: the search modelled {} cycles, its emitted spec {}", e.index,
                    e.cycles, analytic.total));
  e.trace_cycles = cycles::trace_cycles(*program, options).total;
  return e;
}

} // namespace tujit::tune

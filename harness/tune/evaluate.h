// One candidate of `tujit tune` judged and scored (docs/tune.md §3): its chain is built from the
// choice (candidate.h), checked by the verifiers `tujit check` runs on such a kernel (the
// parameters' hardware limits, then contract_outer, contract_packet, contract_time,
// contract_lane), and, when it could still make the ranking, lowered to the Sequencer IR and timed
// by the analytic cycle model (harness/cycles/). No text is parsed on this path.
#pragma once

#include "harness/cycles/cycle_model.h"
#include "harness/tune/candidate.h"
#include "harness/tune/problem.h"
#include "ir/seq/contraction_program.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace tujit::tune {

enum class Verdict : std::uint8_t {
  Valid,    // every verifier accepts it
  Refused,  // a verifier refused it (`code`)
  NotEinsum // legal or not, its chain would not compute the einsum (E-TUNE-010)
};

/// What the analytic model and the verifiers say of a valid candidate.
struct Score {
  std::uint64_t cycles = 0;
  std::uint64_t live_slices = 0;
  std::uint64_t trf_misses = 0; // the analytic model's TRF read-cache estimate
  double mac_utilization = 0;   // present products / (cycles × 8 lanes × 64 B of multipliers)
  cycles::Stage bottleneck = cycles::Stage::ContractOuter;
  std::uint64_t trf_bytes = 0; // one slice's TRF tensor: |Lane|·|Element| elements
  std::uint64_t lanes = 1, pack_size = 1, time_broadcast = 1, read_size = 1;
  bool wide_read = false;
  std::uint64_t inner_time = 1, slot_capacity = 1;
  std::uint64_t stream_flits = 0, packet_cycles = 0, output_flits = 0;
};

struct Evaluation {
  Verdict verdict = Verdict::Refused;
  std::string code;        // the refusing rule (Refused / NotEinsum)
  std::uint64_t bound = 0; // max(|Time|, |OutTime|, |T3|) + tree latency: a lower bound of
                           // the analytic total (docs/tune.md §3)
  bool modelled = false;   // false: valid, but `worth_modelling` declined
  Score score;             // verifier facts always (when valid); cycles only when modelled
};

/// Cycle-model lower bound test: true when a valid candidate (what the verifiers told of it, its
/// enumeration index) whose cycles are at least `bound` could still enter the ranking or the
/// Pareto front (docs/tune.md §3.2).
using WorthModelling =
    std::function<bool(const Score& known, std::uint64_t bound, std::uint64_t index)>;

/// The largest per-slice program the tuner lowers (packet cycles or output cells): beyond it a
/// valid candidate is counted but not timed.
inline constexpr std::uint64_t kMaxModelledCycles = std::uint64_t{1} << 24;

/// Evaluates choices in enumeration order. The choices of one group share the core of their
/// chain (same pieces, Time order and PackSize) and, per row order, the TRF Element: what the
/// verifiers say of those parts is computed once per group and reused (the verifiers are pure
/// functions of their mappings), and the verdict is still the first rule broken in the order
/// `tujit check` reports: the parameters' hardware limits, contract_outer (Stream Adapter, TRF
/// Sequencer), contract_packet, contract_time, contract_lane.
class Evaluator {
public:
  explicit Evaluator(const Problem& p);
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;
  Evaluation evaluate(const Choice& c, const WorthModelling& worth);

private:
  struct Cache;
  const Problem& p_;
  std::unique_ptr<Cache> cache_;
};

/// One choice on its own (no reuse).
Evaluation evaluate(const Problem& p, const Choice& c, const WorthModelling& worth);

/// The chain lowered and timed (also for ranked candidates rebuilt after the search): the program
/// and the analytic model of a kernel with CollectTensor and TrfTensor parameters (no fetch, no
/// TRF store, no cast: default cycle options).
struct Modelled {
  ir::seq::ContractionProgram program;
  cycles::AnalyticCycles analytic;
};
Result<Modelled> model_chain(const Problem& p, const ir::seq::ChainMappings& m, ir::LaneMode mode);

} // namespace tujit::tune

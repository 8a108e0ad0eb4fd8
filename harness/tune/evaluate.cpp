#include "harness/tune/evaluate.h"

#include "ir/seq/lower_contraction.h"
#include "ir/target/rngd.h"
#include "ir/verify/contract_lane.h"
#include "ir/verify/contract_packet.h"
#include "ir/verify/contract_time.h"
#include "ir/verify/hardware_limits.h"
#include "ir/verify/stream_adapter.h"
#include "ir/verify/trf_sequencer.h"

#include <algorithm>
#include <array>
#include <optional>

namespace tujit::tune {

namespace {

namespace v = ir::verify;

template <class T>
std::string code_of(const Result<T>& r) {
  return r ? std::string() : r.diagnostics().front().code;
}
std::string code_of(const std::optional<Diagnostic>& d) {
  return d ? d->code : std::string();
}

} // namespace

// What the verifiers said of the shared parts: one entry per rule group, the empty string when it
// passed. A group's core is built once, with the verdicts that read neither the Element nor the
// LaneMode (the parameters, the Stream Adapter, the Packet and Time Reducers); the TRF
// Sequencer's once per row order; the Lane Folder's once per LaneMode.
struct Evaluator::Cache {
  explicit Cache(const Problem& problem) : p(problem) {}
  const Problem& p;
  std::optional<Choice> core_key, element_key;
  std::optional<ChainCore> core;
  std::string core_code; // E-TUNE-010 / E-TUNE-011 from building the core
  std::string spatial, flit, capacity, adapter, packet, time;
  std::uint64_t pack_size = 1, time_broadcast = 1, tree_latency = 0;
  ir::Mapping element;
  std::string sequencer;
  std::uint64_t read_size = 1;
  bool wide = false;
  struct Folded {
    ir::Mapping t3, p3;
    std::string code;
    std::uint64_t inner_time = 1, slot_capacity = 1;
  };
  std::array<std::optional<Folded>, 2> folded; // Interleaved, Sequential

  void load_core(const Choice& c) {
    if (core_key && same_core(*core_key, c)) return;
    core_key = c;
    element_key.reset();
    core.reset();
    folded = {};
    auto built = build_core(p, c);
    core_code = code_of(built);
    if (!built) return;
    const ir::seq::ChainMappings& m = built->m;
    // The kernel's parameters (docs/contraction.md §1, §3, §4.2): the units, the stream's flit, the
    // TRF's capacity (its size is the same for every row order).
    spatial = code_of(v::check_spatial({m.chip, m.cluster, m.slice}));
    flit = code_of(v::check_packet_one_flit(p.stream_type, m.packet));
    capacity = code_of(v::check_trf_capacity(p.trf_type, m.lane, element_of(*built, c)));
    // contract_outer's Stream Adapter, contract_packet, contract_time (docs/contraction.md §5.1,
    // §6, §7).
    auto sa = v::verify_stream_adapter(
        {p.stream_type, m.lane, m.time, m.packet, m.out_time, m.out_packet});
    adapter = code_of(sa);
    if (sa) {
      pack_size = sa->pack_size;
      time_broadcast = sa->time_broadcast_size;
    }
    auto reducer = v::verify_contract_packet({p.stream_type, m.out_packet, m.p2});
    packet = code_of(reducer);
    if (reducer) tree_latency = reducer->tree_latency;
    time = code_of(v::verify_contract_time({m.out_time, m.t2}));
    core = std::move(*built);
  }

  void load_element(const Choice& c) {
    if (element_key && same_element(*element_key, c)) return;
    element_key = c;
    element = element_of(*core, c);
    const ir::seq::ChainMappings& m = core->m;
    // The TRF Sequencer (docs/contraction.md §5.2). Its last rule, S7 (both operands on the same
    // units), holds by construction: the kernel gives both parameters the same Chip, Cluster and
    // Slice.
    auto seq = v::verify_trf_sequencer(
        {p.trf_type, m.lane, element, m.out_time, m.out_packet, std::nullopt, std::nullopt});
    sequencer = code_of(seq);
    if (seq) {
      read_size = seq->read_size;
      wide = seq->wide;
    }
  }

  const Folded& load_fold(ir::LaneMode mode) {
    auto& f = folded[mode == ir::LaneMode::Interleaved ? 0 : 1];
    if (f) return *f;
    ir::seq::ChainMappings m = core->m;
    fold_lanes(*core, mode, m);
    auto lane = v::verify_contract_lane({mode, m.lane, m.t2, m.p2, m.t3, m.p3, m.out_time});
    f = Folded{m.t3, m.p3, code_of(lane), lane ? lane->inner_time : 1,
               lane ? lane->slot_capacity : 1};
    return *f;
  }
};

Evaluator::Evaluator(const Problem& p) : p_(p), cache_(std::make_unique<Cache>(p)) {}
Evaluator::~Evaluator() = default;

Result<Modelled> model_chain(const Problem& p, const ir::seq::ChainMappings& m, ir::LaneMode mode) {
  auto program = ir::seq::lower_contraction(m, p.stream_type, p.trf_type, mode);
  if (!program) return program.diagnostics();
  Modelled out;
  out.analytic = cycles::analytic_cycles(*program, cycles::CycleOptions{});
  out.program = std::move(*program);
  return out;
}

Evaluation Evaluator::evaluate(const Choice& c, const WorthModelling& worth) {
  Cache& k = *cache_;
  Evaluation e;
  k.load_core(c);
  if (!k.core_code.empty()) {
    e.verdict = k.core_code == "E-TUNE-010" ? Verdict::NotEinsum : Verdict::Refused;
    e.code = k.core_code;
    return e;
  }
  // The first rule broken, in the kernel checker's order (the operand pair was checked with the
  // problem): the parameters, contract_outer (Stream Adapter, then TRF Sequencer),
  // contract_packet, contract_time, contract_lane.
  const auto first_broken = [&](std::initializer_list<const std::string*> codes) {
    for (const std::string* code : codes)
      if (!code->empty()) {
        e.code = *code;
        return true;
      }
    return false;
  };
  if (first_broken({&k.spatial, &k.flit, &k.capacity, &k.adapter})) return e;
  k.load_element(c);
  if (first_broken({&k.sequencer, &k.packet, &k.time})) return e;
  const Cache::Folded& folded = k.load_fold(c.mode);
  if (first_broken({&folded.code})) return e;
  ir::seq::ChainMappings m = k.core->m;
  m.element = k.element;
  m.t3 = folded.t3;
  m.p3 = folded.p3;

  e.verdict = Verdict::Valid;
  Score& s = e.score;
  s.live_slices = live_slices(p_, c);
  s.lanes = m.lane.size();
  s.trf_bytes =
      m.lane.size() * m.element.size() * ir::wire_bits(p_.trf_type) / target::kRngd.bits_per_byte;
  s.pack_size = k.pack_size;
  s.time_broadcast = k.time_broadcast;
  s.read_size = k.read_size;
  s.wide_read = k.wide;
  s.inner_time = folded.inner_time;
  s.slot_capacity = folded.slot_capacity;
  s.stream_flits = m.time.size();
  s.packet_cycles = m.out_time.size();
  s.output_flits = m.t3.size();
  // No chain takes fewer cycles than any stage's steady-state work (the stream's flits; the packet
  // cycles after the first packet's PackSize flits; the output flits: one per cycle each) plus the
  // Packet Reducer's latency and the cycle from the last accumulation to its slot's output
  // (docs/cycle-model.md §2.1, §2.2).
  e.bound = std::max({s.stream_flits, s.packet_cycles + k.pack_size - 1, s.output_flits}) +
            k.tree_latency + 1;
  if (s.packet_cycles > kMaxModelledCycles ||
      s.output_flits * target::kRngd.output_bus_elements > kMaxModelledCycles ||
      !worth(s, e.bound, c.index))
    return e;
  auto modelled = model_chain(p_, m, c.mode);
  // Every verifier accepted the chain, so lowering refusing it is a bug in tujit.
  if (!modelled) {
    e.verdict = Verdict::Refused;
    e.code = "E-TUNE-011";
    return e;
  }
  const cycles::AnalyticCycles& a = modelled->analytic;
  e.modelled = true;
  s.cycles = a.total;
  s.trf_misses = a.trf_misses;
  s.mac_utilization = a.mac_utilization_overall;
  s.bottleneck = a.bottleneck;
  return e;
}

Evaluation evaluate(const Problem& p, const Choice& c, const WorthModelling& worth) {
  Evaluator one(p);
  return one.evaluate(c, worth);
}

} // namespace tujit::tune

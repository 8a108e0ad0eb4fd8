// Cycles of every kernel form (docs/cycle-model.md §7–§9): data-path commands (fetch + collect,
// TRF / VRF stores, the StoTRF / StoVRF short command), parts of a contraction chain, and whole
// multi-statement kernels; the analytic model and the trace agree on every kernel of specs/.
#include "harness/cycles/kernel_cycles.h"
#include "tests/support/checked.h"
#include "tests/support/spec_corpus.h"
#include "tests/unit/cycles_test_support.h"

#include <chrono>
#include <map>
#include <set>

using namespace tujit;
using namespace tujit::cycles_test;
using cycles::CommandKind;
using cycles::Stage;

namespace {

// A Begin parameter of `dtype` over `buf`, fetched as `time` / `packet` and collected as
// `time2` / `packet2` (the kernel's result).
std::string collect_kernel(const std::string& axes, const std::string& dtype,
                           const std::string& buf, const std::string& time,
                           const std::string& packet, const std::string& time2,
                           const std::string& packet2) {
  return fmt::format(
      R"(axes![{axes}];
fn kern<'l, const T: Tu>(
    input: BeginTensor<'l, T, {d}, m![1], m![1 # 2], m![1 # 256], m![1], m![{buf}]>,
) -> CollectTensor<'l, T, {d}, m![1], m![1 # 2], m![1 # 256], m![{t2}], m![{p2}]> {{
    input.fetch::<m![{t}], m![{p}]>().collect::<m![{t2}], m![{p2}]>()
}}
)",
      fmt::arg("axes", axes), fmt::arg("d", dtype), fmt::arg("buf", buf), fmt::arg("t", time),
      fmt::arg("p", packet), fmt::arg("t2", time2), fmt::arg("p2", packet2));
}

std::uint64_t busy(const cycles::DataPathCycles& d, Stage s) {
  return d.stages[static_cast<std::size_t>(s)].busy;
}

std::string form_of(const cycles::CommandCycles& c) {
  if (c.kind != CommandKind::DataPath) return std::string(cycles::command_kind_name(c.kind));
  if (c.path->short_command()) return *c.path->fetch->short_command;
  return std::string(cycles::stage_name(c.path->sink));
}

// The book's MemTensor sequencer examples (docs/datapath.md §4.2), timed by
// docs/cycle-model.md §7.3, worked by hand there: tiling_read reads 2·4·4·128 = 4096 packets of
// `C # 32` i8, each 32 consecutive bytes of the buffer (the padded positions over-read) in one
// 32 B read per cycle; read_splitting the same with B = 8: 2·4·4·2 = 64 packets; tiling_write
// writes each of its 4096 packets' 3 live bytes (consecutive addresses) in one write per cycle.
const std::map<std::string, std::uint64_t> kMemTensorCycles = {
    {"tiling_read", 4096}, {"read_splitting", 64}, {"tiling_write", 4096}};

} // namespace

TEST_CASE("every kernel of specs/ is timed, analytic and trace within 2% per command", "[cycles]") {
  struct Tally {
    std::size_t commands = 0, exact = 0;
    double max_dev = 0;
  };
  std::map<std::string, Tally> forms;
  std::size_t kernels = 0, multi = 0, mem_kernels = 0;
  double kernel_max = 0;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file);
    for (const auto& k : file->kernels) {
      INFO(path.filename().string() << " " << k.name);
      auto kc = cycles::kernel_cycles(testing::checked(k));
      if (!kc)
        for (const auto& d : kc.diagnostics()) UNSCOPED_INFO(d.code << ": " << d.message);
      REQUIRE(kc);
      ++kernels;
      multi += kc->commands.size() > 1 ? 1 : 0;
      for (const auto& c : kc->commands) {
        INFO(c.what << ": analytic " << c.analytic << ", trace " << c.trace);
        CHECK(!c.trace_closed_form); // the corpus is small enough to walk
        CHECK(c.trace_complete());
        const double dev = cycles::relative_deviation(c.analytic, c.trace);
        CHECK(dev <= 0.02);
        Tally& t = forms[form_of(c)];
        ++t.commands;
        t.exact += c.analytic == c.trace ? 1 : 0;
        t.max_dev = std::max(t.max_dev, dev);
      }
      if (const auto it = kMemTensorCycles.find(k.name); it != kMemTensorCycles.end()) {
        REQUIRE(kc->commands.size() == 1);
        CHECK(kc->commands[0].analytic == it->second);
        CHECK(kc->commands[0].trace == it->second);
        ++mem_kernels;
      }
      const double dev = cycles::relative_deviation(kc->analytic_total, kc->trace_total);
      CHECK(dev <= 0.02);
      CHECK(cycles::relative_deviation(kc->analytic_period, kc->trace_period) <= 0.02);
      kernel_max = std::max(kernel_max, dev);
    }
  }
  for (const auto& [form, t] : forms)
    UNSCOPED_INFO(form << ": " << t.commands << " commands, " << t.exact << " exact, max "
                       << 100.0 * t.max_dev << "%");
  INFO(kernels << " kernels (" << multi << " with several commands), max kernel deviation "
               << 100.0 * kernel_max << "%");
  CHECK(mem_kernels == kMemTensorCycles.size());
  CHECK(kernels >= 54);
  CHECK(multi >= 20);
  // Every form the corpus holds (no spec kernel returns a collected stream: the next test times
  // that form on the book's fetch examples).
  for (const char* form :
       {"contraction", "chain part", "trf_store", "vrf_store", "StoTRF", "StoVRF", "commit"})
    CHECK(forms[form].commands > 0);
}

TEST_CASE("the fetch engine's read size sets a collect command's cycles", "[cycles]") {
  // furiosa-opt docs/src/moving-tensors/fetch-engine.md "Packet padding": the same 30-byte f8e4m3
  // tensor in 15, 3 and 1 reads of 8, 16 and 32 B; each padded packet is one flit. The DM tensor is
  // padded to 64 elements so the padded packets over-read inside it (tujit refuses a read past the
  // buffer, E-FETCH-016).
  const std::string axes = "A = 3, B = 5, C = 2";
  for (const auto& [t, p, t2, p2, cycles_expected] :
       std::vector<std::tuple<std::string, std::string, std::string, std::string, int>>{
           {"A, B", "C # 8", "A, B", "C # 32", 15},
           {"A", "[B, C] # 16", "A", "[B, C] # 32", 3},
           {"1", "[A, B, C] # 32", "1", "[A, B, C] # 32", 1}}) {
    const auto k = time_text(collect_kernel(axes, "f8e4m3", "[A, B, C] # 64", t, p, t2, p2));
    const auto& c = k.commands.front();
    INFO(p);
    CHECK(c.kind == CommandKind::DataPath);
    CHECK(c.analytic == static_cast<std::uint64_t>(cycles_expected));
    CHECK(c.trace == static_cast<std::uint64_t>(cycles_expected));
    CHECK(c.path_trace->reads == static_cast<std::uint64_t>(cycles_expected));
  }
  // "a 24-byte packet in the main-context forces read_size = 8 and 3 reads per packet": 4 packets,
  // one flit each, 12 reads.
  const auto k = time_text(collect_kernel("A = 4, B = 24", "i8", "A, B", "A", "B", "A", "B # 32"));
  CHECK(k.commands.front().path->fetch->reads_per_packet == 3);
  CHECK(k.commands.front().analytic == 12);
  CHECK(k.commands.front().trace == 12);
  CHECK(busy(*k.commands.front().path_trace, Stage::Fetch) == 12);
}

TEST_CASE("a TRF store lands in one half when it fits, one flit per cycle per lane's rows",
          "[cycles]") {
  // specs/store_bmatmul_trf.rs: Lane N = 8, Element K = 32 bf16: 2 flits per lane, one 64 B row
  // (bank 0 then bank 1); 512 B fits half the 64 KiB file; 16 flits, one per cycle.
  auto file = ir::load_spec(spec_path("specs/store_bmatmul_trf.rs"));
  REQUIRE(file);
  auto k = cycles::kernel_cycles(testing::checked(file->kernels.front()));
  REQUIRE(k);
  const auto& c = k->commands.front();
  CHECK(c.analytic == 16);
  CHECK(c.trace == 16);
  for (const auto* d : {&*c.path_analytic, &*c.path_trace}) {
    REQUIRE(d->trf);
    CHECK(d->trf->region == "FirstHalf");
    CHECK(d->trf->rows_per_lane == 1);
    CHECK(d->trf->row_capacity == 64); // 128 rows per bank at 8 lanes, half of them
    CHECK(d->trf->bank_flits[0] == 8);
    CHECK(d->trf->bank_flits[1] == 8);
  }
}

TEST_CASE("the StoTRF short command sets up in fewer cycles than the full path", "[cycles]") {
  // furiosa-opt docs/src/computing-tensors/register-files.md: the short command "trades
  // arbitrary-layout support for lower setup overhead". specs/derived/valid_unit_time_lane.rs
  // copies one contiguous 32 B run (StoTRF); gemm_kernel's store reorders J, so it takes fetch →
  // collect → to_trf.
  auto short_file = ir::load_spec(spec_path("specs/derived/valid_unit_time_lane.rs"));
  auto full_file = ir::load_spec(spec_path("specs/derived/gemm_kernel.rs"));
  REQUIRE(short_file);
  REQUIRE(full_file);
  auto s = cycles::kernel_cycles(testing::checked(short_file->kernels.front()));
  auto f = cycles::kernel_cycles(testing::checked(full_file->kernels.front()));
  REQUIRE(s);
  REQUIRE(f);
  REQUIRE(s->commands.front().path->short_command());
  REQUIRE(!f->commands.front().path->short_command());
  CHECK(s->commands.front().setup < f->commands.front().setup);
  // The short command bypasses Collect: no collect stage is busy.
  CHECK(busy(*s->commands.front().path_trace, Stage::Collect) == 0);
  CHECK(busy(*f->commands.front().path_trace, Stage::Collect) == 128);
}

TEST_CASE("a part of a chain is timed over the stages it runs", "[cycles]") {
  // specs/trf_sequencer_partial_read.rs, contract_outer alone: |Time| = O·M·L = 128 flits one per
  // cycle, |OT| = O·M = 64 packets of PackSize 2: the last issues in cycle 127.
  auto file = ir::load_spec(spec_path("specs/trf_sequencer_partial_read.rs"));
  REQUIRE(file);
  auto k = cycles::kernel_cycles(testing::checked(file->kernels.front()));
  REQUIRE(k);
  const auto& c = k->commands.front();
  CHECK(c.kind == CommandKind::ChainPart);
  CHECK(c.analytic == 128);
  CHECK(c.trace == 128);
  CHECK(stage(c.chain->trace, Stage::ContractOuter).busy == 64);
  CHECK(stage(c.chain->trace, Stage::ContractPacket).busy == 0); // not in the part
  CHECK(stage(c.chain->trace, Stage::ContractLane).busy == 0);
}

TEST_CASE("the two contexts overlap only where nothing is read before it is written", "[cycles]") {
  // specs/derived/weighted_sum.rs: the sub context stores v into the TRF, the main context's chain
  // reads it: one pass runs them one after the other; repeated, the store of the next v overlaps
  // the chain (double buffering), so a pass takes the longer of the two contexts.
  auto file = ir::load_spec(spec_path("specs/derived/weighted_sum.rs"));
  REQUIRE(file);
  auto k = cycles::kernel_cycles(testing::checked(file->kernels.front()));
  REQUIRE(k);
  REQUIRE(k->commands.size() == 2);
  const auto& store = k->commands[0];
  const auto& chain = k->commands[1];
  CHECK(store.context == ir::ContextKind::Sub);
  CHECK(chain.context == ir::ContextKind::Main);
  CHECK(chain.after == std::vector<std::size_t>{0});
  CHECK(chain.analytic_slot.start == store.analytic_slot.end);
  CHECK(k->analytic_total == store.setup + store.analytic + chain.setup + chain.analytic);
  REQUIRE(k->double_buffered);
  CHECK(k->analytic_period ==
        std::max(chain.setup + chain.analytic, store.setup + chain.chain->analytic.store_cycles));
  CHECK(k->analytic_period < k->analytic_total);
}

TEST_CASE("a walk longer than the trace's bound reports the closed form", "[cycles]") {
  // 2^25 one-byte elements fetched 32 per packet: 2^25 positions to walk, past kTraceStepLimit.
  const auto t0 = std::chrono::steady_clock::now();
  const auto k = time_text(collect_kernel("A = 32768, B = 1024", "i8", "A, B", "A, B / 32",
                                          "B % 32", "A, B / 32", "B % 32"));
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const auto& c = k.commands.front();
  CHECK(c.trace_closed_form);
  CHECK(c.trace_steps > cycles::kTraceStepLimit);
  CHECK(c.trace == c.analytic);
  CHECK(c.analytic == (std::uint64_t{1} << 20)); // one 32 B read and one flit per packet
  CHECK(ms < 2000);
  // The chain trace too: bmatmul_m_in_time with its M loop stretched 2^20 times.
  auto l = lower_spec_file("specs/bmatmul_m_in_time.rs");
  auto& outer = l.program.cycle_nest.front();
  const std::uint64_t grow = std::uint64_t{1} << 20;
  outer.size *= grow;
  l.program.cycles *= grow;
  l.program.time *= grow;
  l.program.t2 *= grow;
  l.program.t3 *= grow;
  const auto t = cycles::trace_cycles(l.program, l.options);
  CHECK(t.closed_form);
  CHECK(t.total == cycles::analytic_cycles(l.program, l.options).total);
}

TEST_CASE("a MemTensor write takes one write per contiguous run of a packet", "[cycles]") {
  // docs/cycle-model.md §7.3 on an i8 buffer [A, B] (A = 8, B = 64: row stride 64) written from
  // 16 packets of 32 elements, Time [B / 4]. Worked by hand: Packet [A, B % 4] puts 4 consecutive
  // bytes per A row: 8 runs of 4, valid 32, gcd(32, 4) = 4, so 8 writes per packet, 128 in all;
  // Packet [B % 4, A] steps 64 bytes between neighbours: 32 writes of one byte, 512 in all;
  // Packet [A, B % 4] # 64 drops its 32 padded positions: the same 128 writes as the first.
  const std::string axes = "A = 8, B = 64";
  for (const auto& [packet, writes] : std::vector<std::pair<std::string, std::uint64_t>>{
           {"A, B % 4", 128}, {"B % 4, A", 512}, {"[A, B % 4] # 64", 128}}) {
    INFO(packet);
    const auto k = time_text(fmt::format(R"(
use furiosa_opt_std::pseudo::{{MemTensor, StreamTensor}};
axes![{0}];
fn w(buf: &mut MemTensor<i8, m![A, B]>, stream: StreamTensor<i8, m![B / 4], m![{1}]>) {{
    buf.write(stream)
}}
)",
                                         axes, packet));
    REQUIRE(k.commands.size() == 1);
    const auto& c = k.commands.front();
    CHECK(c.path->sink == Stage::Commit);
    CHECK(c.analytic == writes);
    CHECK(c.trace == writes);
    CHECK(c.path_trace->writes == writes);
  }
}

// The whole-kernel schedule (docs/cycle-model.md §14): list scheduling on a graph worked by hand,
// the placement of TRF operands and the write-after-read wait it adds when they outgrow the file,
// the sub context a main-context to_vrf holds, and the Chrome trace (docs/cli.md §7).
#include "harness/cli/command.h"
#include "harness/cycles/occupancy_svg.h"
#include "harness/cycles/schedule.h"
#include "harness/cycles/schedule_report.h"
#include "ir/target/rngd.h"
#include "tests/support/cli_capture.h"
#include "tests/unit/cycles_test_support.h"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace tujit;
using namespace tujit::cycles;
namespace fs = std::filesystem;

namespace {

const Dependency* wait_on(const ScheduleNode& n, std::size_t command, WaitKind why) {
  for (const Dependency& d : n.after)
    if (d.command == command && d.why == why) return &d;
  return nullptr;
}

std::size_t command_named(const KernelCycles& k, const std::string& prefix) {
  for (std::size_t i = 0; i < k.commands.size(); ++i)
    if (k.commands[i].what.rfind(prefix, 0) == 0) return i;
  FAIL("no command starts with " << prefix);
  return 0;
}

const MemoryValue& value_named(const KernelCycles& k, const std::string& name) {
  for (const MemoryValue& v : k.graph.values)
    if (v.name == name) return v;
  FAIL("no value " << name);
  return k.graph.values.front();
}

// The store of TRF operand `trf` from the DM tensor `src` on the sub context: 8 lanes × (J/8 · K)
// bf16 = 64·K bytes per slice.
std::string trf_store(const char* trf, const char* src) {
  return fmt::format(
      R"(    let {0}: TrfTensor<bf16, Chip, Cluster, Slice, m![J % 8], m![J / 8, K]> = ctx
        .sub
        .begin({1}.view())
        .fetch::<m![J % 8, J / 8], m![K]>()
        .collect::<m![J % 8, J / 8, K / 16], m![K % 16]>()
        .to_trf();
)",
      trf, src);
}

// a · trfᵀ on the main context, committed to DM as `out`.
std::string gemm(const char* out, const char* trf) {
  return fmt::format(R"(    let {0}: DmTensor<bf16, Chip, Cluster, Slice, m![I % 32, J]> = ctx
        .main
        .begin(a.view())
        .fetch::<m![I % 32, J / 8], m![K]>()
        .collect::<m![I % 32, J / 8, K / 16], m![K % 16]>()
        .contract_outer::<m![I % 32, J / 8, K / 32], m![K % 32], _, _, _>(&{1})
        .contract_packet::<m![1]>()
        .contract_time::<m![I % 32, J / 8]>()
        .contract_lane::<m![I % 32, J / 8], m![J % 8]>(LaneMode::Interleaved)
        .cast::<bf16, m![J % 8 # 16]>()
        .commit_trim::<m![J % 8]>()
        .commit();
)",
                     out, trf);
}

// Two bf16 GEMMs of a (I × K) with b and c (J × K) on main, their TRF operands stored by sub; c is
// moved first, so its store is ready as soon as the sub context is.
std::string two_operand_kernel(int k) {
  return fmt::format(R"(use furiosa_opt_std::prelude::*;
axes![I = 8192, J = 32, K = {0}];
pub type Chip = m![1];
pub type Cluster = m![1 # 2];
pub type Slice = m![I / 32];

#[device(chip = 1)]
pub fn two_operands(
    ctx: &mut Context,
    a: &HbmTensor<bf16, Chip, m![I, K]>,
    b: &HbmTensor<bf16, Chip, m![J, K]>,
    c: &HbmTensor<bf16, Chip, m![J, K]>,
) -> HbmTensor<bf16, Chip, m![I, J]> {{
    let c: DmTensor<bf16, Chip, Cluster, Slice, m![J, K]> = c.to_dm(&mut ctx.tdma);
    let a: DmTensor<bf16, Chip, Cluster, Slice, m![I % 32, K]> = a.to_dm(&mut ctx.tdma);
    let b: DmTensor<bf16, Chip, Cluster, Slice, m![J, K]> = b.to_dm(&mut ctx.tdma);
{1}{2}{3}{4}    o.to_hbm(&mut ctx.tdma)
}}
)",
                     k, trf_store("b_trf", "b"), gemm("h", "b_trf"), trf_store("c_trf", "c"),
                     gemm("o", "c_trf"));
}

} // namespace

TEST_CASE("schedule: each command starts when its last constraint ends", "[cycles][schedule]") {
  // 0 main (10 cycles), 1 sub (5), 2 main on the Vector Engine reading 1 (7), 3 sub on the Vector
  // Engine (4). By hand: 0 [0, 10), 1 [0, 5), 2 waits for 0 (its context, 10 > 5) [10, 17), 3
  // waits for the engine 2 holds [17, 21).
  ScheduleGraph g;
  g.nodes.resize(4);
  g.nodes[0].context = Track::Main;
  g.nodes[1].context = Track::Sub;
  g.nodes[2] = {Track::Main,
                {Track::VectorEngine},
                {{1, WaitKind::ReadAfterWrite, "x"}, {0, WaitKind::Context, "main"}}};
  g.nodes[3] = {Track::Sub,
                {Track::VectorEngine},
                {{2, WaitKind::Engine, "Vector Engine"}, {1, WaitKind::Context, "sub"}}};
  const std::uint64_t durations[] = {10, 5, 7, 4};
  const Schedule s = schedule(g, durations);
  CHECK(s.commands[0].start == 0);
  CHECK(s.commands[0].end == 10);
  CHECK_FALSE(s.commands[0].binding);
  CHECK(s.commands[1].end == 5);
  CHECK(s.commands[2].start == 10);
  CHECK(s.commands[2].binding == std::optional<std::size_t>(1)); // the context, not the read
  CHECK(s.commands[3].start == 17);
  CHECK(s.commands[3].binding == std::optional<std::size_t>(0)); // the engine
  CHECK(s.makespan == 21);
  CHECK(s.critical_path == std::vector<std::size_t>{0, 2, 3});
  CHECK(s.busy[static_cast<std::size_t>(Track::Main)] == 17);
  CHECK(s.busy[static_cast<std::size_t>(Track::Sub)] == 9);
  CHECK(s.busy[static_cast<std::size_t>(Track::Tdma)] == 0);
  CHECK(s.busy[static_cast<std::size_t>(Track::VectorEngine)] == 11);
}

TEST_CASE("schedule: on a tie the earlier constraint binds, and none binds at cycle 0",
          "[cycles][schedule]") {
  ScheduleGraph g;
  g.nodes.resize(3);
  g.nodes[1].context = Track::Sub;
  g.nodes[2] = {
      Track::Main, {}, {{1, WaitKind::ReadAfterWrite, "x"}, {0, WaitKind::Context, "main"}}};
  const std::uint64_t durations[] = {6, 6, 1};
  const Schedule s = schedule(g, durations);
  CHECK(s.commands[2].start == 6);
  CHECK(s.commands[2].binding == std::optional<std::size_t>(0));
  CHECK(s.critical_path == std::vector<std::size_t>{1, 2});
  const std::uint64_t zero[] = {0, 0, 0};
  CHECK_FALSE(schedule(g, zero).commands[2].binding);
}

TEST_CASE("schedule: TRF operands that fit side by side overlap the other context's contraction",
          "[cycles][schedule]") {
  const KernelCycles k = cycles_test::time_text(two_operand_kernel(64));
  const std::size_t b_store = command_named(k, "begin(b)");
  const std::size_t h = command_named(k, "begin(a)");
  const std::size_t c_store = command_named(k, "begin(c)");
  // 8 lanes × 4 · 64 bf16 = 4096 B each: next fit puts c_trf right after b_trf.
  CHECK(value_named(k, "b_trf").bytes == 4096);
  CHECK(value_named(k, "b_trf").address == std::optional<std::uint64_t>(0));
  CHECK(value_named(k, "c_trf").address == std::optional<std::uint64_t>(4096));
  CHECK_FALSE(wait_on(k.graph.nodes[c_store], h, WaitKind::WriteAfterRead));
  for (const Schedule* s : {&k.analytic_schedule, &k.trace_schedule}) {
    // c is in DM long before: the store follows b's store on sub, while h still runs on main.
    CHECK(s->commands[c_store].start == s->commands[b_store].end);
    CHECK(s->commands[c_store].start < s->commands[h].end);
  }
}

TEST_CASE("schedule: a TRF operand that must reuse the file waits for the contraction reading it",
          "[cycles][schedule]") {
  // 8 lanes × 4 · 640 bf16 = 40960 B each: two do not fit the 65536 B file, and b_trf is dead
  // once h has been issued, so c_trf lands on it.
  const KernelCycles k = cycles_test::time_text(two_operand_kernel(640));
  const std::size_t b_store = command_named(k, "begin(b)");
  const std::size_t h = command_named(k, "begin(a)");
  const std::size_t c_store = command_named(k, "begin(c)");
  const MemoryValue& b_trf = value_named(k, "b_trf");
  CHECK(b_trf.bytes == 40960);
  CHECK(b_trf.bytes + value_named(k, "c_trf").bytes > target::kRngd.trf_capacity_bytes);
  CHECK(b_trf.address == std::optional<std::uint64_t>(0));
  CHECK(value_named(k, "c_trf").address == std::optional<std::uint64_t>(0));
  CHECK(b_trf.readers == std::vector<std::size_t>{h});
  const Dependency* war = wait_on(k.graph.nodes[c_store], h, WaitKind::WriteAfterRead);
  REQUIRE(war);
  CHECK(war->what == "b_trf");
  CHECK(wait_on(k.graph.nodes[c_store], b_store, WaitKind::WriteAfterWrite));
  for (const Schedule* s : {&k.analytic_schedule, &k.trace_schedule}) {
    const ScheduledCommand& c = s->commands[c_store];
    CHECK(c.start == s->commands[h].end);
    REQUIRE(c.binding);
    CHECK(k.graph.nodes[c_store].after[*c.binding].why == WaitKind::WriteAfterRead);
    // The wait is on the critical path: the last contraction reads c_trf.
    const auto& path = s->critical_path;
    CHECK(std::find(path.begin(), path.end(), c_store) != path.end());
  }
  CHECK(k.graph.notes.empty());
}

TEST_CASE("schedule: a main-context to_vrf holds the sub context", "[cycles][schedule]") {
  auto file = ir::load_spec(cycles_test::spec_path("specs/derived/gemv_relu.rs"));
  const KernelCycles k = cycles_test::time_kernel_file(file);
  REQUIRE(k.commands.size() == 2);
  const ScheduleNode& pass = k.graph.nodes[1];
  CHECK(pass.context == Track::Main);
  CHECK(pass.holds_track(Track::Sub));
  CHECK(pass.holds_track(Track::VectorEngine));
  CHECK(wait_on(pass, 0, WaitKind::ReadAfterWrite)); // the TRF operand
  CHECK(wait_on(pass, 0, WaitKind::Context));        // the sub context the store holds
  const Schedule& s = k.trace_schedule;
  const std::uint64_t pass_cycles = s.commands[1].end - s.commands[1].start;
  CHECK(s.busy[static_cast<std::size_t>(Track::Sub)] ==
        s.commands[0].end - s.commands[0].start + pass_cycles);
  CHECK(s.busy[static_cast<std::size_t>(Track::VectorEngine)] == pass_cycles);
}

TEST_CASE("the Chrome trace: a process per model, tracks per context and engine, flows",
          "[cycles][schedule]") {
  auto file = ir::load_spec(cycles_test::spec_path("specs/kernels/gemm_gemm_kernel.rs"));
  REQUIRE(file);
  const ir::Kernel& kernel = file->kernels.front();
  const KernelCycles k = cycles_test::time_kernel_file(file);
  const nlohmann::ordered_json doc = chrome_trace_json(kernel, k);
  REQUIRE(doc.contains("traceEvents"));
  std::map<std::pair<int, int>, std::string> threads;
  std::set<int> processes;
  std::map<int, int> flow_starts, flow_ends;
  std::size_t commands = 0;
  for (const auto& e : doc["traceEvents"]) {
    const std::string ph = e["ph"];
    if (ph == "M" && e["name"] == "process_name") processes.insert(e["pid"].get<int>());
    if (ph == "M" && e["name"] == "thread_name")
      threads[{e["pid"], e["tid"]}] = e["args"]["name"].get<std::string>();
    if (ph == "X" && e["cat"] == "command" && e["pid"] == 2) {
      ++commands;
      // Microseconds of the 1 GHz clock: the start cycle / 1000.
      const auto start = e["args"]["start_cycle"].get<std::uint64_t>();
      CHECK(e["ts"].get<double>() == Approx(double(start) / 1000.0));
      const auto i = e["args"]["command"].get<std::size_t>() - 1;
      CHECK(start == k.trace_schedule.commands[i].start);
    }
    if (ph == "s") ++flow_starts[e["id"].get<int>()];
    if (ph == "f") {
      ++flow_ends[e["id"].get<int>()];
      CHECK(e["bp"] == "e");
    }
  }
  CHECK(processes == std::set<int>{1, 2});
  CHECK(commands == k.commands.size()); // every command once on its context (none holds another)
  std::set<std::string> names;
  for (const auto& [key, name] : threads)
    if (key.first == 2) names.insert(name);
  for (const char* want :
       {"main", "sub", "tdma", "DMA Engine", "Contraction Engine", "Fetch Engine (main)",
        "Fetch Engine (sub)", "Commit Engine (main)", "TRF store", "Cast Engine"})
    CHECK(names.count(want) == 1);
  // Every non-context dependency of both models is one arrow: a start and an end per id.
  std::size_t deps = 0;
  for (const ScheduleNode& n : k.graph.nodes)
    for (const Dependency& d : n.after) deps += d.why != WaitKind::Context;
  CHECK(flow_starts.size() == 2 * deps);
  CHECK(flow_starts == flow_ends);
}

TEST_CASE("tujit cycles --trace writes the Chrome trace and keeps an existing file",
          "[cycles][schedule][cli-cycles]") {
  const fs::path dir =
      fs::temp_directory_path() / ("tujit_cycles_schedule_test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path out = dir / "t.json";
  fs::remove(out);
  const std::string src = testing::source_path("specs/kernels/gemm_gemm_kernel.rs");
  auto r = testing::run_tujit({"cycles", src, "--trace", out.string()});
  INFO(r.out << r.err);
  REQUIRE(r.status == cli::kExitOk);
  CHECK(r.out.find("critical path:") != std::string::npos);
  std::ifstream in(out);
  const auto doc = nlohmann::json::parse(in);
  CHECK(doc["traceEvents"].size() > 10);
  CHECK(doc["otherData"]["kernel"] == "gemm_gemm_kernel");
  auto again = testing::run_tujit({"cycles", src, "--trace", out.string()});
  CHECK(again.status == cli::kExitUsage);
  CHECK(again.err.find("E-IO-002") != std::string::npos);
  CHECK(testing::run_tujit({"cycles", src, "--trace", out.string(), "--force"}).status ==
        cli::kExitOk);
  auto json = testing::run_tujit({"cycles", src, "--json"});
  REQUIRE(json.status == cli::kExitOk);
  const auto j = nlohmann::json::parse(json.out);
  REQUIRE(j.contains("timeline"));
  CHECK(j["timeline"]["trace"]["makespan"] == j["schedule"]["trace"]["total"]);
  CHECK(j["timeline"]["commands"].size() == j["commands"].size());
  fs::remove_all(dir);
}

TEST_CASE("the memory picture: a box per placed value, where it lives and for how long",
          "[cycles][schedule]") {
  const KernelCycles k = cycles_test::time_text(two_operand_kernel(640));
  const std::string svg = occupancy_svg(k);
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  std::size_t boxes = 0, placed = 0, command_boxes = 0, held = 0;
  for (std::size_t at = svg.find("<title>"); at != std::string::npos;
       at = svg.find("<title>", at + 1))
    (svg.compare(at + 7, 1, "#") == 0 ? command_boxes : boxes) += 1;
  for (const MemoryValue& v : k.graph.values) placed += v.address.has_value();
  CHECK(boxes == placed);
  // Under the panels, one box per command on each track it holds, over its cycles.
  for (std::size_t i = 0; i < k.commands.size(); ++i)
    for (Track t : {Track::Main, Track::Sub, Track::Tdma, Track::VectorEngine})
      held += k.graph.nodes[i].holds_track(t);
  CHECK(command_boxes == held);
  CHECK(held >= k.commands.size());
  // b_trf lives from its store's start to the end of h, the contraction that reads it.
  const std::size_t b_store = command_named(k, "begin(b)");
  const std::size_t h = command_named(k, "begin(a)");
  const Schedule& s = k.trace_schedule;
  CHECK(svg.find(fmt::format("TRF `b_trf`: 40960 B at 0, cycles [{}, {})",
                             s.commands[b_store].start, s.commands[h].end)) != std::string::npos);
  for (const char* panel : {">DM (per slice", ">TRF (per slice"})
    CHECK(svg.find(panel) != std::string::npos);
  CHECK(svg.find(">VRF (per slice") == std::string::npos); // the kernel keeps nothing in the VRF
  CHECK(svg.find(fmt::format("<title>#{} {}: {}, cycles [{}, {})</title>", h + 1,
                             track_name(k.graph.nodes[h].context), k.commands[h].what,
                             s.commands[h].start, s.commands[h].end)) != std::string::npos);
}

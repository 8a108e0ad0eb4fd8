// The Switch Engine as `tujit run` executes it (ir/seq/operand_streams.h switched_operand,
// docs/switch.md §4): which input element each output cell of the lowered program holds. Every
// expected element is worked by hand below from the book's definition of its configuration
// (furiosa-opt docs/src/computing-tensors/switch-engine.md: the sub-dimension diagrams before and
// after each regular switch; for CustomBroadcast the OutSlice / OutTime layouts, which name each
// output position's coordinates), never read from the code under test. The kernels are the book's
// examples with the book's sizes.
#include "harness/run/run_pipeline.h"
#include "harness/run/run_plan.h"
#include "ir/lang/kernel.h"
#include "ir/seq/run_program.h"
#include "ir/seq/switch_step.h"
#include "tests/support/checked.h"

#include <catch2/catch.hpp>

#include <map>
#include <string>

using namespace tujit;
using tujit::ir::CellState;

namespace {

const char* kHeader = "#![feature(adt_const_params)]\nextern crate furiosa_opt_std;\n"
                      "use furiosa_opt_std::prelude::*;\n";

struct Lowered {
  ir::SpecFile file;
  ir::seq::RunProgram program;
};

Lowered lower(const std::string& body) {
  auto file = ir::analyze_spec(SourceBuffer("switch.rs", std::string(kHeader) + body));
  REQUIRE(file.ok());
  REQUIRE(file->kernels.size() == 1);
  const ir::Kernel& k = file->kernels.front();
  REQUIRE(k.ok);
  auto ops = ir::seq::find_run_operands(k);
  REQUIRE(ops.ok());
  auto tiles = ir::seq::input_tiles(*file, k, *ops);
  REQUIRE(tiles.ok());
  auto p = ir::seq::lower_run(*file, testing::checked(k), *ops, *tiles, false);
  if (!p) FAIL(p.diagnostics().front().code << ": " << p.diagnostics().front().message);
  REQUIRE(p->is_move());
  return {std::move(*file), std::move(*p)};
}

/// The row-major offset of the element with `coords` in the logical tensor over `axes`.
std::uint64_t offset_of(const std::map<std::string, std::uint64_t>& coords,
                        const std::vector<ir::Axis>& axes) {
  std::uint64_t off = 0;
  for (const ir::Axis& a : axes) {
    const auto it = coords.find(a.name);
    off = off * a.size + (it == coords.end() ? 0 : it->second);
  }
  return off;
}

/// Output cell (spatial s, time t, packet e) of the program's move holds the input element with
/// `coords`.
void holds(const Lowered& l, std::uint64_t s, std::uint64_t t, std::uint64_t e,
           const std::map<std::string, std::uint64_t>& coords) {
  const ir::seq::TensorStreams& src = l.program.move().source.streams;
  const ir::seq::CellAddress c = src.at(s, t, e);
  INFO("slice " << s << ", time " << t << ", packet " << e);
  CHECK(c.state == CellState::Live);
  CHECK(c.offset == offset_of(coords, src.axes));
}

std::string kernel(const std::string& axes, const std::string& dtype, const std::string& cluster,
                   const std::string& in, const std::string& out, const std::string& call) {
  return "axes![" + axes + "];\nfn k<'l, const T: Tu>(input: FetchTensor<'l, T, " + dtype +
         ", m![1], m![" + cluster + "], " + in + ">) -> SwitchTensor<'l, T, " + dtype +
         ", m![1], m![" + cluster + "], " + out + "> {\n  input.switch(" + call + ")\n}\n";
}

} // namespace

TEST_CASE("switch run: Broadcast01 {slice1 2, slice0 2, time0 4}, the book's example",
          "[switch][seq]") {
  // InSlice A = [slice2 64, slice1 2, slice0 2], InTime B = [time1 16, time0 4]; out Slice
  // [slice2, X, Y], Time [time1, slice1, time0, slice0].
  const Lowered l = lower(kernel("A = 256, B = 64, C = 63, D = 2, X = 2, Y = 2", "f32", "D",
                                 "m![A], m![B], m![C # 64]",
                                 "m![A / 4, X, Y], m![B / 4, A / 2 % 2, B % 4, A % 2], m![C # 64]",
                                 "SwitchConfig::Broadcast01 { slice1: 2, slice0: 2, time0: 4 }"));
  // Cluster 1, slice (slice2 10, X 1, Y 0) = 10·4 + 2 = 42, spatial 256 + 42 = 298; time
  // (time1 5, slice1 1, time0 3, slice0 0) = ((5·2 + 1)·4 + 3)·2 = 94. The packet is input slice
  // (10, 1, 0) = 42 at time 5·4 + 3 = 23: A 42, B 23.
  holds(l, 298, 94, 5, {{"A", 42}, {"B", 23}, {"C", 5}, {"D", 1}});
  // Y 1 (slice 43) is a broadcast: the same packet; slice0 1 (time 95) is input slice 43.
  holds(l, 299, 94, 5, {{"A", 42}, {"B", 23}, {"C", 5}, {"D", 1}});
  holds(l, 299, 95, 5, {{"A", 43}, {"B", 23}, {"C", 5}, {"D", 1}});
  // The packet's padding (C 63) stays padding.
  CHECK(l.program.move().source.streams.at(298, 94, 63).state != CellState::Live);
}

TEST_CASE("switch run: Broadcast1 {slice1 4, slice0 8}, the book's example", "[switch][seq]") {
  const Lowered l =
      lower(kernel("A = 256, B = 64, C = 63, X = 4", "i8", "1 # 2", "m![A], m![B], m![C # 64]",
                   "m![A / 32, X, A % 8], m![B, A / 8 % 4], m![C # 64]",
                   "SwitchConfig::Broadcast1 { slice1: 4, slice0: 8 }"));
  // Out slice 77 = (slice2 2, X 1, slice0 5) of sizes (8, 4, 8); time 6 = (time0 1, slice1 2) of
  // (64, 4): input slice (2, 2, 5) = 2·32 + 2·8 + 5 = 85, time 1.
  holds(l, 77, 6, 9, {{"A", 85}, {"B", 1}, {"C", 9}});
  // X 3 (slice 2·32 + 3·8 + 5 = 93) repeats it.
  holds(l, 93, 6, 9, {{"A", 85}, {"B", 1}, {"C", 9}});
  // The book's move itself: output (77, 6) is input (85, 1).
  ir::seq::SwitchStep step;
  step.kind = ir::SwitchKind::Broadcast1;
  step.slice2 = 8, step.slice1 = 4, step.slice0 = 8, step.time0 = 64;
  CHECK(ir::seq::book_source(step, 77, 6) == ir::seq::SwitchSource{85, 1});
  CHECK(ir::seq::book_source(step, 93, 6) == ir::seq::SwitchSource{85, 1});
}

TEST_CASE("switch run: Transpose {slice1 32, slice0 2}, the book's example", "[switch][seq]") {
  const Lowered l =
      lower(kernel("A = 256, B = 64, C = 63", "i8", "1 # 2", "m![A], m![B], m![C # 64]",
                   "m![A / 64, A % 2, A / 2 % 32], m![B], m![C # 64]",
                   "SwitchConfig::Transpose { slice1: 32, slice0: 2 }"));
  // Out slice 167 = (slice2 2, slice0 1, slice1 7) of sizes (4, 2, 32): input slice
  // (2, 7, 1) = 2·64 + 7·2 + 1 = 143; Time unchanged.
  holds(l, 167, 9, 0, {{"A", 143}, {"B", 9}, {"C", 0}});
  holds(l, 0, 0, 0, {{"A", 0}, {"B", 0}, {"C", 0}});
  // Out slice 1 = (0, 0, 1): input slice (0, 1, 0) = 2.
  holds(l, 1, 0, 0, {{"A", 2}, {"B", 0}, {"C", 0}});
}

TEST_CASE("switch run: InterTranspose {slice1 2, slice0 16, time0 2}, the book's example",
          "[switch][seq]") {
  const Lowered l =
      lower(kernel("A = 256, B = 8, C = 32", "i8", "1 # 2", "m![A], m![B], m![C # 32]",
                   "m![A / 32, B / 2 % 2, A % 16], m![B / 4, B % 2, A / 16 % 2], "
                   "m![C # 32]",
                   "SwitchConfig::InterTranspose { slice1: 2, slice0: 16, time0: 2 "
                   "}"));
  // InSlice [slice2 8, slice1 2, slice0 16], InTime [time2 2, time1 2, time0 2]; out Slice
  // [slice2, time1, slice0], Time [time2, time0, slice1]. Out slice 100 = (3, 0, 4), time
  // 3 = (0, 1, 1): input slice (3, 1, 4) = 3·32 + 16 + 4 = 116, time (0, 0, 1) = 1.
  holds(l, 100, 3, 7, {{"A", 116}, {"B", 1}, {"C", 7}});
  // Out slice 185 = (5, 1, 9), time 5 = (1, 0, 1): input slice (5, 1, 9) = 185, time
  // (1, 1, 0) = 6.
  holds(l, 185, 5, 31, {{"A", 185}, {"B", 6}, {"C", 31}});
}

TEST_CASE("switch run: TransposedBroadcast1 {slice1 8, slice0 8}, the book's example",
          "[switch][seq]") {
  const Lowered l =
      lower(kernel("A = 256, B = 16, C = 32, Y = 8", "i8", "1 # 2", "m![A], m![B], m![C # 32]",
                   "m![A / 64, Y, A / 8 % 8], m![B, A % 8], m![C # 32]",
                   "SwitchConfig::TransposedBroadcast1 { slice1: 8, slice0: 8 }"));
  // Out slice 94 = (slice2 1, Y 3, slice1 6) of sizes (4, 8, 8); time 85 = (time0 10, slice0 5)
  // of (16, 8): input slice (1, 6, 5) = 64 + 48 + 5 = 117, time 10.
  holds(l, 94, 85, 2, {{"A", 117}, {"B", 10}, {"C", 2}});
  // Y 7 (slice 64 + 56 + 6 = 126) repeats it.
  holds(l, 126, 85, 2, {{"A", 117}, {"B", 10}, {"C", 2}});
}

TEST_CASE("switch run: CustomBroadcast, the book's three examples", "[switch][seq]") {
  SECTION("Arbitrary permutation, ring 256") {
    const Lowered l =
        lower(kernel("A = 16, B = 16, C = 8, D = 8, E = 8", "f32", "1 # 2",
                     "m![A, B], m![C], m![D, E]", "m![B % 4, B / 4, A % 4, A / 4], m![C], m![D, E]",
                     "SwitchConfig::CustomBroadcast { ring_size: 256 }"));
    // Out slice 182 = (B%4 2, B/4 3, A%4 1, A/4 2) of sizes 4 each: B 14, A 9; packet 10 =
    // (D 1, E 2).
    holds(l, 182, 4, 10, {{"A", 9}, {"B", 14}, {"C", 4}, {"D", 1}, {"E", 2}});
  }
  SECTION("Multi-dimension broadcast, ring 32") {
    const Lowered l = lower(kernel("A = 16, B = 16, C = 8, D = 8, E = 8, X = 2, Y = 2", "f32",
                                   "1 # 2", "m![A, B], m![C], m![D, E]",
                                   "m![A / 2, X, B / 2, Y], m![C, A % 2, B % 2], m![D, E]",
                                   "SwitchConfig::CustomBroadcast { ring_size: 32 }"));
    // Out slice 188 = (A/2 5, X 1, B/2 6, Y 0) of sizes (8, 2, 8, 2); time 14 = (C 3, A%2 1,
    // B%2 0): A 11, B 12, C 3.
    holds(l, 188, 14, 0, {{"A", 11}, {"B", 12}, {"C", 3}});
    // X 0 and Y 1: slice 5·32 + 6·2 + 1 = 173, the same element.
    holds(l, 173, 14, 0, {{"A", 11}, {"B", 12}, {"C", 3}});
  }
  SECTION("Partial axis extraction, ring 4") {
    const Lowered l = lower(kernel("A = 16, B = 4, C = 3, D = 8, E = 8, X = 4", "f32", "1 # 2",
                                   "m![A, B, C # 4], m![D], m![E]", "m![A, B, X], m![D, C], m![E]",
                                   "SwitchConfig::CustomBroadcast { ring_size: 4 }"));
    // Out slice 123 = (A 7, B 2, X 3) of sizes (16, 4, 4); time 17 = (D 5, C 2) of (8, 3): the
    // element input slice 7·16 + 2·4 + 2 = 122 holds at time 5.
    holds(l, 123, 17, 6, {{"A", 7}, {"B", 2}, {"C", 2}, {"D", 5}, {"E", 6}});
    holds(l, 120, 17, 6, {{"A", 7}, {"B", 2}, {"C", 2}, {"D", 5}, {"E", 6}});
  }
}

TEST_CASE("switch run: a switch between fetch and collect moves packets before Collect splits "
          "them into flits",
          "[switch][seq]") {
  const Lowered l = lower(
      "axes![A = 256, B = 64, C = 64, X = 4];\n"
      "fn k<'l>(ctx: &'l mut Context, dm: &DmTensor<i8, m![1], m![1 # 2], m![A], m![B, C]>)\n"
      "    -> CollectTensor<'l, { Tu::Main }, i8, m![1], m![1 # 2], m![A / 32, X, A % 8],\n"
      "                     m![B, A / 8 % 4, C / 32], m![C % 32]> {\n"
      "  ctx.main.begin(dm.view()).fetch::<m![B], m![C]>()\n"
      "    .switch::<m![A / 32, X, A % 8], m![B, A / 8 % 4]>(SwitchConfig::Broadcast1 { slice1: "
      "4, slice0: 8 })\n"
      "    .collect::<m![B, A / 8 % 4, C / 32], m![C % 32]>()\n"
      "}\n");
  REQUIRE(l.program.fetches.size() == 1);
  REQUIRE(l.program.fetches.front().switch_engine);
  // Broadcast1 as above: out slice 77, packet time 6 is input slice 85, time 1. A 64-byte i8
  // packet is two 32-byte flits: element 40 is flit 6·2 + 1 = 13, element 8.
  holds(l, 77, 13, 8, {{"A", 85}, {"B", 1}, {"C", 40}});
  holds(l, 77, 12, 8, {{"A", 85}, {"B", 1}, {"C", 8}});
}

TEST_CASE("switch run: MNIST's fc2 input, a Broadcast1 of slice1 256 before a transpose and a "
          "commit, runs on both engines and agrees with the oracle",
          "[switch][cli-run]") {
  // furiosa-opt-examples mnist (fc2_input_prepared), the DM tensor an earlier command committed
  // made a parameter: H (one element per slice) moves into Time, the Transpose Engine puts it back
  // into each slice's packet, and every slice C holds all of H.
  auto file = ir::analyze_spec(SourceBuffer(
      "fc2_input.rs",
      "use furiosa_opt_std::prelude::*;\n"
      "axes![H = 256, C = 16];\n"
      "pub fn fc2_input_prepared(ctx: &mut Context,\n"
      "    input: DmTensor<bf16, m![1], m![1 # 2], m![H], m![1 # 4]>)\n"
      "    -> DmTensor<bf16, m![1], m![1 # 2], m![C, 1 # 16], m![H]> {\n"
      "  ctx.main.begin(input.view()).fetch::<m![1], m![1 # 4]>()\n"
      "    .switch::<m![C, 1 # 16], m![H]>(SwitchConfig::Broadcast1 { slice1: 256, slice0: 1 })\n"
      "    .collect::<m![H], m![1 # 16]>()\n"
      "    .transpose::<m![H / 4], m![H % 4 # 16]>()\n"
      "    .commit_trim::<m![H % 4]>()\n"
      "    .commit()\n"
      "}\n"));
  REQUIRE(file.ok());
  const auto checked = testing::checked(file->kernels.at(0));
  auto plan = run::plan_run(checked);
  REQUIRE(plan.ok());
  for (run::Engine e : {run::Engine::Interp, run::Engine::Jit}) {
    run::RunRequest req;
    req.engine = e;
    req.seed = 3;
    req.verify = true;
    req.jit.use_cache = false;
    auto r = run::run_plan(*file, *plan, req);
    REQUIRE(r.ok());
    REQUIRE(r->verify.has_value());
    CHECK(r->verify->engines_bit_exact);
    CHECK(r->verify->oracle_not_applicable.value_or("") == "");
    CHECK(r->verify->oracle_ok);
    REQUIRE(r->fetches.size() == 1);
    CHECK(r->fetches.front().switch_engine);
  }
}

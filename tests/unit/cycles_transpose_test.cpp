// Cycles of the Transpose Engine (docs/cycle-model.md §12): the book's six examples, each a
// CollectTensor parameter transposed, take exactly the burst latency the book's page prints; in a
// whole kernel the burst starts with the first flit of the engines before it and the trim and
// commit follow it (§11). Every figure below is the book's or worked by hand from the kernel's
// shapes.
#include "tests/unit/cycles_test_support.h"

#include <algorithm>

using namespace tujit;
using namespace tujit::cycles_test;
using cycles::CommandKind;

namespace {

struct BookExample {
  const char* spec;
  std::uint64_t time_flits; // |Time| of the CollectTensor parameter
  std::uint64_t out_flits;  // |OutTime|
  std::uint64_t iterations, matrix_flits, out_rows;
  bool double_buffered;
  std::uint64_t cycles; // the book's printed latency
};

} // namespace

TEST_CASE("the book's transpose examples take the book's latency", "[cycles][transpose]") {
  // furiosa-opt docs/src/computing-tensors/transpose-engine.md, "Latency" and each example's
  // closing line; |Time| and |OutTime| from the examples' mappings.
  const BookExample examples[] = {
      // [B, C, D] = 2 · 8 · 2 → [B, D, E] = 2 · 2 · 8; 16 + 1 · max(16, 16) + 16.
      {"specs/transpose_basic.rs", 32, 32, 2, 16, 16, true, 48},
      // [A] = 4 → [B] = 2; 4 + 0 · max(4, 2) + 2.
      {"specs/transpose_small.rs", 4, 2, 1, 4, 2, true, 6},
      // [B, C, D] = 2 · 8 · 4 → [B, D, E] = 2 · 4 · 8; 2 · (32 + 32).
      {"specs/transpose_large_col.rs", 64, 64, 2, 32, 32, false, 128},
      // [C, D] = 8 · 4 → [C, E] = 8 · 8; 4 + 7 · max(4, 8) + 8.
      {"specs/transpose_bf16.rs", 32, 64, 8, 4, 8, true, 68},
      // [B, C] = 4 · 16 → [B, E] = 4 · 16; 16 + 3 · max(16, 16) + 16.
      {"specs/transpose_i4.rs", 64, 64, 4, 16, 16, true, 80},
      // [B, D] = 4 · 2 → [B, E] = 4 · 8; 2 + 3 · max(2, 8) + 8.
      {"specs/transpose_f32.rs", 8, 32, 4, 2, 8, true, 34},
  };
  for (const BookExample& ex : examples) {
    CAPTURE(ex.spec);
    const auto k = time_kernel_file(ir::load_spec(spec_path(ex.spec)));
    REQUIRE(k.commands.size() == 1);
    const cycles::CommandCycles& c = k.commands.front();
    CHECK(c.kind == CommandKind::DataPath);
    CHECK(c.context == ir::ContextKind::Main);
    CHECK(c.setup == 1); // one engine configured: the Transpose Engine (M15)
    REQUIRE(c.output);
    REQUIRE(c.output->transpose);
    const cycles::TransposeCycles& t = *c.output->transpose;
    CHECK(t.latency_before == 0);
    CHECK(t.in_flits == ex.time_flits);
    CHECK(t.out_flits == ex.out_flits);
    CHECK(t.iterations == ex.iterations);
    CHECK(t.matrix_flits == ex.matrix_flits);
    CHECK(t.out_rows == ex.out_rows);
    CHECK(t.double_buffered == ex.double_buffered);
    CHECK(t.burst == ex.cycles);
    CHECK_FALSE(c.output->committed);
    // The parameter's flits one per cycle from cycle 0: X = |Time| − |Time| + B.
    CHECK(c.analytic == ex.cycles);
    CHECK(c.trace == ex.cycles);
    CHECK(k.analytic_total == 1 + ex.cycles);
    CHECK(k.trace_total == 1 + ex.cycles);
  }
}

TEST_CASE("transpose_kernel: the burst behind the fetch, then the trim and the commit",
          "[cycles][transpose][whole]") {
  const auto k = time_kernel_file(ir::load_spec(spec_path("specs/kernels/transpose_kernel.rs")));
  REQUIRE(k.commands.size() == 3);
  CHECK(k.commands[0].kind == CommandKind::Dma);
  CHECK(k.commands[2].kind == CommandKind::Dma);
  const cycles::CommandCycles& c = k.commands[1];
  CHECK(c.kind == CommandKind::DataPath);
  // Fetch sequencer, Collect, Transpose Engine, commit_trim, commit (M15).
  CHECK(c.setup == 5);
  REQUIRE(c.output);
  REQUIRE(c.output->transpose);
  const cycles::TransposeCycles& t = *c.output->transpose;
  // Time [B, C, D] = 32 flits of E # 32 i8; two 8 × 16 matrices, double buffered: 48.
  CHECK(t.in_flits == 32);
  CHECK(t.burst == 48);
  CHECK(t.out_rows == 16);
  // commit_trim, then 32 packets of C = 8 i8 (8 B), each one write.
  CHECK(c.output->committed);
  CHECK(c.output->latency == 1);
  CHECK(c.output->flits == 32);
  CHECK(c.output->analytic.writes == 32);
  CHECK(c.output->trace.writes == 32);
  // X = E − 32 + 48; the commit keeps up: X + 1.
  const std::uint64_t e = c.path_analytic->total;
  REQUIRE(e >= 32);
  CHECK(c.analytic == e + 16 + 1);
  const std::uint64_t et = c.path_trace->total;
  REQUIRE(et >= 32);
  CHECK(c.trace == et + 16 + 1);
  CHECK(k.commands[2].after == std::vector<std::size_t>{1});
  CHECK(k.commands[2].analytic_slot.start == c.analytic_slot.end);
}

TEST_CASE("transpose_relu_kernel: the burst behind a Vector Engine pass", "[cycles][transpose]") {
  const auto k =
      time_kernel_file(ir::load_spec(spec_path("specs/kernels/transpose_relu_kernel.rs")));
  REQUIRE(k.commands.size() == 3);
  const cycles::CommandCycles& c = k.commands[1];
  REQUIRE(c.output);
  REQUIRE(c.output->transpose);
  const cycles::TransposeCycles& t = *c.output->transpose;
  // Time [B, D] = 8 flits of 8 f32; four 2 × 8 matrices, 8 rows each: 2 + 3 · 8 + 8 = 34.
  CHECK(t.in_flits == 8);
  CHECK(t.burst == 34);
  CHECK(t.out_flits == 32);
  // commit_trim, then 32 packets of D = 2 f32 (8 B), one write each.
  CHECK(c.output->latency == 1);
  CHECK(c.output->analytic.writes == 32);
  const std::uint64_t e = c.path_analytic->total;
  REQUIRE(e >= 8);
  CHECK(c.analytic == e - 8 + 34 + 1);
}

TEST_CASE("a cast before the transpose delays its burst by its cycle", "[cycles][transpose]") {
  // The Cast Engine (f32 → bf16) between the pass and the transpose: one cycle before the burst
  // (docs/cycle-model.md §11, §12); the transposed rows D = 4 bf16 (8 B) are trimmed to [D] and
  // committed one write each.
  const std::string text = R"(axes![P = 256, B = 4, D = 4, E = 8];
#[device(chip = 1)]
pub fn cast_transpose(ctx: &mut Context, x: &HbmTensor<f32, m![1], m![P, B, D, E]>) -> HbmTensor<bf16, m![1], m![P, B, E, D]> {
    let x: DmTensor<f32, m![1], m![1 # 2], m![P], m![B, D, E]> = x.to_dm(&mut ctx.tdma);
    let y: DmTensor<bf16, m![1], m![1 # 2], m![P], m![B, E, D]> = ctx
        .main
        .begin(x.view())
        .fetch::<m![B, D], m![E]>()
        .collect::<m![B, D], m![E]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_clip(ClipBinaryOpF32::Max, 0.0f32)
        .vector_final()
        .cast::<bf16, m![E # 16]>()
        .transpose::<m![B, E], m![D # 16]>()
        .commit_trim::<m![D]>()
        .commit();
    y.to_hbm(&mut ctx.tdma)
}
)";
  const auto k = time_text(text);
  REQUIRE(k.commands.size() == 3);
  const cycles::CommandCycles& c = k.commands[1];
  REQUIRE(c.output);
  REQUIRE(c.output->transpose);
  const cycles::TransposeCycles& t = *c.output->transpose;
  // bf16: valid_size 8, rows D = 4 (the most 16-bit rows), in_cols 8, out_rows 8; Time [B, D]
  // = 16 flits, n = 4 matrices of 4: 4 + 3 · max(4, 8) + 8 = 36.
  CHECK(t.latency_before == 1);
  CHECK(t.in_flits == 16);
  CHECK(t.matrix_flits == 4);
  CHECK(t.burst == 36);
  CHECK(c.output->latency == 1);
  CHECK(c.output->flits == 32);
  CHECK(c.output->analytic.writes == 32);
  const std::uint64_t e = c.path_analytic->total;
  REQUIRE(e >= 16);
  // X = E + 1 − 16 + 36; the commit keeps up: X + 1.
  CHECK(c.analytic == e + 1 - 16 + 36 + 1);
}

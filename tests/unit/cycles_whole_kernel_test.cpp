// Cycles of whole kernels (docs/cycle-model.md §10, §11): the DMA transfers and the output path of
// the starter kernels in specs/kernels/, each figure worked by hand from the transfer's shapes and
// the book's rates (docs/dma.md §4), and the commands scheduled on the tdma, sub and main contexts.
#include "tests/unit/cycles_test_support.h"

using namespace tujit;
using namespace tujit::cycles_test;
using cycles::CommandKind;

namespace {

cycles::KernelCycles time_spec(const char* name) {
  return time_kernel_file(ir::load_spec(spec_path(std::string("specs/kernels/") + name)));
}

void check_dma(const cycles::CommandCycles& c, std::uint64_t requests, std::uint64_t partial,
               std::uint64_t dmns, std::uint64_t engines, std::uint64_t total,
               std::string_view bound) {
  REQUIRE(c.kind == CommandKind::Dma);
  CHECK(c.context == ir::ContextKind::Tdma);
  CHECK(c.setup == 0);
  CHECK(c.dma->requests == requests);
  CHECK(c.dma->partial_hbm_writes == partial);
  CHECK(c.dma->dmns == dmns);
  CHECK(c.dma->engines == engines);
  CHECK(c.analytic == total);
  CHECK(c.trace == total); // the runs spread evenly over the DMNs and engines
  CHECK(c.dma_analytic->bound == bound);
}

} // namespace

TEST_CASE("gemm_kernel: two to_dm, the sub store, the contraction with its output path, to_hbm",
          "[cycles][whole]") {
  const auto k = time_spec("gemm_kernel.rs");
  REQUIRE(k.commands.size() == 5);
  // a: HBM m![I, K] (512 × 64 bf16) into 256 slices' m![I % 32, K]: a run of 32 · 64 bf16 =
  // 4096 B per slice, 16 requests each: 4096 requests; the slices m![I / 32, J / 32] of one
  // cluster on 256 / 32 = 8 DMNs, 4 engines. 1 MiB moved (J broadcast):
  // max(4096 / 4, 2^20 / (8 · 128), ⌈2^20 / 1500⌉) = max(1024, 1024, 700); 500 + 1024.
  check_dma(k.commands[0], 4096, 0, 8, 4, 1524, "requests");
  check_dma(k.commands[1], 4096, 0, 8, 4, 1524, "requests");
  // The result m![I % 32, J % 32] into HBM m![I, J]: runs of J % 32 = 64 B, 512 · 512 / 32 =
  // 8192 of them, each a partial 256-byte HBM write: (8192 · 50) / 4 = 102400 request cycles.
  check_dma(k.commands[4], 8192, 8192, 8, 4, 500 + 102400, "requests");

  const cycles::CommandCycles& store = k.commands[2];
  const cycles::CommandCycles& main = k.commands[3];
  CHECK(store.context == ir::ContextKind::Sub);
  CHECK(main.kind == CommandKind::Contraction);
  REQUIRE(main.output);
  // cast + commit_trim before the commit; the committed stream m![I % 32, J / 8 % 4] of J % 8
  // bf16 (16 B), contiguous in m![I % 32, J % 32]: one write per packet, 128 writes.
  CHECK(main.output->latency == 2);
  CHECK(main.output->flits == 128);
  CHECK(main.output->analytic.writes == 128);
  CHECK(main.output->trace.writes == 128);
  CHECK(main.analytic == main.chain->analytic.total + 2);
  CHECK(main.trace == main.chain->trace.total + 2);

  // The schedule: the transfers share the tdma context; the store reads b's DM, the contraction
  // a's DM and the TRF, to_hbm the committed result.
  using V = std::vector<std::size_t>;
  CHECK(k.commands[2].after == V{1});
  CHECK(k.commands[3].after == V{0, 2});
  CHECK(k.commands[4].after == V{3});
  CHECK(k.commands[1].analytic_slot.start == 1524);
  CHECK(store.analytic_slot.start == 3048);
  CHECK(main.analytic_slot.start == store.analytic_slot.end);
  CHECK(k.commands[4].analytic_slot.start == main.analytic_slot.end);
  CHECK(k.analytic_total == k.commands[4].analytic_slot.end);
  CHECK(k.main == 3);
}

TEST_CASE("fetch_commit_simple: the commit behind a fetch and a transposing to_hbm",
          "[cycles][whole]") {
  const auto k = time_spec("fetch_commit_simple.rs");
  REQUIRE(k.commands.size() == 3);
  // HBM m![A, B] i8 (4096 × 8) into 256 slices' m![A / 8 % 2, A % 8, B]: 128 B per slice, one
  // request each; 8 DMNs, 4 engines: 500 + max(256 / 4, 32768 / 1024, ⌈32768 / 1500⌉ = 22).
  check_dma(k.commands[0], 256, 0, 8, 4, 500 + 64, "requests");
  // Back to HBM as m![B, A] i32: no run longer than one 4-byte element is contiguous in both, so
  // 32768 one-element partial writes: 32768 · 50 / 4.
  check_dma(k.commands[2], 32768, 32768, 8, 4, 500 + 409600, "requests");
  const cycles::CommandCycles& c = k.commands[1];
  CHECK(c.kind == CommandKind::DataPath);
  REQUIRE(c.output);
  // commit_trim, then 16 packets of 8 i32 = 32 B, contiguous: one write each.
  CHECK(c.output->latency == 1);
  CHECK(c.output->flits == 16);
  CHECK(c.output->analytic.writes == 16);
  CHECK(c.analytic == c.path_analytic->total + 1);
}

TEST_CASE("fetch_table_lookup: the lookup's latency adds to the cast's, its output caps a read",
          "[cycles][whole][table_lookup]") {
  auto file = ir::load_spec(spec_path("specs/kernels/fetch_table_lookup.rs"));
  REQUIRE(file);
  const auto command = [&](const char* name) {
    for (const auto& k : file->kernels)
      if (k.name == name) {
        auto kc = cycles::kernel_cycles(testing::checked(k));
        REQUIRE(kc);
        REQUIRE(kc->commands.size() == 3);
        REQUIRE(kc->commands[1].path_analytic);
        return *kc->commands[1].path_analytic;
      }
    FAIL("no kernel " << name);
    return cycles::DataPathCycles{};
  };
  // NVFP4: f4e2m1 → f8e4m3 → f32. Packet [A % 8, B] = 128 codes, one contiguous run; a read's
  // f32 output fits 32 B at 8 elements (the cast's cap, docs/datapath.md §5): 16 reads per
  // packet, 2 packets = 32 reads. Collect makes 16 flits of 8 f32 per packet = 32 flits.
  // Latency: lookup 2 + cast 2 (docs/cycle-model.md A4), so 4 + max(32, 32).
  const cycles::DataPathCycles nvfp4 = command("fetch_table_lookup_decode_e2m1");
  CHECK(nvfp4.adapter_latency == 4);
  CHECK(nvfp4.reads == 32);
  CHECK(nvfp4.total == 4 + 32);
  // f4e2m1 → f8e5m2 alone: packet [A % 8, Bp] = 256 codes; a read's decoded output fits 32 B at
  // 32 codes (16 B read, docs/datapath.md §12.8): 8 reads per packet, 16 reads; 8 flits of 32 f8
  // per packet, 16 flits. Latency: the lookup's 2.
  const cycles::DataPathCycles e5m2 = command("fetch_table_lookup_decode_e2m1_to_f8e5m2");
  CHECK(e5m2.adapter_latency == 2);
  CHECK(e5m2.reads == 16);
  CHECK(e5m2.total == 2 + 16);
  // f8e4m3 → bf16: packet [A % 8, Bf] = 128 codes, 16 per read (32 B of bf16): 8 reads per
  // packet, 16 reads; 8 flits of 16 bf16 per packet, 16 flits.
  const cycles::DataPathCycles bf16 = command("fetch_table_lookup_decode_f8_to_bf16");
  CHECK(bf16.adapter_latency == 2);
  CHECK(bf16.reads == 16);
  CHECK(bf16.total == 2 + 16);
}

TEST_CASE("a sub-context commit writes 8 bytes per cycle behind its engines", "[cycles][whole]") {
  // A fetch → collect → commit in the sub context: 32 packets of 8 i32 (32 B) each take four
  // 8-byte writes (docs/output-path.md §3), so the commit, not the collect, bounds the command:
  // 128 writes from the first flit.
  const std::string text = R"(axes![A = 256, B = 8];
#[device(chip = 1)]
pub fn sub_commit(ctx: &mut Context, x: &HbmTensor<i32, m![1], m![A, B]>) -> HbmTensor<i32, m![1], m![A, B]> {
    let x: DmTensor<i32, m![1], m![1 # 2], m![A / 32 # 256], m![A % 32, B]> = x.to_dm(&mut ctx.tdma);
    let y: DmTensor<i32, m![1], m![1 # 2], m![A / 32 # 256], m![A % 32, B]> = ctx
        .sub
        .begin(x.view())
        .fetch::<m![A % 32], m![B]>()
        .collect::<m![A % 32], m![B]>()
        .commit_trim::<m![B]>()
        .commit();
    y.to_hbm(&mut ctx.tdma)
}
)";
  const auto k = time_text(text);
  REQUIRE(k.commands.size() == 3);
  const cycles::CommandCycles& c = k.commands[1];
  CHECK(c.context == ir::ContextKind::Sub);
  REQUIRE(c.output);
  CHECK(c.output->commit.commit->write_size == 2); // 8 B of i32
  CHECK(c.output->analytic.writes == 128);
  CHECK(c.output->trace.writes == 128);
  // The engines' 32 flits end at E; the commit starts with the first of them (+1 for the trim)
  // and takes 128 cycles.
  const std::uint64_t e = c.path_analytic->total;
  CHECK(c.analytic == std::max(e + 1, e - std::min<std::uint64_t>(e, 32) + 1 + 128));
  CHECK(c.analytic > e + 1);
}

TEST_CASE("a read from HBM that crosses a 256-byte block takes a second transfer",
          "[cycles][whole][dma]") {
  // 256 rows of 24 bf16 (48 B), one row per slice: run k starts at 48·k in HBM. Offsets repeat
  // every 256 / gcd(48, 256) = 16 runs: 0, 48, 96, 144, 192, 240, 32, 80, 128, 176, 224, 16, 64,
  // 112, 160, 208; a 48-byte read crosses a block from offsets above 208: 240 and 224, two of
  // every 16 (docs/cycle-model.md §10). 256 runs: 256 requests + 32 second transfers over 4
  // engines = 72 cycles, above DM (12288 B / (8 · 128) = 12) and HBM (⌈12288 / 1500⌉ = 9):
  // 500 + 72.
  const auto k = time_kernel_file(ir::analyze_spec(SourceBuffer("rows.rs", R"(
use furiosa_opt_std::prelude::*;
axes![A = 256, B = 24];
#[device(chip = 1)]
pub fn rows(ctx: &mut Context, x: &HbmTensor<bf16, m![1], m![A, B]>) -> HbmTensor<bf16, m![1], m![A, B]> {
    let x = x.to_dm::<m![1 # 2], m![A], m![B]>(&mut ctx.tdma);
    x.to_hbm(&mut ctx.tdma)
}
)")));
  REQUIRE(k.commands.size() == 2);
  const cycles::CommandCycles& read = k.commands[0];
  REQUIRE(read.dma);
  CHECK(read.dma->run_bytes == 48);
  CHECK(read.dma->requests == 256);
  CHECK(read.dma->unaligned_hbm_reads == 32);
  CHECK(read.dma_analytic->requests == 288);
  CHECK(read.analytic == 572);
  CHECK(read.trace == 572); // 64 consecutive runs per engine: 8 crossings each
  // Back to HBM: DM reads are not penalised; each 48-byte run is a partial HBM write.
  const cycles::CommandCycles& write = k.commands[1];
  CHECK(write.dma->unaligned_hbm_reads == 0);
  CHECK(write.dma->partial_hbm_writes == 256);
}

TEST_CASE("unaligned_run_reads: a run's packets that cross a block they need not cross",
          "[cycles][dma]") {
  using ir::verify::unaligned_run_reads;
  CHECK(unaligned_run_reads(0, 48) == 0);
  CHECK(unaligned_run_reads(208, 48) == 0); // ends exactly at the block's end
  CHECK(unaligned_run_reads(224, 48) == 1);
  CHECK(unaligned_run_reads(0, 256) == 0);
  CHECK(unaligned_run_reads(128, 256) == 1);
  // 8192 B in two 4096-byte packets from offset 64: each spans 17 blocks instead of 16.
  CHECK(unaligned_run_reads(64, 8192) == 2);
  // 4100 B from offset 0: 4096 + 4; the second packet starts aligned.
  CHECK(unaligned_run_reads(0, 4100) == 0);
  // from offset 254: the 4-byte tail packet starts at 254 + 4096 ≡ 254 and crosses.
  CHECK(unaligned_run_reads(254, 4100) == 2);
}

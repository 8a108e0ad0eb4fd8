// Random valid kernels built the way the book's strategies build them (docs/contraction.md §11),
// for the property tests of the checker and the differential tests of the engines. Each kernel is
// emitted as spec TEXT (docs/kernel-language.md) so the front end, the verifiers, the interpreter
// and the JIT all consume the same thing. Deterministic for a given seed.
//
// The space (each choice independent unless a hardware limit couples them):
//   operand pair   every legal stream × TRF pair of docs/contraction.md §2.1 (i4/i5 × i4/i5,
//                  i8/i9 × i8/i9, f8e4m3², f8e5m2², bf16²);
//   Lane           1/2/4/8 TRF lanes, the lane axis N possibly padded (`N # 4`, N = 3);
//   PackSize       1 or 2 flits per packet (§5.1);
//   packet         K fully reduced by the tree (d = log2|OP|), or a partial reduction (d smaller)
//                  whose columns are an output axis J of the stream only (PacketBroadcast), of
//                  both operands (a batch axis inside the packet), or pure padding `1 # j` (the
//                  book's K-in-Time packet `[1 # 16]` when d = 0);
//   Time           the contraction axis K split across Packet and Time, its time digit reduced
//                  by contract_time and placed outside and/or inside the outer axis M (InnerTime);
//   broadcast      a TRF-only axis B (time broadcast, §5.1) and/or an axis X in neither operand;
//   spatial        an axis S over Slice (and Cluster) shared by stream, TRF and output;
//   padding        `#` (Top) or `#{0}` (zero) on M, K (reduced: Top poisons, zero does not), N,
//                  J and B, and padded output columns (`# p` on P2);
//   LaneMode       Interleaved or Sequential;
//   form           the operands as CollectTensor parameters, or fetched from DmTensor parameters
//                  and collected in the kernel (KernelForm::DmFetch, kernel_gen_fetch.h: fetch
//                  packets of 1/2/4 flits or a short live part, DM orders, DM padding, adapters,
//                  main / sub context).
//
// What the DmFetch form cannot generate, and why:
//   - zero padding in any fetched stream (`M #{0} 8`): a fetch stream term may only declare Top
//     padding (E-FETCH-018, docs/datapath.md §3), even where the DM buffer holds that very `#{0}`
//     digit; the DmFetch streams are Top-padded and the DM buffers hold `#` or `#{0}`;
//   - a fetch packet that is not whole 8 B words (Collect's input rule, E-COLLECT-004), or whose
//     contiguous part is not whole bytes (main) / 8 B words (sub) (E-FETCH-015): an i4 gather,
//     a sub-context gather;
//   - a padded axis with one live element (`K # 2`, K = 1) inside a sub-context packet: a
//     one-element axis has no digit in the buffer's normal form, so the derivation reads `K # 2`
//     as a stride-0 broadcast (docs/datapath.md §4 "does not occur in Buf"), which leaves less than
//     8 B contiguous (E-FETCH-015); such a TRF is fetched in the main context.
//
// Findings (spec-valid kernels today's code gets wrong; generated only on request, see
// KernelGenOptions; reproducers in the helper's report):
//   1. a padded OutTime digit whose live extent does not divide its padded extent (`M # 3` with
//      M = 2, `B # 5` with B = 3): lowering fails with E-RUN-101 "internal: the packet-cycle
//      boundaries do not nest";
//   2. a padded K cut into a Time and a Packet digit (`K # 64 / 32`, `K # 64 % 32`, K = 54): the
//      checker accepts (normal forms, docs/mapping.md §4.2 exception (a)), the layout refuses with
//      E-RUN-002 "overshoots axis K" (it evaluates the surface `map`);
//   3. zero padding of a K that lies only in OutPacket (`K #{0} 32`, K = 4): docs/contraction.md §0
//      `strip` drops only Top padding (depth 5), the verifier's remove_padding drops any kind
//      (depth 2);
//   4. Top-padded whole reduced Time positions (`K # 32` in Time, K = 20, both operands Top):
//      hardware adds those flits' products into the slot, the poison analysis skips padded
//      packet cycles and reports nothing;
//   5. a padded K whose reduced time part is two OutTime digits (`K # 32 / 4, M, K # 32 / 2 % 2`,
//      K = 6): TrfElementNotSequenced (E-OUTER-011), though the two digits walk every TRF row.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tujit::testing {

/// How the kernel receives its operands.
enum class KernelForm {
  /// `CollectTensor` parameters for the stream and the TRF source (`.to_trf()` in the kernel):
  /// what `tujit run` (harness/run/run_pipeline.h) can feed today.
  CollectParams,
  /// A whole chain from `DmTensor` parameters (`ctx.main.begin(..).fetch().collect()`, the TRF
  /// source in `ctx.sub` or `ctx.main`): each DM buffer laid out in the order its fetch reads it,
  /// fetch packets of one, two or four flits or a short live part, identity `fetch_cast` and, for
  /// i5/i9, `fetch_zero_point_sub` (tests/support/kernel_gen_fetch.h). Every fetch and collect
  /// passes the checker by construction. All padding the streams carry is Top (a fetch cannot
  /// promise zeros, E-FETCH-018); the DM buffers may hold `#{0}` there.
  DmFetch,
  /// Either, half each.
  Mixed,
};

struct KernelGenOptions {
  bool allow_i8 = true;             // i8 × i8 (with allow_all_types = false: bf16 and i8 only)
  bool allow_broadcast = true;      // time broadcast of a TRF-only axis B / an axis X in neither
  bool allow_sequential = true;     // LaneMode::Sequential as well as Interleaved
  bool allow_all_types = true;      // every legal operand pair of §2.1
  bool allow_padding = true;        // `#` / `#{0}` on M, K, N, J, B and P2
  bool allow_partial_packet = true; // tree depth d < log2|OP| (J columns)
  bool allow_spatial = true;        // an axis S over Slice / Cluster
  /// K padding that leaves whole reduced Time positions as padding (K in Time, `K # 32` with
  /// K = 20): finding 4 below. Off by default.
  bool allow_padded_reduced_cycles = false;
  /// Also generate the spec-valid shapes of findings 1–3 and 5 below. Off by default.
  bool allow_known_findings = false;
  KernelForm form = KernelForm::CollectParams;
};

/// The values the book's formulas give for a generated kernel, computed by the generator from its
/// own choices (never by the verifiers).
struct KernelGenExpected {
  std::uint64_t pack_size = 1;
  std::uint64_t time_broadcast = 1;   // TB = |OT| · PackSize / |Time| (padded extents)
  std::uint64_t lanes = 1;            // |Lane| (padding included)
  std::uint64_t read_size = 1;        // RS (elements)
  std::uint64_t packet_broadcast = 1; // |PB| = |OP| / RS
  bool wide_read = false;             // RS · bits > 256
  std::uint64_t depth = 0;            // d of the Packet Reducer
  std::uint64_t out_columns = 1;      // |P2|
  std::uint64_t live_columns = 1;     // live columns of P2
  std::uint64_t inner_time = 1;       // InnerTime (§7)
  std::uint64_t flits_per_lane = 1;   // FPL of to_trf = |Element| / FE
  std::uint64_t output_flits = 1;     // |T3|: 8-element output flits per slice
};

/// What the kernel exercises (for distribution reports and filtering).
struct KernelGenFeatures {
  std::string stream_type, trf_type, accumulator;
  std::string mode;                 // "Interleaved" / "Sequential"
  std::string packet;               // "full", "partial-stream", "partial-shared", "partial-pad"
  std::string form;                 // "collect" / "dm"
  std::vector<std::string> fetch;   // DmFetch variations, e.g. "stream:wide2", "trf:row-pad"
  std::vector<std::string> padding; // e.g. "M:top", "K:zero", "lane:top", "out"
  bool k_in_time = false;           // K has a reduced time digit
  bool k_split_outer = false;       // a reduced K digit outside M (InnerTime > 1 possible)
  bool broadcast_trf = false, broadcast_pure = false, spatial = false;
};

struct GeneratedKernel {
  std::string spec;        // the whole file
  std::string kernel_name; // the fn name
  std::string description; // e.g. "bf16×bf16 L=4 PS=2 Sequential d=5 M=4 K=64 B=3"
  KernelGenExpected expected;
  KernelGenFeatures features;
  /// A live output depends on Top padding content (a Top-padded reduced K): the engines must
  /// report poisoned outputs; their values still follow the ABSENT rule (§9.4).
  bool expected_poison = false;
  /// Set when the float64 oracle cannot describe the kernel, with the reason (none today).
  std::string oracle_not_applicable;
};

class KernelGenerator {
public:
  KernelGenerator(std::uint64_t seed, KernelGenOptions options = {});
  GeneratedKernel next();

private:
  std::mt19937_64 rng_;
  KernelGenOptions opt_;
  std::uint64_t count_ = 0;
  std::uint64_t pick(std::initializer_list<std::uint64_t> choices);
  std::uint64_t range(std::uint64_t lo, std::uint64_t hi); // uniform in [lo, hi]
  bool coin(double p);
  bool try_next(GeneratedKernel& out);
};

} // namespace tujit::testing

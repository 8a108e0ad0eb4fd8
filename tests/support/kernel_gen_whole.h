// The HBM side of a generated whole kernel (KernelForm::Whole, tests/support/kernel_gen.h): each
// operand an HbmTensor parameter moved into its DM buffer by `to_dm` (docs/dma.md), and the
// contraction's result through the output path (docs/output-path.md) into a DmTensor returned by
// `to_hbm`. Every choice passes the checker by construction, for the reason given where it is
// drawn (kernel_gen_whole.cpp).
//
// The variations:
//   to_dm        the implicit form (`let x: DmTensor<…> = x.to_dm(&mut ctx.tdma)`) or the explicit
//                one (`x.to_dm::<Cluster, Slice, Element>(…)`); the HBM Element keeps the DM
//                buffer's innermost whole 8 B words as they are (the DMA packet, E-DMA-002) and
//                holds the outer axes unpadded, possibly in another order (`hbm-order`); an
//                axis the HBM tensor leaves out is copied along it (`broadcast`, docs/dma.md §1);
//   move         the stream fetched and collected, then committed (no contraction, `move`), in the
//                main or the sub context (docs/kernels.md §1), like the reference's
//                fetch_commit_simple;
//   cast         i32 → i4 / i8 / i16, f32 → bf16 / f8e4m3 / f8e5m2 (docs/output-path.md §1);
//   commit_trim  every valid_size of 8, 16, 24 or 32 bytes (§2.1): one that drops only padding
//                (`trim-pad`) or the tail of the packet's axis (`trim-partial`, `N = 4`);
//   commit_cast  f32 → bf16, with or without ReLU (§2.2), else the trimmed stream as it is;
//   commit       the implicit or explicit Element (`commit::<m![…]>()`), the Time pieces in the
//                stream's order or another (`commit-order`), padding kept or stripped
//                (`commit-strip`) (§3);
//   to_hbm       the implicit or explicit form; the HBM Element the DM tensor's axes unpadded,
//                possibly in another order.
#pragma once

#include "tests/support/kernel_gen_digits.h"
#include "tests/support/kernel_gen_fetch.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace tujit::testing::kernel_gen_detail {

/// One operand's HbmTensor parameter and its move into DM.
struct HbmInput {
  std::string hbm_element;           // the HbmTensor's Element (an m![…] body)
  std::string dm_element;            // the DM buffer's Element (the fetch plan's, or padded out)
  bool explicit_form = false;        // `to_dm::<Cluster, Slice, Element>` rather than inferred
  std::vector<std::string> features; // e.g. "to_dm:explicit", "hbm-order", "broadcast"
};

/// `plan`: the operand's fetch plan (its DM buffer); `bits`: the buffer's element width;
/// `spatial`: the axis the buffer's Cluster / Slice names ("S"), empty when none. Nullopt when
/// no inner run of the buffer is whole 8 B words (E-DMA-002 for every HBM layout that keeps it).
std::optional<HbmInput> plan_to_dm(std::mt19937_64& rng, const FetchPlan& plan, std::uint64_t bits,
                                   const std::string& spatial);

/// The stream that enters the output path: one 32 B flit per Time step, of the accumulator after a
/// contraction (T3 / P3) or of the stream's type after a collect (a move kernel).
struct OutputRequest {
  std::string type;    // the stream's element type: a cast only from "i32" / "f32"
  Digits time;         // its Time
  Digits packet;       // its Packet's digits, padded to one flit
  std::string spatial; // the axis of Cluster / Slice ("S"), empty when none
  bool allow_partial_trim = true;
};

struct OutputPlan {
  std::string calls;            // `.cast…`, `.commit_trim…`, `.commit_cast…`, `.commit…`
  std::string dtype;            // the committed DmTensor's and the result's element type
  std::string dm_element;       // the committed DmTensor's Element
  std::string hbm_element;      // the returned HbmTensor's Element
  bool explicit_to_hbm = false; // `to_hbm::<Element>` rather than inferred
  std::vector<std::string> features; // e.g. "cast:bf16", "commit_trim", "commit_cast_relu"
};

OutputPlan plan_output(std::mt19937_64& rng, const OutputRequest& request);

} // namespace tujit::testing::kernel_gen_detail

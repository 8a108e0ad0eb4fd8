// The DM source of one operand of a generated kernel (KernelForm::DmFetch,
// tests/support/kernel_gen.h): a DmTensor whose Element is laid out in the order the Fetch Engine
// reads it, the `fetch::<Time, Packet>()` that reads it, the Fetch Adapter calls, all chosen so
// that the fetch and the following `collect::<Time, Packet>()` pass the checker by construction
// (docs/datapath.md §4 derivation and constraints, §5 read_size and the buffer bounds, §6 adapter,
// §8 collect).
//
// The variations (each legal for the reason given where it is drawn, kernel_gen_fetch.cpp):
//   fetch packet   the collect's flit (32 B); `wide`: 2 or 4 flits (the innermost Time piece moves
//                  into the fetch packet, collect cuts it back into flits); `short`: only the live
//                  part of a packet whose outer part is padding, rounded up to whole 8 B words
//                  (collect tops it up to the flit);
//   DM order       the fetch's [Time…, Packet…] pieces (merged where adjacent); `time-order`: the
//                  Time pieces permuted; `split-packet`: the outermost packet piece moved among the
//                  Time pieces; `gather`: the packet pieces reversed (one-element reads);
//   DM padding     the padded axes the stream reads (`M # 8`) are in the DM, as `#` or `#{0}`;
//                  `row-pad`: the innermost DM row longer than the fetch reads; `outer-pad`: room
//                  after the last row for a short packet's over-read;
//   adapter        an identity `fetch_cast`, and for i5/i9 `fetch_zero_point_sub` from i4/i8 with
//   an
//                  in-range zero point (docs/contraction.md §2.2), optionally after an identity
//                  cast;
//   context        the stream in `ctx.main`; the TRF source in `ctx.sub` (8 B reads) or `ctx.main`.
#pragma once

#include "tests/support/kernel_gen_digits.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tujit::testing::kernel_gen_detail {

/// What one operand's collect must deliver.
struct FetchRequest {
  Digits time;        // the collect's Time
  Digits packet;      // the collect's Packet: one 32 B flit
  std::string type;   // the type collect delivers (i5 / i9: zero-point staged from i4 / i8)
  std::uint64_t bits; // wire bits of `type` (docs/contraction.md §1: i5 = 4, i9 = 8)
  bool sub = false;   // fetched in the sub context (fixed 8 B reads, docs/datapath.md §5)
};

struct FetchPlan {
  std::string dm_type;               // the DmTensor's element type
  std::string element;               // the DmTensor's Element (an m![…] body)
  std::string time, packet;          // fetch::<m![time], m![packet]>
  std::string adapter;               // Fetch Adapter calls, each on its own line
  std::vector<std::string> features; // the variations drawn, e.g. "wide2", "row-pad", "zp"
  Digits dm;                         // `element`'s digits, outer → inner, padding as written
  std::uint64_t outer_size = 0;      // `element`'s outer padded extent (`[…] # n`), 0 if none
};

FetchPlan plan_fetch(std::mt19937_64& rng, const FetchRequest& request);

} // namespace tujit::testing::kernel_gen_detail

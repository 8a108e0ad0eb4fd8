// book: furiosa-opt-examples/src/contract_outer_assertions.rs — i8 contraction whose two TRF lanes hold every fourth R (Lane `R / 4`)
// source: furiosa-opt-examples/src/contract_outer_assertions.rs (lane_size::valid_size_8)
// Derived from the book's kernel: HBM transfers, the TRF's fetch and store, commit and write-back
// removed; the DM operand and the TRF are parameters, the TRF's Lane is `R / 4` instead of `R`,
// and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![A = 8, B = 64, R = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

// Lane `R / 4` holds R = 0 and R = 4 (docs/mapping.md §3.1), so the output's Packet `R / 4 # 8`
// holds out[A, R] for those two R: out[a, R = 4p] = Σ_b input[a, b] · trf[R = 4p, b].
// Derived values: PackSize 2, TimeBroadcast 1, ReadSize 64 (64 B, wide), depth 6, InnerTime 1.
pub fn lane_divides_axis<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<i8, Chip, Cluster, Slice, m![A, B]>,
    trf: &TrfTensor<i8, Chip, Cluster, Slice, m![R / 4], m![B]>,
) -> ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![A], m![R / 4 # 8]> {
    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![B]>()
        .fetch_cast::<i8>()
        .collect::<m![A, B / 32], m![B % 32]>()
        .contract_outer::<m![A], m![B], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![R / 4 # 8]>(LaneMode::Interleaved)
}

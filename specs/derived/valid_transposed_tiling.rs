// book: furiosa-opt-examples/src/contract_outer_assertions.rs — time broadcast walking the TRF rows in transposed order (V, T)
// source: furiosa-opt-examples/src/contract_outer_assertions.rs (time_broadcast::valid_transposed_tiling)
// Derived from the book's kernel: HBM transfers, cast, commit and write-back removed; the DM
// operands are parameters and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![A = 8, B = 64, C = 128, D = 64, E = 32, F = 6, R = 8, T = 5, U = 3, V = 2];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

// docs/contraction.md §11 ex 17: PackSize 1, TimeBroadcast [V, T] = 10, ReadSize 32 (narrow), Rows [T, V]
// (V 32, T 64), InnerTime 1.
pub fn valid_transposed_tiling<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<i8, Chip, Cluster, Slice, m![A, E]>,
    trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![R, T, V, E]>,
) -> ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![A, V, T], m![R # 8]> {
    let trf: TrfTensor<i8, Chip, Cluster, Slice, Lane, m![T, V, E]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R, T, V], m![E]>()
        .fetch_cast::<i8>()
        .collect::<m![R, T, V], m![E]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![E]>()
        .fetch_cast::<i8>()
        .collect::<m![A], m![E]>()
        .contract_outer::<m![A, V, T], m![E], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A, V, T]>()
        .contract_lane::<m![A, V, T], m![R # 8]>(LaneMode::Interleaved)
}

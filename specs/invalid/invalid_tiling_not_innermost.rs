// expect: StreamAdapterError::OutTimeMismatch (docs/contraction.md §5.1 rule 7, §12 #14)
// tujit: expect E-OUTER-007
// source: furiosa-opt-examples/src/negative/contract_outer_assertions.rs (time_broadcast::invalid_tiling_not_innermost)
// Derived from the book's kernel: HBM transfers, cast, commit and write-back removed; the DM
// operands are parameters and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![A = 8, B = 64, C = 128, D = 64, E = 32, F = 6, R = 8, T = 5, U = 3, V = 2];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

pub fn invalid_tiling_not_innermost<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<i8, Chip, Cluster, Slice, m![A, E]>,
    trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![R, T, E]>,
) -> ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![T, A], m![R # 8]> {
    let trf: TrfTensor<i8, Chip, Cluster, Slice, Lane, m![T, E]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R, T], m![E]>()
        .fetch_cast::<i8>()
        .collect::<m![R, T], m![E]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![E]>()
        .fetch_cast::<i8>()
        .collect::<m![A], m![E]>()
        .contract_outer::<m![T, A], m![E], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![T, A]>()
        .contract_lane::<m![T, A], m![R # 8]>(LaneMode::Interleaved)
}

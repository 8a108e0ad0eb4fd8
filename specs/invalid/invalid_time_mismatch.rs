// expect: StreamAdapterError::TimeIndivisible (docs/contraction.md §5.1 rule 6, §12 #12)
// tujit: expect E-OUTER-006
// source: furiosa-opt-examples/src/negative/contract_outer_assertions.rs (time_broadcast::invalid_time_mismatch)
// Derived from the book's kernel: HBM transfers, cast, commit and write-back removed; the DM
// operands are parameters and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![A = 8, B = 64, C = 128, D = 64, E = 32, F = 6, R = 8, T = 5, U = 3, V = 2];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

pub fn invalid_time_mismatch<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<i8, Chip, Cluster, Slice, m![A, E]>,
    trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![R, E]>,
) -> ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![F], m![R # 8]> {
    let trf: TrfTensor<i8, Chip, Cluster, Slice, Lane, m![E]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R], m![E]>()
        .fetch_cast::<i8>()
        .collect::<m![R], m![E]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![E]>()
        .fetch_cast::<i8>()
        .collect::<m![A], m![E]>()
        .contract_outer::<m![F], m![E], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![F]>()
        .contract_lane::<m![F], m![R # 8]>(LaneMode::Interleaved)
}

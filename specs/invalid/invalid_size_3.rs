// expect: ToTrfError::LaneSize(3) (docs/contraction.md §4.2 rule 1, §12 #1)
// tujit: expect E-TRF-001
// source: furiosa-opt-examples/src/negative/contract_outer_assertions.rs (lane_size::invalid_size_3)
// Derived from the book's kernel: HBM transfers, cast, commit and write-back removed; the DM
// operands are parameters and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![A = 8, B = 64, C = 128, D = 64, E = 32, F = 6, R = 8, T = 5, U = 3, V = 2];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

pub fn invalid_size_3<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<i8, Chip, Cluster, Slice, m![A, B]>,
    trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![R, B]>,
) -> ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![A], m![R # 8]> {
    let trf: TrfTensor<i8, Chip, Cluster, Slice, m![1 # 3], m![R, B]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R], m![B]>()
        .fetch_cast::<i8>()
        .collect::<m![R, B / 32], m![B % 32]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![B]>()
        .fetch_cast::<i8>()
        .collect::<m![A, B / 32], m![B % 32]>()
        .contract_outer::<m![A], m![B], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![R # 8]>(LaneMode::Interleaved)
}

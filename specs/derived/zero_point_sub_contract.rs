// book: furiosa-opt-examples/src/contract_element_types.rs — i8 stream minus zero point 3 (staged as i9) against an i8 TRF
// source: furiosa-opt-examples/src/contract_element_types.rs (zero_point_sub_contract)
// Derived from the book's kernel: HBM transfers, cast, commit and write-back removed; the DM
// operands are parameters and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![A = 8, K8 = 32, K16 = 16, K4 = 64, R = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

// docs/contraction.md §11 ex 16: i9 × i8, PackSize 1, ReadSize 32 (narrow), depth 5; stream values v - 3.
pub fn zero_point_sub_contract<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<i8, Chip, Cluster, Slice, m![A, K8]>,
    trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![R, K8]>,
) -> ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![A], m![R]> {
    let trf: TrfTensor<i8, Chip, Cluster, Slice, Lane, m![K8]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R], m![K8]>()
        .fetch_cast::<i8>()
        .collect::<m![R], m![K8]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![K8]>()
        .fetch_zero_point_sub::<i9>(3)
        .collect::<m![A], m![K8]>()
        .contract_outer::<m![A], m![K8], _, _, i8>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![R]>(LaneMode::Interleaved)
}

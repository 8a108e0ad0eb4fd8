// book: furiosa-opt-examples/src/contract_element_types.rs — i4 × i4 contraction (64 elements in one 32 B flit)
// source: furiosa-opt-examples/src/contract_element_types.rs (i4_contract)
// Derived from the book's kernel: HBM transfers, cast, commit and write-back removed; the DM
// operands are parameters and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![A = 8, K8 = 32, K16 = 16, K4 = 64, R = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

// docs/contraction.md §11 ex 16: PackSize 1, ReadSize 64 (32 B, narrow), depth 6, tree latency 7,
// utilisation 1/2.
pub fn i4_contract<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<i4, Chip, Cluster, Slice, m![A, K4]>,
    trf_dm: &DmTensor<i4, Chip, Cluster, Slice, m![R, K4]>,
) -> ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![A], m![R]> {
    let trf: TrfTensor<i4, Chip, Cluster, Slice, Lane, m![K4]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R], m![K4]>()
        .fetch_cast::<i4>()
        .collect::<m![R], m![K4]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![K4]>()
        .fetch_cast::<i4>()
        .collect::<m![A], m![K4]>()
        .contract_outer::<m![A], m![K4], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![R]>(LaneMode::Interleaved)
}

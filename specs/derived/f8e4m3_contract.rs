// book: furiosa-opt-examples/src/contract_element_types.rs — f8e4m3 × f8e4m3 contraction accumulating in f32
// source: furiosa-opt-examples/src/contract_element_types.rs (f8e4m3_contract)
// Derived from the book's kernel: HBM transfers, cast, commit and write-back removed; the DM
// operands are parameters and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![A = 8, K8 = 32, K16 = 16, K4 = 64, R = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

// Derived values: PackSize 1, ReadSize 32 (32 B, narrow), depth 5, InnerTime 1.
pub fn f8e4m3_contract<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<f8e4m3, Chip, Cluster, Slice, m![A, K8]>,
    trf_dm: &DmTensor<f8e4m3, Chip, Cluster, Slice, m![R, K8]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, Slice, m![A], m![R]> {
    let trf: TrfTensor<f8e4m3, Chip, Cluster, Slice, Lane, m![K8]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R], m![K8]>()
        .fetch_cast::<f8e4m3>()
        .collect::<m![R], m![K8]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![K8]>()
        .fetch_cast::<f8e4m3>()
        .collect::<m![A], m![K8]>()
        .contract_outer::<m![A], m![K8], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![R]>(LaneMode::Interleaved)
}

// book: furiosa-opt-examples/src/contract_element_types.rs — bf16 × bf16 contraction over 16 elements (one flit)
// source: furiosa-opt-examples/src/contract_element_types.rs (bf16_contract)
// Derived from the book's kernel: HBM transfers, cast, commit and write-back removed; the DM
// operands are parameters and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![A = 8, K8 = 32, K16 = 16, K4 = 64, R = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

// Derived values: PackSize 1, ReadSize 16 (32 B, narrow), depth 4, InnerTime 1.
pub fn bf16_contract<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<bf16, Chip, Cluster, Slice, m![A, K16]>,
    trf_dm: &DmTensor<bf16, Chip, Cluster, Slice, m![R, K16]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, Slice, m![A], m![R]> {
    let trf: TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![K16]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R], m![K16]>()
        .fetch_cast::<bf16>()
        .collect::<m![R], m![K16]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![K16]>()
        .fetch_cast::<bf16>()
        .collect::<m![A], m![K16]>()
        .contract_outer::<m![A], m![K16], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![R]>(LaneMode::Interleaved)
}

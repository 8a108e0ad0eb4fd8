// book: furiosa-opt-examples/src/mnist/mod.rs — bf16 second MNIST layer: one 256-long dot product per slice (C across slices)
// source: furiosa-opt-examples/src/mnist/mod.rs (fc2_matmul)
// Derived from the book's kernel: only the TRF load and the contraction chain are kept (the
// source's HBM transfers, cast/transpose/commit tail and Switch/Vector passes are dropped); the DM
// operands are parameters and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![X = 800, H = 256, C = 16, I = 2, Dummy8 = 8, Dummy16 = 16];

type Chip = m![1];
type Cluster = m![1 # 2];

// Derived values: TRF FlitsPerLane 16 (512 B, one lane); PackSize 2, TimeBroadcast 1, ReadSize 32 (wide),
// Rows [H / 32] = 8, depth 5, H / 32 reduced, InnerTime 1.
pub fn fc2_matmul<'l>(
    ctx: &'l mut Context,
    weight_dm: &DmTensor<bf16, Chip, Cluster, m![C, 1 # 16], m![H]>,
    input_dm: &DmTensor<bf16, Chip, Cluster, m![C, 1 # 16], m![H]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, m![C, 1 # 16], m![1], m![1 # 8]> {
    let input_trf: TrfTensor<bf16, Chip, Cluster, m![C, 1 # 16], m![1], m![H]> = ctx
        .sub
        .begin(input_dm.view())
        .fetch::<m![1], m![H]>()
        .collect::<m![H / 16], m![H % 16]>()
        .to_trf();

    ctx.main
        .begin(weight_dm.view())
        .fetch::<m![H / 16], m![H % 16]>()
        .collect::<m![H / 16], m![H % 16]>()
        .contract_outer::<m![H / 32], m![H % 32], _, _, _>(&input_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![1]>()
        .contract_lane::<m![1], m![1 # 8]>(LaneMode::Interleaved)
}

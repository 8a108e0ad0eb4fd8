// book: furiosa-opt-examples/src/transformer/kernel/mlp.rs — bf16 down projection, H % 8 across lanes, whole L reduced
// source: furiosa-opt-examples/src/transformer/kernel/mlp.rs (forward, the `down` contraction)
// Derived from the book's kernel: only the TRF load and the contraction chain are kept (the
// source's HBM transfers, cast/transpose/commit tail and Switch/Vector passes are dropped); the DM
// operands are parameters and the kernel returns the contract_lane stream.
// The book's function-local `type SliceD` is moved to the top level.
use furiosa_opt_std::prelude::*;

axes![
    H = 1024,
    C = 64,
    P = 1024,
    E = 32768,
    Q = 2048,
    W = 151936,
    Wp = 155648,
    N = 8,
    G = 2,
    D = 128,
    L = 3072,
    T = 512,
    Dummy4 = 4,
    Dummy64 = 64,
];

type Chip = m![1];
type Cluster = m![1 # 2];
type SliceD = m![H / 8, 1 # 2];

// Derived values: TRF FlitsPerLane 192, 6 KiB per lane; PackSize 2, TimeBroadcast 1, ReadSize 32 (wide),
// Rows [L / 32], depth 5, L / 32 reduced, InnerTime 1.
pub fn forward<'l>(
    ctx: &'l mut Context,
    input: &DmTensor<bf16, Chip, Cluster, SliceD, m![L]>,
    weight: &DmTensor<bf16, Chip, Cluster, SliceD, m![H % 8, L]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, SliceD, m![1], m![H % 8]> {
    let weight_trf: TrfTensor<bf16, Chip, Cluster, SliceD, m![H % 8], m![L]> = ctx
        .sub
        .begin(weight.view())
        .fetch::<m![H % 8, L / 16], m![L % 16]>()
        .collect::<m![H % 8, L / 16], m![L % 16]>()
        .to_trf();

    ctx.main
        .begin(input.view())
        .fetch::<m![L / 16], m![L % 16]>()
        .collect::<m![L / 16], m![L % 16]>()
        .contract_outer::<m![L / 32], m![L % 32], _, _, _>(&weight_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![1]>()
        .contract_lane::<m![1], m![H % 8]>(LaneMode::Interleaved)
}

// book: furiosa-opt-examples/src/transformer/kernel/mlp.rs — bf16 up / gate projection (the two chains are identical), L / 8 % 3 time-broadcast
// source: furiosa-opt-examples/src/transformer/kernel/mlp.rs (forward, the `up` and `gate` contractions)
// Derived from the book's kernel: only the TRF load and the contraction chain are kept (the
// source's HBM transfers, cast/transpose/commit tail and Switch/Vector passes are dropped); the DM
// operands are parameters and the kernel returns the contract_lane stream.
// The book's function-local `type SliceUG` is moved to the top level.
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
type SliceUG = m![L / 24, 1 # 2];

// docs/contraction.md §11 ex 13 (mlp "up"): TRF FlitsPerLane 192, 6 KiB per lane; PackSize 2,
// TimeBroadcast [L / 8 % 3] = 3, ReadSize 32 (wide), depth 5, InnerTime 3.
pub fn forward<'l>(
    ctx: &'l mut Context,
    input: &DmTensor<bf16, Chip, Cluster, SliceUG, m![H]>,
    weight: &DmTensor<bf16, Chip, Cluster, SliceUG, m![L % 24, H]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, SliceUG, m![L / 8 % 3], m![L % 8]> {
    let weight_trf: TrfTensor<bf16, Chip, Cluster, SliceUG, m![L % 8], m![L / 8 % 3, H]> = ctx
        .sub
        .begin(weight.view())
        .fetch::<m![L % 8, L / 8 % 3, H / 16], m![H % 16]>()
        .collect::<m![L % 8, L / 8 % 3, H / 16], m![H % 16]>()
        .to_trf();

    ctx.main
        .begin(input.view())
        .fetch::<m![H / 16], m![H % 16]>()
        .collect::<m![H / 16], m![H % 16]>()
        .contract_outer::<m![H / 32, L / 8 % 3], m![H % 32], _, _, _>(&weight_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![L / 8 % 3]>()
        .contract_lane::<m![L / 8 % 3], m![L % 8]>(LaneMode::Interleaved)
}

// book: furiosa-opt-examples/src/transformer/kernel/lm_head.rs — bf16 vocabulary projection (one 8192-row tile of Wp) with Wp / 8 % 2 time-broadcast
// source: furiosa-opt-examples/src/transformer/kernel/lm_head.rs (forward, body of the `for i in 0..19` loop)
// Derived from the book's kernel: only the TRF load and the contraction chain are kept (the
// source's HBM transfers, cast/transpose/commit tail and Switch/Vector passes are dropped); the DM
// operands are parameters and the kernel returns the contract_lane stream.
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
type Cluster = m![Wp / 4096 % 2];
type Slice = m![Wp / 16 % 256];

// docs/contraction.md §11 ex 13: TRF FlitsPerLane 128; PackSize 2, TimeBroadcast [Wp / 8 % 2] = 2, ReadSize 32
// (wide), Rows [Wp / 8 % 2, H / 32], depth 5, H / 32 outermost reduced, InnerTime 2.
pub fn forward<'l>(
    ctx: &'l mut Context,
    input: &DmTensor<bf16, Chip, Cluster, Slice, m![H]>,
    weight: &DmTensor<bf16, Chip, Cluster, Slice, m![Wp % 16, H]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, Slice, m![Wp / 8 % 2], m![Wp % 8]> {
    let weight_trf: TrfTensor<bf16, Chip, Cluster, Slice, m![Wp % 8], m![Wp / 8 % 2, H]> = ctx
        .sub
        .begin(weight.view())
        .fetch::<m![Wp % 8, Wp / 8 % 2, H / 16], m![H % 16]>()
        .collect::<m![Wp % 8, Wp / 8 % 2, H / 16], m![H % 16]>()
        .to_trf();

    ctx.main
        .begin(input.view())
        .fetch::<m![H / 16], m![H % 16]>()
        .collect::<m![H / 16], m![H % 16]>()
        .contract_outer::<m![H / 32, Wp / 8 % 2], m![H % 32], _, _, _>(&weight_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![Wp / 8 % 2]>()
        .contract_lane::<m![Wp / 8 % 2], m![Wp % 8]>(LaneMode::Interleaved)
}

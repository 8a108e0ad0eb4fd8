// book: furiosa-opt-examples/src/transformer/kernel/projection.rs — bf16 output projection on 4 lanes, H % 4 time-broadcast
// source: furiosa-opt-examples/src/transformer/kernel/projection.rs (proj_o)
// Derived from the book's kernel: only the TRF load and the contraction chain are kept (the
// source's HBM transfers, cast/transpose/commit tail and Switch/Vector passes are dropped); the DM
// operands are parameters and the kernel returns the contract_lane stream.
// The book's function-local `type SliceO` is moved to the top level.
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
type SliceO = m![H / 16, 1 # 4];

// docs/contraction.md §11 ex 15: TRF FlitsPerLane 512, 16 KiB per lane × 4 = 64 KiB; PackSize 2,
// TimeBroadcast [H % 4] = 4, ReadSize 32 (wide), Rows [H % 4, Q / 32], depth 5, InnerTime 4,
// OutPacket [H / 4 % 4 # 8], MAC utilisation 1/2.
pub fn proj_o<'l>(
    ctx: &'l mut Context,
    input: &DmTensor<bf16, Chip, Cluster, SliceO, m![Q]>,
    weight: &DmTensor<bf16, Chip, Cluster, SliceO, m![H % 16, Q]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, SliceO, m![H % 4], m![H / 4 % 4 # 8]> {
    let weight_trf: TrfTensor<bf16, Chip, Cluster, SliceO, m![H / 4 % 4], m![H % 4, Q]> = ctx
        .sub
        .begin(weight.view())
        .fetch::<m![H % 16, Q / 16], m![Q % 16]>()
        .collect::<m![H % 16, Q / 16], m![Q % 16]>()
        .to_trf();

    ctx.main
        .begin(input.view())
        .fetch::<m![Q / 16], m![Q % 16]>()
        .collect::<m![Q / 16], m![Q % 16]>()
        .contract_outer::<m![Q / 32, H % 4], m![Q % 32], _, _, _>(&weight_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![H % 4]>()
        .contract_lane::<m![H % 4], m![H / 4 % 4 # 8]>(LaneMode::Interleaved)
}

// book: furiosa-opt-examples/src/transformer/kernel/projection.rs — bf16 query projection, Q / 4 % 8 across lanes, Q % 4 time-broadcast
// source: furiosa-opt-examples/src/transformer/kernel/projection.rs (proj_q)
// Derived from the book's kernel: only the TRF load and the contraction chain are kept (the
// source's HBM transfers, cast/transpose/commit tail and Switch/Vector passes are dropped); the DM
// operands are parameters and the kernel returns the contract_lane stream.
// The book's function-local `type SliceQ` is moved to the top level; the input view is a DmTensor here.
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
type SliceQ = m![Q / 32, 1 # 4];

// docs/contraction.md §11 ex 11c: TRF FlitsPerLane 256, Element [Q % 4, H], 8 KiB per lane (64 KiB, full).
// Derived values: PackSize 2, TimeBroadcast [Q % 4] = 4, ReadSize 32 (wide), Rows [Q % 4, H / 32], depth 5,
// H / 32 outermost reduced, InnerTime 4.
pub fn proj_q<'l>(
    ctx: &'l mut Context,
    input: &DmTensor<bf16, Chip, Cluster, SliceQ, m![H]>,
    weight: &DmTensor<bf16, Chip, Cluster, SliceQ, m![Q % 32, H]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, SliceQ, m![Q % 4], m![Q / 4 % 8]> {
    let weight_trf: TrfTensor<bf16, Chip, Cluster, SliceQ, m![Q / 4 % 8], m![Q % 4, H]> = ctx
        .sub
        .begin(weight.view())
        .fetch::<m![Q % 32, H / 16], m![H % 16]>()
        .collect::<m![Q % 32, H / 16], m![H % 16]>()
        .to_trf();

    ctx.main
        .begin(input.view())
        .fetch::<m![H / 16], m![H % 16]>()
        .collect::<m![H / 16], m![H % 16]>()
        .contract_outer::<m![H / 32, Q % 4], m![H % 32], _, _, _>(&weight_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![Q % 4]>()
        .contract_lane::<m![Q % 4], m![Q / 4 % 8]>(LaneMode::Interleaved)
}

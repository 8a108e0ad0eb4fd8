// book: furiosa-opt-examples/src/transformer/kernel/attention.rs — bf16 attention scores q · k, T % 8 across lanes, D reduced
// source: furiosa-opt-examples/src/transformer/kernel/attention.rs (qk_scaled)
// Derived from the book's kernel: only the TRF load and the contraction chain are kept (the
// source's HBM transfers, cast/transpose/commit tail and Switch/Vector passes are dropped); the DM
// operands are parameters and the kernel returns the contract_lane stream.
// The book's function-local `type SliceQK` is moved to the top level.
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
type SliceQK = m![T / 8, 1 # 4];

// Derived values: TRF FlitsPerLane 64, 2 KiB per lane; PackSize 2, TimeBroadcast 1, ReadSize 32 (wide),
// Rows [N, D / 32] (G walked with stride 0), depth 5, D / 32 reduced innermost, InnerTime 1.
pub fn qk_scaled<'l>(
    ctx: &'l mut Context,
    q: &DmTensor<bf16, Chip, Cluster, SliceQK, m![N, G, D]>,
    k: &DmTensor<bf16, Chip, Cluster, SliceQK, m![T % 8, N, D]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, SliceQK, m![N, G], m![T % 8]> {
    let k_trf: TrfTensor<bf16, Chip, Cluster, SliceQK, m![T % 8], m![N, D]> = ctx
        .sub
        .begin(k.view())
        .fetch::<m![T % 8, N, D / 16], m![D % 16]>()
        .collect::<m![T % 8, N, D / 16], m![D % 16]>()
        .to_trf();

    ctx.main
        .begin(q.view())
        .fetch::<m![N, G, D / 16], m![D % 16]>()
        .collect::<m![N, G, D / 16], m![D % 16]>()
        .contract_outer::<m![N, G, D / 32], m![D % 32], _, _, _>(&k_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![N, G]>()
        .contract_lane::<m![N, G], m![T % 8]>(LaneMode::Interleaved)
}

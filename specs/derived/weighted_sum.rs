// book: furiosa-opt-examples/src/transformer/kernel/attention.rs — bf16 attention-weighted sum of V, D % 8 across lanes, D / 8 time-broadcast
// source: furiosa-opt-examples/src/transformer/kernel/attention.rs (weighted_sum)
// Derived from the book's kernel: only the TRF load and the contraction chain are kept (the
// source's HBM transfers, cast/transpose/commit tail and Switch/Vector passes are dropped); the DM
// operands are parameters and the kernel returns the contract_lane stream.
// The book's function-local `type SliceQV` is moved to the top level.
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
type SliceQV = m![N, T / 16];

// docs/contraction.md §11 ex 14: TRF FlitsPerLane 16; PackSize 1, TimeBroadcast [D / 8] = 16, ReadSize 16
// (32 B, narrow), Rows [D / 8], depth 4, no Time reduction, InnerTime 1.
pub fn weighted_sum<'l>(
    ctx: &'l mut Context,
    weight: &DmTensor<bf16, Chip, Cluster, SliceQV, m![G, T % 16]>,
    v: &DmTensor<bf16, Chip, Cluster, SliceQV, m![D, T % 16]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, SliceQV, m![G, D / 8], m![D % 8]> {
    let v_trf: TrfTensor<bf16, Chip, Cluster, SliceQV, m![D % 8], m![D / 8, T % 16]> = ctx
        .sub
        .begin(v.view())
        .fetch::<m![D % 8, D / 8], m![T % 16]>()
        .collect::<m![D % 8, D / 8], m![T % 16]>()
        .to_trf();

    ctx.main
        .begin(weight.view())
        .fetch::<m![G], m![T % 16]>()
        .collect::<m![G], m![T % 16]>()
        .contract_outer::<m![G, D / 8], m![T % 16], _, _, _>(&v_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![G, D / 8]>()
        .contract_lane::<m![G, D / 8], m![D % 8]>(LaneMode::Interleaved)
}

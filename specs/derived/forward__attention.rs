// book: furiosa-opt-examples/src/transformer/kernel/attention.rs — bf16 head output widened to f32 and loaded into the VRF (exactly 8 KiB)
// source: furiosa-opt-examples/src/transformer/kernel/attention.rs (forward, the result_vrf chain)
// Derived from the book's kernel: only this to_vrf chain is kept (its consumers are Vector Engine
// ops); the DM operand is a parameter.
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
type Slice = m![1 # 256];

// Derived values: N·G·D = 2048 × f32 = 8192 B per slice: the VRF exactly full (docs/contraction.md §4.3).
pub fn forward(
    ctx: &mut Context,
    result: &DmTensor<bf16, Chip, Cluster, Slice, m![N, G, D]>,
) -> VrfTensor<f32, Chip, Cluster, Slice, m![N, G, D]> {
    ctx.sub
        .begin(result.view())
        .fetch::<m![N, G, D / 16], m![D % 16]>()
        .fetch_cast::<f32>()
        .collect::<m![N, G, D / 8], m![D % 8]>()
        .to_vrf()
}

// book: furiosa-opt-examples/src/transformer/kernel/attention.rs — f32 attention mask loaded into the VRF
// source: furiosa-opt-examples/src/transformer/kernel/attention.rs (masked_exp, the mask_vrf chain)
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

// Derived values: 512 × f32 = 2048 B per slice, 64 flits.
pub fn masked_exp(
    ctx: &mut Context,
    mask: &DmTensor<f32, Chip, Cluster, Slice, m![T]>,
) -> VrfTensor<f32, Chip, Cluster, Slice, m![T]> {
    ctx.sub
        .begin(mask.view())
        .fetch::<m![T / 8], m![T % 8]>()
        .collect::<m![T / 8], m![T % 8]>()
        .to_vrf()
}

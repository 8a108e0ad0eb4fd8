// book: furiosa-opt-examples/src/transformer/kernel/mlp.rs — f32 SiLU(gate) loaded into the VRF
// source: furiosa-opt-examples/src/transformer/kernel/mlp.rs (forward, the silu_vrf chain)
// Derived from the book's kernel: only this to_vrf chain is kept (its consumers are Vector Engine
// ops); the DM operand is a parameter.
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

// Derived values: 24 × f32 = 96 B per slice, 3 flits.
pub fn forward(
    ctx: &mut Context,
    silu: &DmTensor<f32, Chip, Cluster, SliceUG, m![L % 24]>,
) -> VrfTensor<f32, Chip, Cluster, SliceUG, m![L % 24]> {
    ctx.sub
        .begin(silu.view())
        .fetch::<m![L / 8 % 3], m![L % 8]>()
        .collect::<m![L / 8 % 3], m![L % 8]>()
        .to_vrf()
}

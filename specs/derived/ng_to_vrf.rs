// book: furiosa-opt-examples/src/transformer/kernel/attention.rs — f32 per-(N, G) statistics loaded into the VRF
// source: furiosa-opt-examples/src/transformer/kernel/attention.rs (ng_to_vrf)
// The book's generic parameter `Slice: M` is instantiated with the module's Slice = m![1 # 256]
// (the type its callers forward_first / forward use).
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

// Derived values: 16 × f32 = 64 B per slice, collected as 2 flits of [N % 4, G].
pub fn ng_to_vrf(
    ctx: &mut Context,
    x: &DmTensor<f32, Chip, Cluster, Slice, m![N, G]>,
) -> VrfTensor<f32, Chip, Cluster, Slice, m![N, G]> {
    ctx.sub
        .begin(x.view())
        .fetch::<m![N / 4], m![N % 4, G]>()
        .collect::<m![N / 4], m![N % 4, G]>()
        .to_vrf()
}

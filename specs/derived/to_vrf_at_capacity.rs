// book: furiosa-opt-examples/src/to_vrf_assertions.rs — i32 VRF store that fills the 8192 B file exactly (DM form)
// Derived from the book's kernel: the HBM transfer is removed; the DM operand is a parameter.
use furiosa_opt_std::prelude::*;

axes![A = 2048];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

// Derived values: 2048 × i32 = 8192 B per slice (docs/contraction.md §4.3).
pub fn to_vrf_at_capacity(ctx: &mut Context, dm: &DmTensor<i32, Chip, Cluster, Slice, m![A]>) {
    let _vrf: VrfTensor<i32, Chip, Cluster, Slice, m![A]> = ctx
        .sub
        .begin(dm.view())
        .fetch::<m![1], m![A]>()
        .fetch_cast::<i32>()
        .collect::<m![A / 8], m![A % 8]>()
        .to_vrf();
}

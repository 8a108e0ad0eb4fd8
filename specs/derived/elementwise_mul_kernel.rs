// book: base-template/src/kernel/elementwise_mul_kernel.rs (docs/src/quick-start/kernel-design.md, Elementwise Multiply) — sub-context VRF load of the i32 rhs operand
// Derived from the book's kernel: only the to_vrf chain is kept; the HBM transfers and the Vector
// Engine multiply (vector_fxp MulInt), commit and write-back are removed.
use furiosa_opt_std::prelude::*;

axes![A = 2048];

pub type Chip = m![1];
pub type Cluster = m![1 # 2];
pub type Slice = m![A / 8 # 256];

// Derived values: 8 × i32 = 32 B per slice (one flit), within the 8192 B VRF.
pub fn elementwise_mul_kernel(
    ctx: &mut Context,
    rhs_dm: &DmTensor<i32, Chip, Cluster, Slice, m![A % 8]>,
) -> VrfTensor<i32, Chip, Cluster, Slice, m![A % 8]> {
    ctx
        .sub
        .begin(rhs_dm.view())
        .fetch::<m![1], m![A % 8]>()
        .collect::<m![A % 8 / 8], m![A % 8 % 8]>()
        .to_vrf()
}

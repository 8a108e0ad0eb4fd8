// book: base-template/src/kernel/dot_product_kernel.rs (docs/src/quick-start/kernel-design.md, Dot Product) — bf16 dot product of two 2048-vectors in one slice
// Derived from the book's kernel: HBM transfers, cast, commit and write-back removed; the DM
// operands are parameters and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![A = 2048];

pub type Chip = m![1];
pub type Cluster = m![1 # 2];
pub type Slice = m![1 # 256];
pub type Time = m![1];
pub type Lane = m![1];

// Derived values: TRF FlitsPerLane 128 (4096 B in one lane); PackSize 2, TimeBroadcast 1,
// ReadSize 32 (64 B, wide), Rows [A / 32], depth 5, A / 32 reduced in Time, InnerTime 1.
pub fn dot_product_kernel<'l>(
    ctx: &'l mut Context,
    lhs: &DmTensor<bf16, Chip, Cluster, Slice, m![A]>,
    rhs: &DmTensor<bf16, Chip, Cluster, Slice, m![A]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, Slice, m![1], m![1 # 8]> {
    let rhs: TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![A]> = ctx
        .sub
        .begin(rhs.view())
        .fetch::<Time, m![A]>()
        .collect::<m![{ Time }, A / 16], m![A % 16]>()
        .to_trf();

    ctx
        .main
        .begin(lhs.view())
        .fetch::<Time, m![A]>()
        .collect::<m![A / 16], m![A % 16]>()
        .contract_outer::<m![A / 32], m![A % 32], _, _, _>(&rhs)
        .contract_packet::<m![1]>()
        .contract_time::<m![1]>()
        .contract_lane::<m![1], m![1 # 8]>(LaneMode::Interleaved)
}

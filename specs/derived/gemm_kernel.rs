// book: base-template/src/kernel/gemm_kernel.rs (docs/src/quick-start/kernel-design.md, GEMM) — bf16 GEMM, one 32 × 32 output tile per slice
// Derived from the book's kernel: HBM transfers, cast, commit and write-back removed; the DM
// operands are parameters and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![I = 512, J = 512, K = 64];

pub type Chip = m![1];
pub type Cluster = m![1 # 2];
pub type Slice = m![I / 32, J / 32];
pub type Lane = m![J % 8];

// docs/contraction.md §11 ex 12: TRF FlitsPerLane 16; PackSize 2, TimeBroadcast 1, ReadSize 32 (wide),
// Rows [J / 8 % 4, K / 32], depth 5, K / 32 reduced innermost, InnerTime 1.
pub fn gemm_kernel<'l>(
    ctx: &'l mut Context,
    a: &DmTensor<bf16, Chip, Cluster, Slice, m![I % 32, K]>,
    b: &DmTensor<bf16, Chip, Cluster, Slice, m![J % 32, K]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, Slice, m![I % 32, J / 8 % 4], m![J % 8]> {
    let b_trf: TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![J / 8 % 4, K]> = ctx
        .sub
        .begin(b.view())
        .fetch::<m![J % 8, J / 8 % 4], m![K]>()
        .collect::<m![J % 8, J / 8 % 4, K / 16], m![K % 16]>()
        .to_trf();

    ctx
        .main
        .begin(a.view())
        .fetch::<m![I % 32, J / 8 % 4], m![K]>()
        .collect::<m![I % 32, J / 8 % 4, K / 16], m![K % 16]>()
        .contract_outer::<m![I % 32, J / 8 % 4, K / 32], m![K % 32], _, _, _>(&b_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![I % 32, J / 8 % 4]>()
        .contract_lane::<m![I % 32, J / 8 % 4], m![J % 8]>(LaneMode::Interleaved)
}

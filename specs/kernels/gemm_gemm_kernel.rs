// book: base-template/src/kernel/gemm_kernel.rs, composed — two bf16 GEMMs chained through DM, as a two-layer MLP without activation: h = a·bᵀ committed in bf16, then o = h·cᵀ
// Written for tujit: the first command is gemm_kernel with J = 32 on Slice `[I / 32]`; the second
// fetches its committed DmTensor `h` as the stream of a second contraction (docs/kernels.md §3).
use furiosa_opt_std::prelude::*;

axes![I = 8192, J = 32, K = 64, L = 8];

pub type Chip = m![1];
pub type Cluster = m![1 # 2];
pub type Slice = m![I / 32];

#[device(chip = 1)]
pub fn gemm_gemm_kernel(
    ctx: &mut Context,
    a: &HbmTensor<bf16, Chip, m![I, K]>,
    b: &HbmTensor<bf16, Chip, m![J, K]>,
    c: &HbmTensor<bf16, Chip, m![L, J]>,
) -> HbmTensor<bf16, Chip, m![I, L]> {
    let a: DmTensor<bf16, Chip, Cluster, Slice, m![I % 32, K]> = a.to_dm(&mut ctx.tdma);
    let b: DmTensor<bf16, Chip, Cluster, Slice, m![J, K]> = b.to_dm(&mut ctx.tdma);
    let c: DmTensor<bf16, Chip, Cluster, Slice, m![L, J]> = c.to_dm(&mut ctx.tdma);

    let b_trf: TrfTensor<bf16, Chip, Cluster, Slice, m![J % 8], m![J / 8, K]> = ctx
        .sub
        .begin(b.view())
        .fetch::<m![J % 8, J / 8], m![K]>()
        .collect::<m![J % 8, J / 8, K / 16], m![K % 16]>()
        .to_trf();

    let h: DmTensor<bf16, Chip, Cluster, Slice, m![I % 32, J]> = ctx
        .main
        .begin(a.view())
        .fetch::<m![I % 32, J / 8], m![K]>()
        .collect::<m![I % 32, J / 8, K / 16], m![K % 16]>()
        .contract_outer::<m![I % 32, J / 8, K / 32], m![K % 32], _, _, _>(&b_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![I % 32, J / 8]>()
        .contract_lane::<m![I % 32, J / 8], m![J % 8]>(LaneMode::Interleaved)
        .cast::<bf16, m![J % 8 # 16]>()
        .commit_trim::<m![J % 8]>()
        .commit();

    let c_trf: TrfTensor<bf16, Chip, Cluster, Slice, m![L], m![J]> = ctx
        .sub
        .begin(c.view())
        .fetch::<m![L], m![J]>()
        .collect::<m![L, J / 16], m![J % 16]>()
        .to_trf();

    let o: DmTensor<bf16, Chip, Cluster, Slice, m![I % 32, L]> = ctx
        .main
        .begin(h.view())
        .fetch::<m![I % 32], m![J]>()
        .collect::<m![I % 32, J / 16], m![J % 16]>()
        .contract_outer::<m![I % 32], m![J], _, _, _>(&c_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![I % 32]>()
        .contract_lane::<m![I % 32], m![L]>(LaneMode::Interleaved)
        .cast::<bf16, m![L # 16]>()
        .commit_trim::<m![L]>()
        .commit();

    o.to_hbm(&mut ctx.tdma)
}

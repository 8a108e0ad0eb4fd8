// expect: commit_trim keeps 2 bytes of a bf16 flit, not 8, 16, 24 or 32 (docs/output-path.md §2.1, furiosa-opt docs/src/computing-tensors/commit-adapter.md "Trimming")
// tujit: expect E-COMMIT-002
use furiosa_opt_std::prelude::*;

axes![I = 256, J = 2048];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![I];

#[device(chip = 1)]
pub fn gemv_trim_too_far(
    ctx: &mut Context,
    matrix: &HbmTensor<bf16, Chip, m![I, J]>,
    vector: &HbmTensor<bf16, Chip, m![J]>,
) -> HbmTensor<bf16, Chip, m![I]> {
    let matrix: DmTensor<bf16, Chip, Cluster, Slice, m![J]> = matrix.to_dm(&mut ctx.tdma);
    let vector: DmTensor<bf16, Chip, Cluster, Slice, m![J]> = vector.to_dm(&mut ctx.tdma);
    let vector_trf: TrfTensor<bf16, Chip, Cluster, Slice, m![1], m![J]> = ctx
        .sub
        .begin(vector.view())
        .fetch::<m![1], m![J]>()
        .collect::<m![J / 16], m![J % 16]>()
        .to_trf();
    let result: DmTensor<bf16, Chip, Cluster, Slice, m![1]> = ctx
        .main
        .begin(matrix.view())
        .fetch::<m![J / 16], m![J % 16]>()
        .collect::<m![J / 16], m![J % 16]>()
        .contract_outer::<m![J / 32], m![J % 32], _, _, _>(&vector_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![1]>()
        .contract_lane::<m![1], m![1 # 8]>(LaneMode::Interleaved)
        .cast::<bf16, m![1 # 16]>()
        .commit_trim::<m![1]>()
        .commit();
    result.to_hbm(&mut ctx.tdma)
}

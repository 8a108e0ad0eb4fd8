// book: furiosa-opt-examples/src/transformer/kernel/projection.rs (proj_q), cut — a GEMV per slice whose contract_lane result is cast to bf16, transposed by the Transpose Engine and committed
// Written for tujit from the reference's proj_q: its DmTensorView input is an HbmTensor moved by
// to_dm, and its second command (a Switch Engine broadcast) and final reshape are left out.
use furiosa_opt_std::prelude::*;

axes![H = 256, Q = 2048];

type Chip = m![1];
type Cluster = m![1 # 2];
type SliceQ = m![Q / 32, 1 # 4];

#[device(chip = 1)]
pub fn proj_transposed(
    ctx: &mut Context,
    input: &HbmTensor<bf16, Chip, m![H]>,
    weight: &HbmTensor<bf16, Chip, m![Q, H]>,
) -> HbmTensor<bf16, Chip, m![Q]> {
    let input: DmTensor<bf16, Chip, Cluster, SliceQ, m![H]> = input.to_dm(&mut ctx.tdma);
    let weight: DmTensor<bf16, Chip, Cluster, SliceQ, m![Q % 32, H]> = weight.to_dm(&mut ctx.tdma);
    let weight_trf: TrfTensor<bf16, Chip, Cluster, SliceQ, m![Q / 4 % 8], m![Q % 4, H]> = ctx
        .sub
        .begin(weight.view())
        .fetch::<m![Q % 32, H / 16], m![H % 16]>()
        .collect::<m![Q % 32, H / 16], m![H % 16]>()
        .to_trf();

    let result: DmTensor<bf16, Chip, Cluster, SliceQ, m![Q % 32]> = ctx
        .main
        .begin(input.view())
        .fetch::<m![H / 16], m![H % 16]>()
        .collect::<m![H / 16], m![H % 16]>()
        .contract_outer::<m![H / 32, Q % 4], m![H % 32], _, _, _>(&weight_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![Q % 4]>()
        .contract_lane::<m![Q % 4], m![Q / 4 % 8]>(LaneMode::Interleaved)
        .cast::<bf16, m![Q / 4 % 8 # 16]>()
        .transpose::<m![Q / 4 % 8], m![Q % 4 # 16]>()
        .commit_trim::<m![Q % 4]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

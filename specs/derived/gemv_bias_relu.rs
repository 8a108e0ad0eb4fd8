// book: base-template/src/kernel/gemv_kernel.rs with docs/src/computing-tensors/vector-engine/intra-slice-chain.md (VRF Operand, Clip Cluster) — the GEMV chain's output plus a bias read from the VRF, then ReLU
// Derived: specs/derived/gemv_relu.rs with a `&VrfTensor` bias parameter added by the Clip
// cluster's Add before the ReLU's Max; each slice's bias element is the one of its row I
// (docs/vector-engine.md §3.2).
use furiosa_opt_std::prelude::*;

axes![I = 256, J = 2048];

pub type Chip = m![1];
pub type Cluster = m![1 # 2];
pub type Slice = m![I];
pub type Time = m![J / 32];
pub type Packet = m![J % 32];
pub type Lane = m![1];

pub fn gemv_bias_relu<'l>(
    ctx: &'l mut Context,
    matrix: &DmTensor<bf16, Chip, Cluster, Slice, m![J]>,
    vector: &DmTensor<bf16, Chip, Cluster, Slice, m![J]>,
    bias: &VrfTensor<f32, Chip, Cluster, Slice, m![1 # 8]>,
) -> VrfTensor<f32, Chip, Cluster, Slice, m![1 # 8]> {
    let vector_trf: TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![J]> = ctx
        .sub
        .begin(vector.view())
        .fetch::<m![1], m![J]>()
        .collect::<m![J / 16], m![J % 16]>()
        .to_trf();

    ctx
        .main
        .begin(matrix.view())
        .fetch::<m![J / 16], m![J % 16]>()
        .collect::<m![J / 16], m![J % 16]>()
        .contract_outer::<Time, Packet, _, _, _>(&vector_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![1]>()
        .contract_lane::<m![1], m![1 # 8]>(LaneMode::Interleaved)
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_clip(ClipBinaryOpF32::Add, bias)
        .vector_clip(ClipBinaryOpF32::Max, 0.0f32)
        .vector_final()
        .to_vrf(&mut ctx.sub)
}

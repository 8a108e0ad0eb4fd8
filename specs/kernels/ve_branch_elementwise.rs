// book: furiosa-opt-examples/src/vector_engine/branch.rs — f32: TagMode::Comparison tags (zero / positive / negative / sign bit clear), a guarded BitAnd mask, a guarded FmaF pair, a Clip Max whose negative elements take an immediate and the rest a VRF, commit, DM → HBM
// The kernel as the reference writes it (its comments left out), its module header
// (furiosa-opt-examples/src/vector_engine.rs) inlined; the header's `Chip` and `Cluster`, which
// branch.rs shadows with its own, are left out.
use furiosa_opt_std::prelude::*;
// branch.rs's own import.
use furiosa_opt_std::prelude::BitReq::{Ignore, One, Zero};

axes![
    A = 512,
    B = 256,
    I = 2,
    Q = 2,
    R = 4,
    R16 = 16,
    S = 15,
    T = 4,
    P = 8,
    W = 64
];

axes![BP = 64, BA = 4, BT = 8];

type Chip = m![1];
type Cluster = m![1];

#[device(chip = 1, pe = 1)]
pub fn ve_elementwise_branched(
    ctx: &mut Context,
    input: &HbmTensor<f32, Chip, m![BP, BA, BT]>,
    scale: &HbmTensor<f32, Chip, m![BP, BT]>,
) -> HbmTensor<f32, Chip, m![BP, BA, BT]> {
    let input_dm = input.to_dm::<Cluster, m![BP], m![BA, BT]>(&mut ctx.tdma);
    let scale_dm = scale.to_dm::<Cluster, m![BP], m![BT]>(&mut ctx.tdma);

    let scale_vrf: VrfTensor<f32, Chip, Cluster, m![BP], m![BT]> = ctx
        .sub
        .begin(scale_dm.view())
        .fetch::<m![1], m![BT]>()
        .collect::<m![1], m![BT]>()
        .to_vrf();

    let nonzero = TagGuard::not_matches([One, Ignore, Ignore, Ignore]);
    let negative = TagGuard::matches([Zero, Zero, One, Ignore]);

    let result: DmTensor<f32, Chip, Cluster, m![BP], m![BA, BT]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![BA], m![BT]>()
        .collect::<m![BA], m![BT]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Comparison([
            Cmp::Equal(0.0),
            Cmp::Greater(0.0),
            Cmp::Less(0.0),
            Cmp::LessUnsigned(-0.0),
        ]))
        .vector_logic(LogicBinaryOpF32::BitAnd, Branched::imm(negative, 0.0f32))
        .vector_narrow_split::<m![BA, BT / 4], m![BT % 4]>()
        .vector_fp_ternary(FpTernaryOp::FmaF, Branched::imm(nonzero, (-2.0f32, 10.0f32)))
        .vector_widen_concat::<m![BA], m![BT]>()
        .vector_clip(
            ClipBinaryOpF32::Max,
            Branched::imm(negative, 1.0f32).rf(TagGuard::all(), &scale_vrf),
        )
        .vector_final()
        .commit_trim::<m![BT]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

// book: furiosa-opt-examples/src/vector_engine/normal.rs — f32: FmaF with TernaryArgMode::Mode120, fma(2, 1, x) = 2 + x, on a trimmed Way4 stretch, commit, DM → HBM
// The kernel as the reference writes it, its module header (furiosa-opt-examples/src/vector_engine.rs) inlined.
use furiosa_opt_std::prelude::*;

type Chip = m![1];
type Cluster = m![1 # 2];
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

#[device(chip = 1)]
pub fn ve_elementwise_fp_ternary_with_mode(
    ctx: &mut Context,
    input: &HbmTensor<f32, Chip, m![A]>,
) -> HbmTensor<f32, Chip, m![A]> {
    let input_dm = input.to_dm::<Cluster, m![A / 2], m![A % 2]>(&mut ctx.tdma);

    let result: DmTensor<f32, Chip, Cluster, m![A / 2], m![A % 2]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![1], m![A % 2]>()
        .fetch_cast::<f32>()
        .collect::<m![1], m![A % 2 # 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_fp_ternary_with_mode(FpTernaryOp::FmaF, TernaryArgMode::Mode120, (2.0f32, 1.0f32))
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_final()
        .commit_trim::<m![A % 2]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}


// book: furiosa-opt-examples/src/vector_engine/zip.rs — i32 [Q, A] → f32: two HBM tensors fetched interleaved packet by packet (OutTime `[Q, I]`), pair mode `vector_fxp_to_fp(31)`, split, MulF zip, concat, commit, DM → HBM
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
pub fn ve_group_pair_fp_multi_packet(
    ctx: &mut Context,
    lhs: &HbmTensor<i32, Chip, m![Q, A]>,
    rhs: &HbmTensor<i32, Chip, m![Q, A]>,
) -> HbmTensor<f32, Chip, m![Q, A]> {
    let lhs_dm = lhs.to_dm::<Cluster, m![A / 2], m![Q, A % 2]>(&mut ctx.tdma);
    let rhs_dm = rhs.to_dm::<Cluster, m![A / 2], m![Q, A % 2]>(&mut ctx.tdma);

    let result: DmTensor<f32, Chip, Cluster, m![A / 2], m![Q, A % 2]> = ctx
        .main
        .begin_interleaved::<I, _, _, _, _, _>(lhs_dm.view(), rhs_dm.view())
        .fetch::<m![Q, I], m![A % 2]>()
        .fetch_cast::<i32>()
        .collect::<m![Q, I], m![A % 2 # 8]>()
        .vector_init()
        .vector_intra_slice_unzip::<I, m![Q, 1 # 2], m![Q]>()
        .vector_fxp_to_fp(31)
        .vector_narrow_split::<m![Q, 1 # 2], m![A % 2 # 4]>()
        .vector_fp_zip(FpBinaryOp::MulF(FpMulAlu::Mul0))
        .vector_widen_concat::<m![Q], m![A % 2 # 8]>()
        .vector_final()
        .commit_trim::<m![A % 2]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

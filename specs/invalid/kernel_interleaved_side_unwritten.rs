// expect: one side of a begin_interleaved fetch is a DmTensor no command wrote (docs/kernels.md §2)
// tujit: expect E-KERNEL-001
use furiosa_opt_std::prelude::*;

type Chip = m![1];
type Cluster = m![1 # 2];
axes![A = 512, I = 2];

#[device(chip = 1)]
pub fn interleaved_side_unwritten(
    ctx: &mut Context,
    lhs: &HbmTensor<i32, Chip, m![A]>,
) -> HbmTensor<i32, Chip, m![A]> {
    let lhs_dm = lhs.to_dm::<Cluster, m![A / 2], m![A % 2]>(&mut ctx.tdma);
    let rhs_dm: DmTensor<i32, Chip, Cluster, m![A / 2], m![A % 2]> = DmTensor::new();

    let result: DmTensor<i32, Chip, Cluster, m![A / 2], m![A % 2]> = ctx
        .main
        .begin_interleaved::<I, _, _, _, _, _>(lhs_dm.view(), rhs_dm.view())
        .fetch::<m![I], m![A % 2]>()
        .fetch_cast::<i32>()
        .collect::<m![I], m![A % 2 # 8]>()
        .vector_init()
        .vector_intra_slice_unzip::<I, m![1 # 2], m![1]>()
        .vector_fxp(FxpBinaryOp::MulInt, 2, 3)
        .vector_clip_zip(ClipBinaryOpI32::AddFxp)
        .vector_final()
        .commit_trim::<m![A % 2]>()
        .commit();
    result.to_hbm(&mut ctx.tdma)
}

// expect: E-TYPE-029 19:26   (commit_view into a view that is not a view_mut)
use furiosa_opt_std::prelude::*;

axes![A = 8, B = 32];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
pub fn k(ctx: &mut Context, input: &HbmTensor<i8, Chip, m![A, B]>) -> HbmTensor<i8, Chip, m![A, B]> {
    let input_dm = input.to_dm::<Cluster, Slice, m![A, B]>(&mut ctx.tdma);
    let mut out: DmTensor<i8, Chip, Cluster, Slice, m![A, B]> = DmTensor::new();
    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![B]>()
        .collect::<m![A], m![B]>()
        .commit_trim::<m![B]>()
        .commit_view(out.view());
    out.to_hbm(&mut ctx.tdma)
}

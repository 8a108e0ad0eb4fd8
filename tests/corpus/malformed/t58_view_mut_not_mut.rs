// expect: E-TYPE-029 17:55   (view_mut of a parameter not written &mut)
use furiosa_opt_std::prelude::*;

axes![A = 8, B = 32];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
pub fn k(
    ctx: &mut Context,
    input: &HbmTensor<i8, Chip, m![A, B]>,
    output: &HbmTensor<i8, Chip, m![A, B]>,
) {
    let input_dm = input.to_dm::<Cluster, Slice, m![A, B]>(&mut ctx.tdma);
    input_dm.view().to_hbm_view(&mut ctx.tdma, output.view_mut());
}

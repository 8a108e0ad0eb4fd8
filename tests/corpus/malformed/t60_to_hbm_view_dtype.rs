// expect: E-TYPE-013 14:28   (to_hbm_view into an output parameter of another scalar type)
use furiosa_opt_std::prelude::*;

axes![A = 8, B = 32];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

#[device(chip = 1)]
pub fn k(
    ctx: &mut Context,
    input: &HbmTensor<i8, Chip, m![A, B]>,
    output: &mut HbmTensor<bf16, Chip, m![A, B]>,
) {
    let input_dm = input.to_dm::<Cluster, Slice, m![A, B]>(&mut ctx.tdma);
    input_dm.view().to_hbm_view(&mut ctx.tdma, output.view_mut());
}

// expect: the sub context's Commit Adapter has no cast (docs/output-path.md §2.2, furiosa-opt docs/src/computing-tensors/commit-adapter.md)
// tujit: expect E-CTX-006
use furiosa_opt_std::prelude::*;

axes![A = 2048];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![A / 8 # 256];

#[device(chip = 1)]
pub fn cast_on_sub(ctx: &mut Context, input: &HbmTensor<f32, Chip, m![A]>) -> HbmTensor<bf16, Chip, m![A]> {
    let dm = input.to_dm::<Cluster, Slice, m![A % 8]>(&mut ctx.tdma);
    let out: DmTensor<bf16, Chip, Cluster, Slice, m![A % 8]> = ctx
        .sub
        .begin(dm.view())
        .fetch::<m![1], m![A % 8]>()
        .collect::<m![1], m![A % 8]>()
        .commit_trim::<m![A % 8]>()
        .commit_cast::<bf16>()
        .commit();
    out.to_hbm(&mut ctx.tdma)
}

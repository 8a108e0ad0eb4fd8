// expect: the Cast Engine narrows i32 only to i4, i8 or i16 (docs/output-path.md §1, furiosa-opt docs/src/computing-tensors/cast-engine.md "Supported Casts")
// tujit: expect E-CAST-001
use furiosa_opt_std::prelude::*;

axes![A = 2048];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![A / 8 # 256];

#[device(chip = 1)]
pub fn cast_i32_to_bf16(ctx: &mut Context, input: &HbmTensor<i32, Chip, m![A]>) -> HbmTensor<bf16, Chip, m![A]> {
    let dm = input.to_dm::<Cluster, Slice, m![A % 8]>(&mut ctx.tdma);
    let out: DmTensor<bf16, Chip, Cluster, Slice, m![A % 8]> = ctx
        .main
        .begin(dm.view())
        .fetch::<m![1], m![A % 8]>()
        .collect::<m![1], m![A % 8]>()
        .cast::<bf16, m![A % 8 # 16]>()
        .commit_trim::<m![A % 8]>()
        .commit();
    out.to_hbm(&mut ctx.tdma)
}

// expect: a DmTensor fetched before any command wrote it (docs/kernels.md §2)
// tujit: expect E-KERNEL-001
use furiosa_opt_std::prelude::*;

axes![A = 2048];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![A / 8 # 256];

#[device(chip = 1)]
pub fn reads_unwritten(ctx: &mut Context, input: &HbmTensor<i32, Chip, m![A]>) -> HbmTensor<i32, Chip, m![A]> {
    let _dm = input.to_dm::<Cluster, Slice, m![A % 8]>(&mut ctx.tdma);
    let scratch: DmTensor<i32, Chip, Cluster, Slice, m![A % 8]> = DmTensor::new();
    let out: DmTensor<i32, Chip, Cluster, Slice, m![A % 8]> = ctx
        .main
        .begin(scratch.view())
        .fetch::<m![1], m![A % 8]>()
        .collect::<m![1], m![A % 8]>()
        .commit_trim::<m![A % 8]>()
        .commit();
    out.to_hbm(&mut ctx.tdma)
}

// expect: the DM tensor holds only 8 of the 2048 elements the HBM tensor moves (docs/dma.md §1)
// tujit: expect E-DMA-001
use furiosa_opt_std::prelude::*;

axes![A = 2048];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![A / 8 # 256];

#[device(chip = 1)]
pub fn lossy_to_dm(ctx: &mut Context, input: &HbmTensor<i32, Chip, m![A]>) -> HbmTensor<i32, Chip, m![A % 8]> {
    let dm = input.to_dm::<Cluster, m![1 # 256], m![A % 8]>(&mut ctx.tdma);
    dm.to_hbm(&mut ctx.tdma)
}

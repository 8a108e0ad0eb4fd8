// expect: a DMA write into DM whose packet is one byte (docs/dma.md §2, furiosa-opt docs/src/moving-tensors/dma-engine.md "Constraints")
// tujit: expect E-DMA-002
use furiosa_opt_std::prelude::*;

axes![A = 64, B = 4];

#[device(chip = 1)]
pub fn transposing_to_dm(ctx: &mut Context, input: &HbmTensor<i8, m![1], m![A, B]>) -> HbmTensor<i8, m![1], m![A, B]> {
    let dm = input.to_dm::<m![1 # 2], m![1 # 256], m![B, A]>(&mut ctx.tdma);
    dm.to_hbm(&mut ctx.tdma)
}

// expect: a DMA transfer issued on a Tensor Unit context (docs/dma.md §2, furiosa-opt docs/src/moving-tensors/dma-engine.md "Interface")
// tujit: expect E-CTX-005
use furiosa_opt_std::prelude::*;

axes![A = 2048];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![A / 8 # 256];

#[device(chip = 1)]
pub fn dma_on_main(ctx: &mut Context, input: &HbmTensor<i32, Chip, m![A]>) -> HbmTensor<i32, Chip, m![A]> {
    let dm = input.to_dm::<Cluster, Slice, m![A % 8]>(&mut ctx.main);
    let out: DmTensor<i32, Chip, Cluster, Slice, m![A % 8]> = ctx
        .main
        .begin(dm.view())
        .fetch::<m![1], m![A % 8]>()
        .collect::<m![1], m![A % 8]>()
        .commit_trim::<m![A % 8]>()
        .commit();
    out.to_hbm(&mut ctx.tdma)
}

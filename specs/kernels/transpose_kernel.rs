// book: docs/src/computing-tensors/transpose-engine.md (Interface) wrapped in a whole kernel — HBM → DM → fetch → collect → transpose → commit_trim → commit → HBM
// The book's running example, fed from HBM: each slice transposes its [C, D · E] = 8 × 16 i8
// matrices (two, B) and returns them as [D · E, C].
use furiosa_opt_std::prelude::*;

axes![P = 256, B = 2, C = 8, D = 2, E = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![P];

#[device(chip = 1)]
pub fn transpose_kernel(
    ctx: &mut Context,
    input: &HbmTensor<i8, Chip, m![P, B, C, D, E]>,
) -> HbmTensor<i8, Chip, m![P, B, D, E, C]> {
    let input_dm: DmTensor<i8, Chip, Cluster, Slice, m![B, C, D, E]> = input.to_dm(&mut ctx.tdma);

    let output_dm: DmTensor<i8, Chip, Cluster, Slice, m![B, D, E, C]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![B, C, D], m![E]>()
        .collect::<m![B, C, D], m![E # 32]>()
        .transpose::<m![B, D, E], m![C # 32]>()
        .commit_trim::<m![C]>()
        .commit();

    output_dm.to_hbm(&mut ctx.tdma)
}

// book: docs/src/computing-tensors/transpose-engine.md (32-bit Data Type) wrapped in a whole kernel — a ReLU pass (furiosa-opt docs/src/computing-tensors/vector-engine/index.md) feeding the Transpose Engine from VectorFinalTensor
// The book's f32 example after a Vector Engine pass: max(x, 0) on every element, then each
// slice's [D, E] = 2 × 8 matrices (four, B) are transposed to [E, D] and returned.
use furiosa_opt_std::prelude::*;

axes![P = 256, B = 4, D = 2, E = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![P];

#[device(chip = 1)]
pub fn transpose_relu_kernel(
    ctx: &mut Context,
    input: &HbmTensor<f32, Chip, m![P, B, D, E]>,
) -> HbmTensor<f32, Chip, m![P, B, E, D]> {
    let input_dm: DmTensor<f32, Chip, Cluster, Slice, m![B, D, E]> = input.to_dm(&mut ctx.tdma);

    let output_dm: DmTensor<f32, Chip, Cluster, Slice, m![B, E, D]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![B, D], m![E]>()
        .collect::<m![B, D], m![E]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_clip(ClipBinaryOpF32::Max, 0.0f32)
        .vector_final()
        .transpose::<m![B, E], m![D # 8]>()
        .commit_trim::<m![D]>()
        .commit();

    output_dm.to_hbm(&mut ctx.tdma)
}

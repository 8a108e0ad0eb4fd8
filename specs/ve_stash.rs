// book: docs/src/computing-tensors/vector-engine/intra-slice-chain.md (Stash on the Fp-Only Path) — max(2x, x) with the original x kept in the stash across a Way4 stretch
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![A = 512, B = 2];

// vector_stash() keeps x; the Way4 stretch doubles it; the Clip cluster's Max reads x back as the
// `Stash` operand (docs/vector-engine.md §3.3).
fn residual_max<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, m![1], m![B], m![A / 2], m![1], m![A % 2 # 8]>,
) -> VectorFinalTensor<'l, T, f32, m![1], m![B], m![A / 2], m![1], m![A % 2 # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_stash()
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_fp_binary(FpBinaryOp::MulF(FpMulAlu::Mul0), 2.0f32)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_clip(ClipBinaryOpF32::Max, Stash)
        .vector_final()
}

let mut ctx = Context::acquire();

let i: CollectTensor<'_, _, f32, m![1], m![B], m![A / 2], m![1], m![A % 2 # 8]> = CollectTensor::new(&mut ctx.main, Tensor::zero());
let _o = residual_max(i);

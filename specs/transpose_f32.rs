// book: docs/src/computing-tensors/transpose-engine.md (32-bit Data Type) — f32: at most 2 input rows, 8-element flits
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![P = 256, B = 4, D = 2, E = 8];

// in_cols 8 (E), in_rows 2 (D), out_rows 8; n = 4 (B), double buffered:
// 2 + 3 · max(2, 8) + 8 = 34 cycles.
fn f32_transpose<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, m![1], m![1 # 2], m![P], m![B, D], m![E # 8]>,
) -> TransposeTensor<'l, T, f32, m![1], m![1 # 2], m![P], m![B, E], m![D # 8]> {
    input.transpose()
}

let mut ctx = Context::acquire();

let c: CollectTensor<'_, _, f32, m![1], m![1 # 2], m![P], m![B, D], m![E # 8]> = CollectTensor::new(&mut ctx.main, Tensor::zero());
let _o = f32_transpose(c);

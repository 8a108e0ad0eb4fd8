// book: docs/src/computing-tensors/transpose-engine.md (Large Column) — in_cols 32 > 16 forces single buffering
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![P = 256, B = 2, C = 8, D = 4, E = 8];

// in_cols 32 (D = 4 flits), in_rows 8 (C), out_rows 32; n = 2 (B), single buffered:
// 2 · (32 + 32) = 128 cycles.
fn large_col_transpose<'l, const T: Tu>(
    input: CollectTensor<'l, T, i8, m![1], m![1 # 2], m![P], m![B, C, D], m![E # 32]>,
) -> TransposeTensor<'l, T, i8, m![1], m![1 # 2], m![P], m![B, D, E], m![C # 32]> {
    input.transpose()
}

let mut ctx = Context::acquire();

let c: CollectTensor<'_, _, i8, m![1], m![1 # 2], m![P], m![B, C, D], m![E # 32]> = CollectTensor::new(&mut ctx.main, Tensor::zero());
let _o = large_col_transpose(c);

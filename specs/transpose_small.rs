// book: docs/src/computing-tensors/transpose-engine.md (Small Matrix) — Trim drops the 6 padded rows: in_cols 8, out_rows 2
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![P = 256, A = 4, B = 2];

// in_cols 8 (B = 2 padded to valid_size 8), in_rows 4 (A), out_rows 2; n = 1:
// 4 + 0 · max(4, 2) + 2 = 6 cycles.
fn small_transpose<'l, const T: Tu>(
    input: CollectTensor<'l, T, i8, m![1], m![1 # 2], m![P], m![A], m![B # 32]>,
) -> TransposeTensor<'l, T, i8, m![1], m![1 # 2], m![P], m![B], m![A # 32]> {
    input.transpose()
}

let mut ctx = Context::acquire();

let c: CollectTensor<'_, _, i8, m![1], m![1 # 2], m![P], m![A], m![B # 32]> = CollectTensor::new(&mut ctx.main, Tensor::zero());
let _o = small_transpose(c);

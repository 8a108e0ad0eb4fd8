// book: docs/src/computing-tensors/transpose-engine.md (4-bit Data Type) — i4: valid_size 16, up to 16 input rows, 64-element flits
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![P = 256, B = 4, C = 16, E = 16];

// in_cols 16 (E), in_rows 16 (C), out_rows 16; n = 4 (B), double buffered:
// 16 + 3 · max(16, 16) + 16 = 80 cycles.
fn i4_transpose<'l, const T: Tu>(
    input: CollectTensor<'l, T, i4, m![1], m![1 # 2], m![P], m![B, C], m![E # 64]>,
) -> TransposeTensor<'l, T, i4, m![1], m![1 # 2], m![P], m![B, E], m![C # 64]> {
    input.transpose()
}

let mut ctx = Context::acquire();

let c: CollectTensor<'_, _, i4, m![1], m![1 # 2], m![P], m![B, C], m![E # 64]> = CollectTensor::new(&mut ctx.main, Tensor::zero());
let _o = i4_transpose(c);

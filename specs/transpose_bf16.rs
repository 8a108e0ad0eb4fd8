// book: docs/src/computing-tensors/transpose-engine.md (16-bit Data Type) — bf16: at most 4 input rows, 16-element output flits
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![P = 256, C = 8, D = 4, E = 8];

// in_cols 8 (E), in_rows 4 (D), out_rows 8; n = 8 (C), double buffered:
// 4 + 7 · max(4, 8) + 8 = 68 cycles.
fn bf16_transpose<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, m![1], m![1 # 2], m![P], m![C, D], m![E # 16]>,
) -> TransposeTensor<'l, T, bf16, m![1], m![1 # 2], m![P], m![C, E], m![D # 16]> {
    input.transpose()
}

let mut ctx = Context::acquire();

let c: CollectTensor<'_, _, bf16, m![1], m![1 # 2], m![P], m![C, D], m![E # 16]> = CollectTensor::new(&mut ctx.main, Tensor::zero());
let _o = bf16_transpose(c);

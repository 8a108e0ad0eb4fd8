// book: docs/src/computing-tensors/transpose-engine.md (Interface) — the running example: an 8 × 16 i8 matrix per iteration, each row gathered from D = 2 flits
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![P = 256, B = 2, C = 8, D = 2, E = 8];

// in_cols 16 (D = 2 flits of valid_size 8), in_rows 8 (C), out_rows 16; n = 2 (B), double
// buffered: 16 + 1 · max(16, 16) + 16 = 48 cycles.
fn basic_transpose<'l, const T: Tu>(
    input: CollectTensor<'l, T, i8, m![1], m![1 # 2], m![P], m![B, C, D], m![E # 32]>,
) -> TransposeTensor<'l, T, i8, m![1], m![1 # 2], m![P], m![B, D, E], m![C # 32]> {
    input.transpose()
}

let mut ctx = Context::acquire();

let c: CollectTensor<'_, _, i8, m![1], m![1 # 2], m![P], m![B, C, D], m![E # 32]> = CollectTensor::new(&mut ctx.main, Tensor::zero());
let _o = basic_transpose(c);

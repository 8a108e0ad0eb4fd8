// book: furiosa-opt-examples/src/to_vrf_assertions.rs (module doc-test) — i32 VRF store that fills the 8192 B file exactly
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;

axes![A = 2048];

// 2048 × i32 = 8192 B per slice: the largest accepted to_vrf (docs/contraction.md §4.3).
fn store<'l, const T: Tu>(
    input: BeginTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![1], m![A]>,
) -> VrfTensor<i32, m![1], m![1 # 2], m![1 # 256], m![A]> {
    input.fetch::<m![1], m![A]>().collect::<m![A / 8], m![A % 8]>().to_vrf()
}

// Driver code of the doc-test (not part of the kernel).
let mut ctx = Context::acquire();
let input: BeginTensor<'_, _, i32, m![1], m![1 # 2], m![1 # 256], m![1], m![A]> =
    BeginTensor::new(&mut ctx.sub, Tensor::zero());
let _vrf = store(input);

// expect: ToVrfError::ExceedsCapacity (docs/contraction.md §4.3, §12 #8)
// tujit: expect E-VRF-002
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;

axes![A = 4096];

// source: furiosa-opt-examples/src/to_vrf_assertions.rs (compile_fail doc-test). 4096 × i32 = 16384 B > 8192 B.
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

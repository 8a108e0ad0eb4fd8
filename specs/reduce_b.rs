// book: docs/src/computing-tensors/contraction-engine/time-reducer.md — reduction over B split between Packet and the outermost Time factor, single lane, Sequential
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![A = 2048, B = 32];

// docs/contraction.md §11 ex 8: PackSize 1, ReadSize 16 (narrow), depth 4, InnerTime 8.
fn reduce_b<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, m![1], m![1 # 2], m![A / 8], m![B / 16, A % 8], m![B % 16]>,
    trf: &TrfTensor<bf16, m![1], m![1 # 2], m![A / 8], m![1], m![B]>,
) -> ContractTensor<'l, T, f32, m![1], m![1 # 2], m![A / 8], m![A % 8], m![1 # 8]> {
    input
         .contract_outer::<m![B / 16, A % 8], m![B % 16], _, _, _>(trf)
         .contract_packet::<m![1]>()
         .contract_time::<m![A % 8]>()
         .contract_lane::<m![A % 8], m![1 # 8]>(LaneMode::Sequential)
}

// Driver code of the snippet (not part of the kernel).
let mut ctx = Context::acquire();

let a: CollectTensor<'_, _, bf16, m![1], m![1 # 2], m![A / 8], m![B / 16, A % 8], m![B % 16]> = CollectTensor::new(&mut ctx.main, Tensor::zero());
let b: TrfTensor<bf16, m![1], m![1 # 2], m![A / 8], m![1], m![B]> = TrfTensor::new();
let _o = reduce_b(a, &b);

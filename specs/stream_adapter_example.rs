// book: docs/src/computing-tensors/contraction-engine/outer.md — Outer stage only: packs L into the packet and time-broadcasts the TRF-only axis B
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![M = 32, N = 8, K = 16, L = 2, B = 5];

// docs/contraction.md §11 ex 4: PackSize 2, TimeBroadcast [B] = 5, ReadSize 32 (wide).
fn stream_adapter_example<'l, const T: Tu>(
    input: CollectTensor<'l, { T }, bf16, m![1], m![1 # 2], m![1 # 256], m![M, L], m![K]>,
    trf: &TrfTensor<bf16, m![1], m![1 # 2], m![1 # 256], m![N], m![B, L, K]>,
) -> ContractOuterTensor<'l, { T }, f32, bf16, m![1], m![1 # 2], m![1 # 256], m![N], m![M, B], m![L, K]> {
    input.contract_outer::<m![M, B], m![L, K], _, _, _>(trf)
}

// Driver code of the snippet (not part of the kernel).
let mut ctx = Context::acquire();

let a: CollectTensor<'_, _, bf16, m![1], m![1 # 2], m![1 # 256], m![M, L], m![K]> = CollectTensor::new(&mut ctx.main, Tensor::zero());
let b: TrfTensor<bf16, m![1], m![1 # 2], m![1 # 256], m![N], m![B, L, K]> = TrfTensor::new();
let _o = stream_adapter_example(a, &b);

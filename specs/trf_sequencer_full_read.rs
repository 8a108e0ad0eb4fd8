// book: docs/src/computing-tensors/contraction-engine/outer.md — Outer stage only: each TRF read covers the whole Element [K]; M is a pure broadcast
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![M = 32, N = 8, K = 32];

// docs/contraction.md §11 ex 5: PackSize 2, ReadSize 32 (wide), PacketBroadcast 1.
fn trf_sequencer_full_read<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, m![1], m![1 # 2], m![1 # 256], m![M, K / 16], m![K % 16]>,
    trf: &TrfTensor<bf16, m![1], m![1 # 2], m![1 # 256], m![N], m![K]>,
) -> ContractOuterTensor<'l, T, f32, bf16, m![1], m![1 # 2], m![1 # 256], m![N], m![M], m![K]> {
    input.contract_outer::<m![M], m![K], _, _, _>(trf)
}

// Driver code of the snippet (not part of the kernel).
let mut ctx = Context::acquire();

let a: CollectTensor<'_, _, bf16, m![1], m![1 # 2], m![1 # 256], m![M, K / 16], m![K % 16]> = CollectTensor::new(&mut ctx.main, Tensor::zero());
let b: TrfTensor<bf16, m![1], m![1 # 2], m![1 # 256], m![N], m![K]> = TrfTensor::new();
let _o = trf_sequencer_full_read(a, &b);

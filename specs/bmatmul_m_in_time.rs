// book: docs/src/computing-tensors/contraction-engine/index.md — batched bf16 matmul with M in Time and K packed into one 64 B packet
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![V = 32, M = 32, N = 8, K = 32];

type Chip    = m![1];
type Cluster = m![V / 16];
type Slice   = m![V % 16 # 256];
type Lane    = m![N];

// docs/contraction.md §11 ex 2: PackSize 2, ReadSize 32 (wide), depth 5, InnerTime 1.
// tujit: max-cycles 70 (64 stream flits + tree latency 5 + drain 1; docs/cycle-model.md §4)
fn bmatmul_m_in_time<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![M, K / 16], m![K % 16]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![K]>,
) -> ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![M], m![N]> {
    input
         .contract_outer::<m![M], m![K], _, _, _>(trf)
         .contract_packet::<m![1]>()
         .contract_time::<m![M]>()
         .contract_lane::<m![M], m![N]>(LaneMode::Interleaved)
}

// Driver code of the snippet (not part of the kernel).
let mut ctx = Context::acquire();

let a: CollectTensor<'_, _, bf16, Chip, Cluster, Slice, m![M, K / 16], m![K % 16]> = CollectTensor::new(&mut ctx.main, Tensor::zero());
let b: TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![K]> = TrfTensor::new();
let _o = bmatmul_m_in_time(a, &b);

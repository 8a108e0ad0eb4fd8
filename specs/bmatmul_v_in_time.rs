// book: docs/src/computing-tensors/contraction-engine/index.md — batched bf16 matmul with the batch axis V in Time and K packed into the packet
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![V = 32, M = 32, N = 8, K = 32];

type Chip    = m![1];
type Cluster = m![M / 16];
type Slice   = m![M % 16 # 256];
type Lane    = m![N];

// docs/contraction.md §11 ex 3: same engine configuration as M in Time with V for M.
// tujit: max-cycles 70 (64 stream flits + tree latency 5 + drain 1; docs/cycle-model.md §4)
fn bmatmul_v_in_time<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![V, K / 16], m![K % 16]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![K]>,
) -> ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![V], m![N]> {
    input
         .contract_outer::<m![V], m![K], _, _, _>(trf)
         .contract_packet::<m![1]>()
         .contract_time::<m![V]>()
         .contract_lane::<m![V], m![N]>(LaneMode::Interleaved)
}

// Driver code of the snippet (not part of the kernel).
let mut ctx = Context::acquire();

let a: CollectTensor<'_, _, bf16, Chip, Cluster, Slice, m![V, K / 16], m![K % 16]> = CollectTensor::new(&mut ctx.main, Tensor::zero());
let b: TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![K]> = TrfTensor::new();
let _o = bmatmul_v_in_time(a, &b);

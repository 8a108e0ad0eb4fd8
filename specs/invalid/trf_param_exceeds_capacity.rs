// expect: hardware TrfExceedsCapacity E-HW-009 (docs/contraction.md §4.2 rule 2, for a TrfTensor parameter)
// tujit: expect E-HW-009
// Derived (not a book kernel): the book's M-in-Time matmul with K = 8192, so one slice's TRF share is 8 lanes × 16 KiB = 128 KiB > 64 KiB.
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![V = 32, M = 32, N = 8, K = 8192];

type Chip    = m![1];
type Cluster = m![V / 16];
type Slice   = m![V % 16 # 256];
type Lane    = m![N];

fn trf_param_exceeds_capacity<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![M, K / 16], m![K % 16]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![K]>,
) -> ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![M], m![N]> {
    input
         .contract_outer::<m![M, K / 32], m![K % 32], _, _, _>(trf)
         .contract_packet::<m![1]>()
         .contract_time::<m![M]>()
         .contract_lane::<m![M], m![N]>(LaneMode::Interleaved)
}

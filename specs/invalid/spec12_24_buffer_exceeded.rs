// expect: ContractLaneError::BufferExceeded{Sequential, 8, 8, 32, 1024} (docs/contraction.md §8 rule 7, §12 #24)
// tujit: expect E-LANE-007
// Derived by docs/contraction.md §12 (not a book kernel): A reduced outermost gives InnerTime 8; 8 lanes × 8 × 32 = 2048 cells > 1024.
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![A = 4, M = 4, O = 2, N = 8, D = 32];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn buffer_exceeded<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![A, M, O, D / 16], m![D % 16]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, m![N], m![D]>,
) -> ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![M, O, N, D / 8], m![D % 8]> {
    input
        .contract_outer::<m![A, M, O], m![D], _, _, _>(trf)
        .contract_packet::<m![D]>()
        .contract_time::<m![M, O]>()
        .contract_lane::<m![M, O, N, D / 8], m![D % 8]>(LaneMode::Sequential)
}

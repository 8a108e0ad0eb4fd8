// expect: ContractLaneError::OuterTimeMismatch (docs/contraction.md §8 rule 5, §12 #23)
// tujit: expect E-LANE-005
// Derived by docs/contraction.md §12 (not a book kernel): OutTime [B, C] reorders the reduced Time [C, B].
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![B = 2, C = 4, N = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn outer_time_mismatch<'l, const T: Tu>(
    input: ContractTimeTensor<'l, T, f32, Chip, Cluster, Slice, m![N], m![C, B], m![1]>,
) -> ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![B, C], m![N]> {
    input.contract_lane::<m![B, C], m![N]>(LaneMode::Interleaved)
}

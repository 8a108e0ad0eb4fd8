// expect: ContractLaneError::OutTimeMismatch (docs/contraction.md §8 rule 4, §12 #22)
// tujit: expect E-LANE-004
// Derived by docs/contraction.md §12 (not a book kernel): Interleaved OutTime must end with the packet [P].
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![N = 8, M = 4, P = 16];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn out_time_mismatch<'l, const T: Tu>(
    input: ContractTimeTensor<'l, T, f32, Chip, Cluster, Slice, m![N], m![M], m![P]>,
) -> ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![M], m![N]> {
    input.contract_lane::<m![M], m![N]>(LaneMode::Interleaved)
}

// expect: ToTrfError::LaneDoesNotDivideTime{4, 6} (docs/contraction.md §4.2 rule 3, §12 #4)
// tujit: expect E-TRF-003
// source: furiosa-opt-examples/src/negative/contract_outer_assertions.rs (trf_mapping::invalid_lane_not_divisible_by_time)
// Derived from the book's kernel: HBM transfer removed; the DM operand is a parameter.
use furiosa_opt_std::prelude::*;

axes![A = 8, B = 64, C = 128, D = 64, E = 32, F = 6, R = 8, T = 5, U = 3, V = 2];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

pub fn invalid_lane_not_divisible_by_time(ctx: &mut Context, trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![F, E]>) {
    let _trf: TrfTensor<i8, Chip, Cluster, Slice, m![R / 2], m![F, E]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![F], m![E]>()
        .fetch_cast::<i8>()
        .collect::<m![F], m![E]>()
        .to_trf();
}

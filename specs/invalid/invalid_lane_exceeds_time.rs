// expect: ToTrfError::LaneDoesNotDivideTime{4, 2} (docs/contraction.md §4.2 rule 3, §12 #5)
// tujit: expect E-TRF-003
// source: furiosa-opt-examples/src/negative/contract_outer_assertions.rs (trf_lane_time::invalid_lane_exceeds_time)
// Derived from the book's kernel: HBM transfer removed; the DM operand is a parameter.
use furiosa_opt_std::prelude::*;

axes![A = 8, B = 64, C = 128, D = 64, E = 32, F = 6, R = 8, T = 5, U = 3, V = 2];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

pub fn invalid_lane_exceeds_time(ctx: &mut Context, trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![A / 4, E]>) {
    let _trf: TrfTensor<i8, Chip, Cluster, Slice, m![R / 2], m![A / 4, E]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![A / 4], m![E]>()
        .fetch_cast::<i8>()
        .collect::<m![A / 4], m![E]>()
        .to_trf();
}

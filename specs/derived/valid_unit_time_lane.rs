// book: furiosa-opt-examples/src/contract_outer_assertions.rs — i8 TRF store from a one-flit stream into one lane
// source: furiosa-opt-examples/src/contract_outer_assertions.rs (trf_mapping::valid_unit_time_lane)
// Derived from the book's kernel: HBM transfer removed; the DM operand is a parameter.
use furiosa_opt_std::prelude::*;

axes![A = 8, B = 64, C = 128, D = 64, E = 32, F = 6, R = 8, T = 5, U = 3, V = 2];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

// Derived values: FlitsPerLane 1, 32 B in one lane.
pub fn valid_unit_time_lane(ctx: &mut Context, trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![E]>) {
    let _trf: TrfTensor<i8, Chip, Cluster, Slice, m![1], m![E]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![1], m![E]>()
        .fetch_cast::<i8>()
        .collect::<m![1], m![E]>()
        .to_trf();
}

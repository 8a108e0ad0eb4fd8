// book: base-template/src/kernel/gemv_kernel.rs (docs/src/quick-start/kernel-design.md, GEMV) — bf16 matrix × vector, one matrix row per slice, the rows reaching their slices through the Switch Engine
// source: base-template/src/kernel/gemv_kernel.rs (gemv_kernel), composed (ours): the matrix is stored with the two 16-slice digits of I swapped, and a Transpose switch { slice1: 16, slice0: 16 } swaps them back before Collect
// Derived from the book's kernel like gemv_kernel.rs: HBM transfers, cast, commit and write-back
// removed; the DM operands are parameters and the kernel returns the contract_lane stream.
use furiosa_opt_std::prelude::*;

axes![I = 256, J = 2048];

pub type Chip = m![1];
pub type Cluster = m![1 # 2];
pub type Slice = m![I];
pub type Time = m![J / 32];
pub type Packet = m![J % 32];
pub type Lane = m![1];

// Derived values: TRF FlitsPerLane 128 (4096 B in one lane); PackSize 2, TimeBroadcast 1,
// ReadSize 32 (64 B, wide), Rows [J / 32], depth 5, J / 32 reduced in Time, InnerTime 1.
pub fn gemv_slice_transposed<'l>(
    ctx: &'l mut Context,
    matrix: &DmTensor<bf16, Chip, Cluster, m![I % 16, I / 16], m![J]>,
    vector: &DmTensor<bf16, Chip, Cluster, Slice, m![J]>,
) -> ContractTensor<'l, { Tu::Main }, f32, Chip, Cluster, Slice, m![1], m![1 # 8]> {
    let vector_trf: TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![J]> = ctx
        .sub
        .begin(vector.view())
        .fetch::<m![1], m![J]>()
        .collect::<m![J / 16], m![J % 16]>()
        .to_trf();

    ctx
        .main
        .begin(matrix.view())
        .fetch::<m![J / 16], m![J % 16]>()
        .switch::<m![I], m![J / 16]>(SwitchConfig::Transpose { slice1: 16, slice0: 16 })
        .collect::<m![J / 16], m![J % 16]>()
        .contract_outer::<Time, Packet, _, _, _>(&vector_trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![1]>()
        .contract_lane::<m![1], m![1 # 8]>(LaneMode::Interleaved)
}

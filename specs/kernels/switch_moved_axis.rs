// source: furiosa-opt-examples/src/switch_engine.rs (custom_broadcast_moved_axis) — HBM → DM → fetch → switch → collect → commit_trim → commit → HBM
// A CustomBroadcast of ring 4 that moves the slice axis Q into Time (each output slice reads the
// four input slices of its Q block, one per time step) and fills its slot with the broadcast Yt.
use furiosa_opt_std::prelude::*;

type Chip = m![1];
type Cluster = m![1 # 2];
axes![P = 64, Q = 4, B = 8, V = 16, Yt = 4];

#[device(chip = 1)]
pub fn switch_moved_axis(
    ctx: &mut Context,
    input: &HbmTensor<bf16, Chip, m![P, Q, B, V]>,
) -> HbmTensor<bf16, Chip, m![P, Yt, B, Q, V]> {
    let dm: DmTensor<bf16, Chip, Cluster, m![P, Q], m![B, V]> =
        input.to_dm::<Cluster, m![P, Q], m![B, V]>(&mut ctx.tdma);
    let result: DmTensor<bf16, Chip, Cluster, m![P, Yt], m![B, Q, V]> = ctx
        .main
        .begin(dm.view())
        .fetch::<m![B], m![V]>()
        .switch::<m![P, Yt], m![B, Q]>(SwitchConfig::CustomBroadcast { ring_size: 4 })
        .collect::<m![B, Q], m![V]>()
        .commit_trim::<m![V]>()
        .commit();
    result.to_hbm::<m![P, Yt, B, Q, V]>(&mut ctx.tdma)
}

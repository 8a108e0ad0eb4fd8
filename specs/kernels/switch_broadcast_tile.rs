// source: furiosa-opt-examples/src/switch_engine.rs (custom_broadcast) — HBM → DM → fetch → switch → collect → commit_trim → commit → HBM
// A CustomBroadcast of ring 4: the padded slot of Slice `[A, 1 # 4]` becomes the broadcast axis Y.
use furiosa_opt_std::prelude::*;

type Chip = m![1];
type Cluster = m![1 # 2];
axes![A = 64, B = 8, V = 16, Y = 4];

#[device(chip = 1)]
pub fn switch_broadcast_tile(
    ctx: &mut Context,
    input: &HbmTensor<bf16, Chip, m![A, B, V]>,
) -> HbmTensor<bf16, Chip, m![A, Y, B, V]> {
    let dm: DmTensor<bf16, Chip, Cluster, m![A, 1 # 4], m![B, V]> =
        input.to_dm::<Cluster, m![A, 1 # 4], m![B, V]>(&mut ctx.tdma);
    let result: DmTensor<bf16, Chip, Cluster, m![A, Y], m![B, V]> = ctx
        .main
        .begin(dm.view())
        .fetch::<m![B], m![V]>()
        .switch::<m![A, Y], m![B]>(SwitchConfig::CustomBroadcast { ring_size: 4 })
        .collect::<m![B], m![V]>()
        .commit_trim::<m![V]>()
        .commit();
    result.to_hbm::<m![A, Y, B, V]>(&mut ctx.tdma)
}

// A Vector Engine benchmark kernel: 1 Mi i32 elements through AddFxp, MulInt and Max on the
// intra-slice chain (docs/vector-engine.md §3), HBM → DM → fetch → pass → commit → HBM. Timed by
// `tujit bench bench/ve_chain_1m.rs` (README "Performance").
use furiosa_opt_std::prelude::*;

axes![A = 1048576];

type Chip = m![1];
type Cluster = m![1 # 2];

#[device(chip = 1)]
pub fn ve_chain_1m(ctx: &mut Context, input: &HbmTensor<i32, Chip, m![A]>) -> HbmTensor<i32, Chip, m![A]> {
    let dm = input.to_dm::<Cluster, m![A / 4096 # 256], m![A % 4096]>(&mut ctx.tdma);
    let result: DmTensor<i32, Chip, Cluster, m![A / 4096 # 256], m![A % 4096]> = ctx
        .main
        .begin(dm.view())
        .fetch::<m![A % 4096 / 8], m![A % 8]>()
        .collect::<m![A % 4096 / 8], m![A % 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_fxp(FxpBinaryOp::AddFxp, 3)
        .vector_fxp(FxpBinaryOp::MulInt, 5)
        .vector_clip(ClipBinaryOpI32::Max, -100)
        .vector_final()
        .commit_trim::<m![A % 8]>()
        .commit();
    result.to_hbm(&mut ctx.tdma)
}

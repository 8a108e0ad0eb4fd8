// book: furiosa-opt-examples/src/vector_engine/branch.rs — i32: one comparison per tag bit, three guarded immediates of a BitOr in first-match order, a guarded Stash read on the Clip, commit, DM → HBM
// The kernel as the reference writes it (its comments left out), its module header
// (furiosa-opt-examples/src/vector_engine.rs) inlined; the header's `Chip` and `Cluster`, which
// branch.rs shadows with its own, are left out.
use furiosa_opt_std::prelude::*;
// branch.rs's own import.
use furiosa_opt_std::prelude::BitReq::{Ignore, One, Zero};

axes![
    A = 512,
    B = 256,
    I = 2,
    Q = 2,
    R = 4,
    R16 = 16,
    S = 15,
    T = 4,
    P = 8,
    W = 64
];

axes![BP = 64, BA = 4, BT = 8];

type Chip = m![1];
type Cluster = m![1];

#[device(chip = 1, pe = 1)]
pub fn ve_branch_bit_order(
    ctx: &mut Context,
    input: &HbmTensor<i32, Chip, m![BP, BA, BT]>,
) -> HbmTensor<i32, Chip, m![BP, BA, BT]> {
    let input_dm = input.to_dm::<Cluster, m![BP], m![BA, BT]>(&mut ctx.tdma);

    let result: DmTensor<i32, Chip, Cluster, m![BP], m![BA, BT]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![BA], m![BT]>()
        .collect::<m![BA], m![BT]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Comparison([
            Cmp::Equal(0),
            Cmp::Equal(5),
            Cmp::Less(10),
            Cmp::Greater(1000),
        ]))
        .vector_stash()
        .vector_logic(
            LogicBinaryOpI32::BitOr,
            Branched::imm(TagGuard::matches([One, Ignore, Ignore, Ignore]), 0x0100)
                .imm(TagGuard::matches([Ignore, Ignore, One, Ignore]), 0x0200)
                .imm(TagGuard::matches([Ignore, Ignore, Ignore, One]), 0x0400),
        )
        .vector_clip(
            ClipBinaryOpI32::Min,
            Branched::rf(TagGuard::matches([Ignore, One, Ignore, Ignore]), Stash),
        )
        .vector_final()
        .commit_trim::<m![BT]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

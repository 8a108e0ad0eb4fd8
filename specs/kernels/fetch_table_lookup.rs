// book: furiosa-opt-examples/src/fetch_table_lookup.rs (docs/src/computing-tensors/fetch-adapter.md, Table Lookup) — f4e2m1 decoded to f8e4m3 / f8e5m2 through the paired table (two to f32 by a following fetch_cast), f8e4m3 / f8e5m2 decoded to bf16, each collected, committed and returned as [B, A]
// The kernels as the reference writes them (its comments left out).
#![expect(clippy::type_complexity)]

use furiosa_opt_std::prelude::*;

axes![A = 4096, B = 16];

type Chip = m![1];
type Cluster = m![1 # 2];

#[device(chip = 1)]
pub fn fetch_table_lookup_decode_e2m1(
    ctx: &mut Context,
    input: &HbmTensor<f4e2m1, m![1], m![A, B]>,
) -> HbmTensor<f32, m![1], m![B, A]> {
    let input_dm = input.to_dm::<Cluster, m![A / 16], m![A / 8 % 2, A % 8, B]>(&mut ctx.tdma);

    let decoded: DmTensor<f32, Chip, Cluster, m![A / 16], m![A / 8 % 2, A % 8, B]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![A / 8 % 2], m![A % 8, B]>()
        .fetch_table_lookup::<f8e4m3>()
        .fetch_cast::<f32>()
        .collect::<m![A / 8 % 2, A % 8, B / 8], m![B % 8]>()
        .commit_trim::<m![B % 8]>()
        .commit();

    decoded.to_hbm(&mut ctx.tdma)
}

axes![Bp = 32];

#[device(chip = 1)]
pub fn fetch_table_lookup_decode_e2m1_to_f8e5m2(
    ctx: &mut Context,
    input: &HbmTensor<f4e2m1, m![1], m![A, Bp]>,
) -> HbmTensor<f8e5m2, m![1], m![Bp, A]> {
    let input_dm = input.to_dm::<Cluster, m![A / 16], m![A / 8 % 2, A % 8, Bp]>(&mut ctx.tdma);

    let decoded: DmTensor<f8e5m2, Chip, Cluster, m![A / 16], m![A / 8 % 2, A % 8, Bp]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![A / 8 % 2], m![A % 8, Bp]>()
        .fetch_table_lookup::<f8e5m2>()
        .collect::<m![A / 8 % 2, A % 8], m![Bp]>()
        .commit_trim::<m![Bp]>()
        .commit();

    decoded.to_hbm(&mut ctx.tdma)
}

axes![AM = 8192];

#[device(chip = 1)]
pub fn fetch_table_lookup_decode_e2m1_mxfp4(
    ctx: &mut Context,
    input: &HbmTensor<f4e2m1, m![1], m![AM, B]>,
) -> HbmTensor<f32, m![1], m![B, AM]> {
    let input_dm = input.to_dm::<Cluster, m![AM / 32], m![AM / 8 % 4, AM % 8, B]>(&mut ctx.tdma);

    let decoded: DmTensor<f32, Chip, Cluster, m![AM / 32], m![AM / 8 % 4, AM % 8, B]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![AM / 8 % 4], m![AM % 8, B]>()
        .fetch_table_lookup::<f8e4m3>()
        .fetch_cast::<f32>()
        .collect::<m![AM / 8 % 4, AM % 8, B / 8], m![B % 8]>()
        .commit_trim::<m![B % 8]>()
        .commit();

    decoded.to_hbm(&mut ctx.tdma)
}

axes![Bf = 16];

#[device(chip = 1)]
pub fn fetch_table_lookup_decode_f8e5m2_to_bf16(
    ctx: &mut Context,
    input: &HbmTensor<f8e5m2, m![1], m![A, Bf]>,
) -> HbmTensor<bf16, m![1], m![Bf, A]> {
    let input_dm = input.to_dm::<Cluster, m![A / 16], m![A / 8 % 2, A % 8, Bf]>(&mut ctx.tdma);

    let decoded: DmTensor<bf16, Chip, Cluster, m![A / 16], m![A / 8 % 2, A % 8, Bf]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![A / 8 % 2], m![A % 8, Bf]>()
        .fetch_table_lookup::<bf16>()
        .collect::<m![A / 8 % 2, A % 8], m![Bf]>()
        .commit_trim::<m![Bf]>()
        .commit();

    decoded.to_hbm(&mut ctx.tdma)
}

#[device(chip = 1)]
pub fn fetch_table_lookup_decode_f8_to_bf16(
    ctx: &mut Context,
    input: &HbmTensor<f8e4m3, m![1], m![A, Bf]>,
) -> HbmTensor<bf16, m![1], m![Bf, A]> {
    let input_dm = input.to_dm::<Cluster, m![A / 16], m![A / 8 % 2, A % 8, Bf]>(&mut ctx.tdma);

    let decoded: DmTensor<bf16, Chip, Cluster, m![A / 16], m![A / 8 % 2, A % 8, Bf]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![A / 8 % 2], m![A % 8, Bf]>()
        .fetch_table_lookup::<bf16>()
        .collect::<m![A / 8 % 2, A % 8], m![Bf]>()
        .commit_trim::<m![Bf]>()
        .commit();

    decoded.to_hbm(&mut ctx.tdma)
}

// book: furiosa-opt-examples/src/vector_engine/reduce.rs (docs/src/computing-tensors/vector-engine/) — the reference's Vector Engine examples, as written
// The file as the reference writes it, for tests/unit/reference_reduce_test.cpp (every kernel runs with --verify, or is refused by its rule).
use super::*;

#[device(chip = 1)]
pub fn ve_intra_slice_reduce_add_fxp_sat(
    ctx: &mut Context,
    input: &HbmTensor<i32, Chip, m![A, R]>,
) -> HbmTensor<i32, Chip, m![A]> {
    let input_transposed: HbmTensor<i32, Chip, m![R, A]> = input.to_hbm(&mut ctx.tdma);
    let input_dm = input_transposed.to_dm::<Cluster, m![A / 2], m![R, A % 2]>(&mut ctx.tdma);

    let result: DmTensor<i32, Chip, Cluster, m![A / 2], m![A % 2]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![R], m![A % 2]>()
        .fetch_cast::<i32>()
        .collect::<m![R], m![A % 2 # 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_intra_slice_reduce::<R, m![1], m![A % 2 # 4]>(IntraSliceReduceOpI32::AddSat)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_final()
        .commit_trim::<m![A % 2]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

/// Intra-slice reduce: max (i32)
#[device(chip = 1)]
pub fn ve_intra_slice_reduce_max_i32(
    ctx: &mut Context,
    input: &HbmTensor<i32, Chip, m![A, R]>,
) -> HbmTensor<i32, Chip, m![A]> {
    let input_transposed: HbmTensor<i32, Chip, m![R, A]> = input.to_hbm(&mut ctx.tdma);
    let input_dm = input_transposed.to_dm::<Cluster, m![A / 2], m![R, A % 2]>(&mut ctx.tdma);

    let result: DmTensor<i32, Chip, Cluster, m![A / 2], m![A % 2]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![R], m![A % 2]>()
        .fetch_cast::<i32>()
        .collect::<m![R], m![A % 2 # 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_intra_slice_reduce::<R, m![1], m![A % 2 # 4]>(IntraSliceReduceOpI32::Max)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_final()
        .commit_trim::<m![A % 2]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

/// Intra-slice reduce: min (i32)
#[device(chip = 1)]
pub fn ve_intra_slice_reduce_min_i32(
    ctx: &mut Context,
    input: &HbmTensor<i32, Chip, m![A, R]>,
) -> HbmTensor<i32, Chip, m![A]> {
    let input_transposed: HbmTensor<i32, Chip, m![R, A]> = input.to_hbm(&mut ctx.tdma);
    let input_dm = input_transposed.to_dm::<Cluster, m![A / 2], m![R, A % 2]>(&mut ctx.tdma);

    let result: DmTensor<i32, Chip, Cluster, m![A / 2], m![A % 2]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![R], m![A % 2]>()
        .fetch_cast::<i32>()
        .collect::<m![R], m![A % 2 # 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_intra_slice_reduce::<R, m![1], m![A % 2 # 4]>(IntraSliceReduceOpI32::Min)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_final()
        .commit_trim::<m![A % 2]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

/// Intra-slice reduce: add (f32)
#[device(chip = 1)]
pub fn ve_intra_slice_reduce_add_f32(
    ctx: &mut Context,
    input: &HbmTensor<f32, Chip, m![A, R]>,
) -> HbmTensor<f32, Chip, m![A]> {
    let input_transposed: HbmTensor<f32, Chip, m![R, A]> = input.to_hbm(&mut ctx.tdma);
    let input_dm = input_transposed.to_dm::<Cluster, m![A / 2], m![R, A % 2]>(&mut ctx.tdma);

    let result: DmTensor<f32, Chip, Cluster, m![A / 2], m![A % 2]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![R], m![A % 2]>()
        .fetch_cast::<f32>()
        .collect::<m![R], m![A % 2 # 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_intra_slice_reduce::<R, m![1], m![A % 2 # 4]>(IntraSliceReduceOpF32::Add)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_final()
        .commit_trim::<m![A % 2]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

/// Intra-slice reduce: max (f32)
#[device(chip = 1)]
pub fn ve_intra_slice_reduce_max_f32(
    ctx: &mut Context,
    input: &HbmTensor<f32, Chip, m![A, R]>,
) -> HbmTensor<f32, Chip, m![A]> {
    let input_transposed: HbmTensor<f32, Chip, m![R, A]> = input.to_hbm(&mut ctx.tdma);
    let input_dm = input_transposed.to_dm::<Cluster, m![A / 2], m![R, A % 2]>(&mut ctx.tdma);

    let result: DmTensor<f32, Chip, Cluster, m![A / 2], m![A % 2]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![R], m![A % 2]>()
        .fetch_cast::<f32>()
        .collect::<m![R], m![A % 2 # 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_intra_slice_reduce::<R, m![1], m![A % 2 # 4]>(IntraSliceReduceOpF32::Max)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_final()
        .commit_trim::<m![A % 2]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

/// Intra-slice reduce: min (f32)
#[device(chip = 1)]
pub fn ve_intra_slice_reduce_min_f32(
    ctx: &mut Context,
    input: &HbmTensor<f32, Chip, m![A, R]>,
) -> HbmTensor<f32, Chip, m![A]> {
    let input_transposed: HbmTensor<f32, Chip, m![R, A]> = input.to_hbm(&mut ctx.tdma);
    let input_dm = input_transposed.to_dm::<Cluster, m![A / 2], m![R, A % 2]>(&mut ctx.tdma);

    let result: DmTensor<f32, Chip, Cluster, m![A / 2], m![A % 2]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![R], m![A % 2]>()
        .fetch_cast::<f32>()
        .collect::<m![R], m![A % 2 # 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_intra_slice_reduce::<R, m![1], m![A % 2 # 4]>(IntraSliceReduceOpF32::Min)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_final()
        .commit_trim::<m![A % 2]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

// =============================================================================
// Intra-slice reduce: R split across Slice and Time (ve_intra_slice_reduce_split_*)
// =============================================================================

/// Intra-slice reduce with R split across Time and Packet.
/// R = 4: Time = m![R / 2], Packet = m![R % 2, A % 2 # 8].
/// C2 satisfied: Packet has no padding on reduce axis (R % 2 = 2, no padding).
#[device(chip = 1)]
pub fn ve_intra_slice_reduce_split_time_packet(
    ctx: &mut Context,
    input: &HbmTensor<i32, Chip, m![R16, A]>,
) -> HbmTensor<i32, Chip, m![A]> {
    let input_transposed: HbmTensor<i32, Chip, m![A, R16]> = input.to_hbm(&mut ctx.tdma);
    let input_dm = input_transposed.to_dm::<Cluster, m![A / 2], m![A % 2, R16]>(&mut ctx.tdma);

    let result: DmTensor<i32, Chip, Cluster, m![A / 2], m![A % 2, 1 # 8]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![A % 2, R16 / 8], m![R16 % 8]>()
        .fetch_cast::<i32>()
        .collect::<m![A % 2, R16 / 8], m![R16 % 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_split::<m![A % 2, R16 / 4], m![R16 % 4]>()
        .vector_intra_slice_reduce::<R16, m![A % 2], m![1 # 4]>(IntraSliceReduceOpI32::AddSat)
        .vector_widen_pad::<m![1 # 8]>()
        .vector_final()
        .commit_trim::<m![1 # 8]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

// =============================================================================
// Inter-slice reduce operations (ve_inter_slice_reduce_*)
// Uses inter-slice reducer — reduces across slices.
// Path 3: inter-slice reducer only (vector_init → vector_inter_slice_reduce → vector_final → commit)
// =============================================================================

/// Inter-slice reduce: saturating add (i32), inter-slice reducer-only path.
/// Input [R, A] with R in Slice → inter-slice reducer reduces R across slices → Output [A]
#[device(chip = 1)]
pub fn ve_inter_slice_reduce_add_sat_i32(
    ctx: &mut Context,
    input: &HbmTensor<i32, Chip, m![R, A]>,
) -> HbmTensor<i32, Chip, m![A]> {
    let input_dm = input.to_dm::<Cluster, m![A / 8, R], m![A % 8]>(&mut ctx.tdma);

    let result: DmTensor<i32, Chip, Cluster, m![A / 8, 1 # 4], m![A % 8]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![1], m![A % 8]>()
        .fetch_cast::<i32>()
        .collect::<m![1], m![A % 8]>()
        .vector_init()
        .vector_inter_slice_reduce::<m![A / 8, 1 # 4], m![1]>(InterSliceReduceOpI32::AddSat)
        .vector_final()
        .commit_trim::<m![A % 8]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

/// Inter-slice reduce: max (i32), inter-slice reducer-only path.
#[device(chip = 1)]
pub fn ve_inter_slice_reduce_max_i32(
    ctx: &mut Context,
    input: &HbmTensor<i32, Chip, m![R, A]>,
) -> HbmTensor<i32, Chip, m![A]> {
    let input_dm = input.to_dm::<Cluster, m![A / 8, R], m![A % 8]>(&mut ctx.tdma);

    let result: DmTensor<i32, Chip, Cluster, m![A / 8, 1 # 4], m![A % 8]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![1], m![A % 8]>()
        .fetch_cast::<i32>()
        .collect::<m![1], m![A % 8]>()
        .vector_init()
        .vector_inter_slice_reduce::<m![A / 8, 1 # 4], m![1]>(InterSliceReduceOpI32::Max)
        .vector_final()
        .commit_trim::<m![A % 8]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

/// Inter-slice reduce: add (f32), inter-slice reducer-only path.
#[device(chip = 1)]
pub fn ve_inter_slice_reduce_add_f32(
    ctx: &mut Context,
    input: &HbmTensor<f32, Chip, m![R, A]>,
) -> HbmTensor<f32, Chip, m![A]> {
    let input_dm = input.to_dm::<Cluster, m![A / 8, R], m![A % 8]>(&mut ctx.tdma);

    let result: DmTensor<f32, Chip, Cluster, m![A / 8, 1 # 4], m![A % 8]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![1], m![A % 8]>()
        .fetch_cast::<f32>()
        .collect::<m![1], m![A % 8]>()
        .vector_init()
        .vector_inter_slice_reduce::<m![A / 8, 1 # 4], m![1]>(InterSliceReduceOpF32::Add)
        .vector_final()
        .commit_trim::<m![A % 8]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

// =============================================================================
// inter-slice reducer → intra-slice chain (vector_inter_slice_reduce → vector_intra_slice_tag → intra-slice chain ops)
// =============================================================================

/// inter-slice reducer first (inter-slice reduce), then intra-slice chain (add constant).
/// Input [R, A] → inter-slice reducer reduces R → intra-slice chain adds 100 → Output [A]
#[device(chip = 1)]
pub fn ve_vru_then_vau_i32(ctx: &mut Context, input: &HbmTensor<i32, Chip, m![R, A]>) -> HbmTensor<i32, Chip, m![A]> {
    let input_dm = input.to_dm::<Cluster, m![A / 8, R], m![A % 8]>(&mut ctx.tdma);

    let result: DmTensor<i32, Chip, Cluster, m![A / 8, 1 # 4], m![A % 8]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![1], m![A % 8]>()
        .fetch_cast::<i32>()
        .collect::<m![1], m![A % 8]>()
        .vector_init()
        .vector_inter_slice_reduce::<m![A / 8, 1 # 4], m![1]>(InterSliceReduceOpI32::AddSat)
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_fxp(FxpBinaryOp::AddFxp, 100)
        .vector_final()
        .commit_trim::<m![A % 8]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

// =============================================================================
// Axis promotion: InSlice axis moves to Partitioning after inter-slice reducer reduce
// =============================================================================

/// inter-slice reducer with axis promotion: T moves from InSlice to Partitioning.
///
/// Input:  Slice=[W, R]=64*4=256, Element=[T, P]=4*8=32
/// InSlice = [T_1=4, P_1=8]
/// After inter-slice reducer: Slice2=[W, T]=64*4=256, Time2=[1]
/// T_1=4 was in InSlice, now in Partitioning → promotion
#[device(chip = 1)]
pub fn ve_inter_slice_reduce_promote_f32(
    ctx: &mut Context,
    input: &HbmTensor<f32, Chip, m![W, R, T, P]>,
) -> HbmTensor<f32, Chip, m![W, T, P]> {
    let input_dm = input.to_dm::<Cluster, m![W, R], m![T, P]>(&mut ctx.tdma);

    let result: DmTensor<f32, Chip, Cluster, m![W, T], m![P]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![T], m![P]>()
        .fetch_cast::<f32>()
        .collect::<m![T], m![P]>()
        .vector_init()
        .vector_inter_slice_reduce::<m![W, T], m![1]>(InterSliceReduceOpF32::Add)
        .vector_final()
        .commit_trim::<m![P]>()
        .commit();

    result.to_hbm(&mut ctx.tdma)
}

// book: docs/src/computing-tensors/register-files.md (From the Vector Engine) — a Vector Engine pass (sqrt) stored at the engine's write port
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![B = 64];

// The DM tensor is built inside; the main-context store takes `&mut ctx.sub` (its write runs
// through the sub context). The pass narrows Way8 → Way4 for the float ALU and widens back.
fn store_pass(ctx: &mut Context) -> VrfTensor<f32, m![1], m![1 # 2], m![1 # 256], m![B]> {
    let dm: DmTensor<f32, m![1], m![1 # 2], m![1 # 256], m![B]> = DmTensor::new();
    ctx.main
        .begin(dm.view())
        .fetch::<m![1], m![B]>()
        .collect::<m![B / 8], m![B % 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_split::<m![B / 8, B % 8 / 4 % 2], m![B % 4]>()
        .vector_fp_unary(FpUnaryOp::Sqrt)
        .vector_widen_concat::<m![B / 8], m![B % 8]>()
        .vector_final()
        .to_vrf(&mut ctx.sub)
}

// Driver code of the snippet (not part of the kernel).
let mut ctx = Context::acquire();
let _o = store_pass(&mut ctx);

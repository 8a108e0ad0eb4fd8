// The reducer entered from the intra-slice chain ends it: only vector_final follows (docs/vector-engine.md §3.7)
// tujit: expect E-VE-032
axes![A = 512, B = 2, R = 4];

fn inter<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![B], m![A / 8, R], m![1], m![A % 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![B], m![A / 8, 1 # 4], m![1], m![A % 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_fxp(FxpBinaryOp::AddFxp, 1)
        .vector_inter_slice_reduce::<m![A / 8, 1 # 4], m![1]>(InterSliceReduceOpI32::AddSat)
        .vector_clip(ClipBinaryOpI32::Max, 0)
        .vector_final()
}

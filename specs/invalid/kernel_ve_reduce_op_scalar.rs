// An f32 reduce op on an i32 stream (docs/vector-engine.md §3.6: IntraSliceReduceOpI32 has AddSat, Max, Min)
// tujit: expect E-VE-006
axes![A = 512, R = 4];

fn reduce<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![A / 2], m![R], m![A % 2 # 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![1 # 2], m![A / 2], m![1], m![A % 2 # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_intra_slice_reduce::<R, m![1], m![A % 2 # 4]>(IntraSliceReduceOpF32::Add)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_final()
}

// Time2 keeps a factor of the reduced axis: every factor of it leaves Time (docs/vector-engine.md §3.6)
// tujit: expect E-VE-028
axes![A = 512, R = 16];

fn reduce<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![A / 2], m![R], m![A % 2 # 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![1 # 2], m![A / 2], m![R / 4], m![A % 2 # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_intra_slice_reduce::<R, m![R / 4], m![A % 2 # 4]>(IntraSliceReduceOpI32::AddSat)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_final()
}

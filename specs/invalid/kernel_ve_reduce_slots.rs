// The book's invalid_too_many_slots: InnerTime [A % 3, B % 4] needs 12 accumulator slots, there are 8 (docs/vector-engine.md §3.6)
// tujit: expect E-VE-031
axes![A = 6, B = 16, R = 16];

fn reduce<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![A / 3 # 256], m![R, A % 3, B % 4], m![B / 4 # 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![1 # 2], m![A / 3 # 256], m![A % 3, B % 4], m![B / 4 # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![B / 4]>()
        .vector_intra_slice_reduce::<R, m![A % 3, B % 4], m![B / 4]>(IntraSliceReduceOpI32::AddSat)
        .vector_widen_pad::<m![B / 4 # 8]>()
        .vector_final()
}

// The inter-slice reducer right after the tag: the Tag stage does not hand on to it (the book's Pipeline table, docs/vector-engine.md §3.7)
// tujit: expect E-VE-032
axes![A = 512, B = 2, R = 4];

fn inter<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![B], m![A / 8, R], m![1], m![A % 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![B], m![A / 8, 1 # 4], m![1], m![A % 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_inter_slice_reduce::<m![A / 8, 1 # 4], m![1]>(InterSliceReduceOpI32::AddSat)
        .vector_final()
}

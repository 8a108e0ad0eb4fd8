// The reduce tree runs Way4: reducing an 8-element packet without narrowing first (docs/vector-engine.md §2, §3.6)
// tujit: expect E-VE-004
axes![A = 512, R = 4];

fn reduce<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![A / 2], m![R], m![A % 2 # 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![1 # 2], m![A / 2], m![1], m![A % 2 # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_intra_slice_reduce::<R, m![1], m![A % 2 # 8]>(IntraSliceReduceOpI32::Max)
        .vector_final()
}

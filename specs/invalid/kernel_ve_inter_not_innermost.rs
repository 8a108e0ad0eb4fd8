// R is the outermost Slice factor: the reduced slices are the innermost ones, so the whole Slice would be reduced, A with it (docs/vector-engine.md §3.7)
// tujit: expect E-VE-033
axes![A = 512, B = 2, R = 4];

fn inter<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![B], m![R, A / 8], m![1], m![A % 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![B], m![1 # 4, A / 8], m![1], m![A % 8]> {
    input
        .vector_init()
        .vector_inter_slice_reduce::<m![1 # 4, A / 8], m![1]>(InterSliceReduceOpI32::Max)
        .vector_final()
}

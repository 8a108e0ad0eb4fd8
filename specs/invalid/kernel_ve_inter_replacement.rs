// The reduced slot holds A % 4, an axis the input keeps in Slice and Packet: not a dummy, a fresh axis or a factor of Time (docs/vector-engine.md §3.7)
// tujit: expect E-VE-034
axes![A = 512, B = 2, R = 4];

fn inter<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, m![1], m![B], m![A / 8, R], m![1], m![A % 8]>,
) -> VectorFinalTensor<'l, T, f32, m![1], m![B], m![A / 8, A % 4], m![1], m![A % 8]> {
    input
        .vector_init()
        .vector_inter_slice_reduce::<m![A / 8, A % 4], m![1]>(InterSliceReduceOpF32::Add)
        .vector_final()
}

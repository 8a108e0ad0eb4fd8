// T is promoted from Time into Slice2, but Time2 still holds it: a promoted factor leaves Time (docs/vector-engine.md §3.7)
// tujit: expect E-VE-035
axes![B = 2, P = 8, R = 4, T = 4, W = 64];

fn inter<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, m![1], m![B], m![W, R], m![T], m![P]>,
) -> VectorFinalTensor<'l, T, f32, m![1], m![B], m![W, T], m![T], m![P]> {
    input
        .vector_init()
        .vector_inter_slice_reduce::<m![W, T], m![T]>(InterSliceReduceOpF32::Add)
        .vector_final()
}

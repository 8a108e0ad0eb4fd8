// C2: the Packet holding the reduced axis also holds padding (R has 2 elements in 4 lanes) (docs/vector-engine.md §3.6)
// tujit: expect E-VE-030
axes![A = 512, R = 2];

fn reduce<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, m![1], m![1 # 2], m![A / 2], m![A % 2], m![R # 8]>,
) -> VectorFinalTensor<'l, T, f32, m![1], m![1 # 2], m![A / 2], m![A % 2], m![1 # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![R # 4]>()
        .vector_intra_slice_reduce::<R, m![A % 2], m![1 # 4]>(IntraSliceReduceOpF32::Add)
        .vector_widen_pad::<m![1 # 8]>()
        .vector_final()
}

// Time pads the reduced axis (R = 5 in 6 time steps): excluding the padded step needs the Valid Count Generator, not simulated (docs/vector-engine.md §3.6)
// tujit: expect E-VE-013
axes![A = 512, R = 5];

fn reduce<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![A / 2], m![R # 6], m![A % 2 # 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![1 # 2], m![A / 2], m![1], m![A % 2 # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_intra_slice_reduce::<R, m![1], m![A % 2 # 4]>(IntraSliceReduceOpI32::Min)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_final()
}

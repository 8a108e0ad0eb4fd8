// The reduced axis is held by neither Time nor Packet: nothing to reduce in the slice (docs/vector-engine.md §3.6)
// tujit: expect E-VE-027
axes![A = 512, R = 16];

fn reduce<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![R # 256], m![A / 2 # 256], m![A % 2 # 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![1 # 2], m![R # 256], m![A / 2 # 256], m![A % 2 # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_intra_slice_reduce::<R, m![A / 2 # 256], m![A % 2 # 4]>(IntraSliceReduceOpI32::AddSat)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_final()
}

// The reduced axis is in Packet, so the tree leaves one value per flit: Packet2 is `1 # 4`, not the packet (docs/vector-engine.md §3.6)
// tujit: expect E-VE-029
axes![A = 512, R = 4];

fn reduce<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, m![1], m![1 # 2], m![A / 2], m![A % 2], m![R # 8]>,
) -> VectorFinalTensor<'l, T, f32, m![1], m![1 # 2], m![A / 2], m![A % 2], m![R # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![R]>()
        .vector_intra_slice_reduce::<R, m![A % 2], m![R]>(IntraSliceReduceOpF32::Add)
        .vector_widen_pad::<m![R # 8]>()
        .vector_final()
}

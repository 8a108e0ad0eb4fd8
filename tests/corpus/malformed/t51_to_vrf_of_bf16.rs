// expect: E-TYPE-019 14:10   (bf16 stream into the VRF)
axes![V = 32, M = 32, N = 8, K = 32];

type Chip = m![1];
type Cluster = m![V / 16];
type Slice = m![V % 16 # 256];
type Lane = m![N];

fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![M, K / 16], m![K % 16]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![K]>,
) -> VrfTensor<bf16, Chip, Cluster, Slice, m![M, K]> {
    input
        .to_vrf()
}

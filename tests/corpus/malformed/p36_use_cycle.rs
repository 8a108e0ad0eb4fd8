// expect: E-PARSE-211 25:8   (imports that go round)
axes![V = 32, M = 32, N = 8, K = 32];

type Chip = m![1];
type Cluster = m![V / 16];
type Slice = m![V % 16 # 256];
type Lane = m![N];

fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![M, K / 16], m![K % 16]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, Lane, m![K]>,
) -> ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![M], m![N]> {
    input
        .contract_outer::<m![M], m![K], _, _, _>(trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![M]>()
        .contract_lane::<m![M], m![N]>(LaneMode::Interleaved)
}
mod a {
    pub use super::b::X;
}
mod b {
    pub use super::a::X;
}
use a::X;

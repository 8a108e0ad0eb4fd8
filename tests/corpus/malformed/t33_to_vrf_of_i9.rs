// expect: E-TYPE-019 26:10   (i9 stream into the VRF)
axes![A = 8, K8 = 32, R = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

fn k<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<i8, Chip, Cluster, Slice, m![A, K8]>,
    trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![R, K8]>,
) -> VrfTensor<i9, Chip, Cluster, Slice, m![A, K8]> {
    let trf: TrfTensor<i8, Chip, Cluster, Slice, Lane, m![K8]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R], m![K8]>()
        .collect::<m![R], m![K8]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![K8]>()
        .fetch_zero_point_sub::<i9>(3)
        .collect::<m![A], m![K8]>()
        .to_vrf()
}

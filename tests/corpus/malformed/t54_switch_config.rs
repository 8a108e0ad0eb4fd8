// expect: E-TYPE-027 24:33   (a Switch Engine configuration without its slice0 field)
axes![A = 8, K8 = 32, R = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
type Lane = m![R];

fn k<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<i8, Chip, Cluster, Slice, m![A, K8]>,
    trf_dm: &DmTensor<i8, Chip, Cluster, Slice, m![R, K8]>,
) -> ContractTensor<'l, { Tu::Main }, i32, Chip, Cluster, Slice, m![A], m![R]> {
    let trf: TrfTensor<i8, Chip, Cluster, Slice, Lane, m![K8]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![R], m![K8]>()
        .collect::<m![R], m![K8]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![A], m![K8]>()
        .switch::<Slice, m![A]>(SwitchConfig::Broadcast1 { slice1: 4 })
        .fetch_zero_point_sub::<i9>(3)
        .collect::<m![A], m![K8]>()
        .contract_outer::<m![A], m![K8], _, _, i8>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![R]>(LaneMode::Interleaved)
}

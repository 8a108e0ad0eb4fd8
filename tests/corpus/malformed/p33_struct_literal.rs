// expect: E-PARSE-208 12:13   (a struct literal other than SwitchConfig::…)
axes![A = 256, B = 64, C = 63, X = 4];

type Chip = m![1];
type Cluster = m![1 # 2];

fn k<'l, const T: Tu>(
    input: FetchTensor<'l, T, i8, Chip, Cluster, m![A], m![B], m![C # 64]>,
) -> SwitchTensor<'l, T, i8, Chip, Cluster, m![A / 32, X, A % 8], m![B, A / 8 % 4], m![C # 64]> {
    input
        .switch::<m![A / 32, X, A % 8], m![B, A / 8 % 4]>(
            Config { slice1: 4, slice0: 8 },
        )
}

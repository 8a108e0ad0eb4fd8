// A valid kernel with nothing `tujit cycles` times: its only statement ends at the fetch, so no
// flit leaves Collect for any engine and no command is timed (E-CYCLES-001, docs/cycle-model.md
// §9).
axes![A = 64];

fn fetch_only<'l, const T: Tu>(
    input: BeginTensor<'l, T, i8, m![1], m![1 # 2], m![1 # 256], m![1], m![A]>,
) -> FetchTensor<'l, T, i8, m![1], m![1 # 2], m![1 # 256], m![A / 32], m![A % 32]> {
    input.fetch::<m![A / 32], m![A % 32]>()
}

// expect: only the main context's Fetch Unit has a lookup table (docs/scalars.md §4.5, furiosa-opt docs/src/computing-tensors/fetch-adapter.md "Table Lookup")
// tujit: expect E-CTX-007
use furiosa_opt_std::prelude::*;

axes![A = 4096, B = 16];

type Chip = m![1];
type Cluster = m![1 # 2];

#[device(chip = 1)]
pub fn lookup_on_sub(
    ctx: &mut Context,
    input: &HbmTensor<f8e4m3, m![1], m![A, B]>,
) -> HbmTensor<bf16, m![1], m![B, A]> {
    let input_dm = input.to_dm::<Cluster, m![A / 16], m![A / 8 % 2, A % 8, B]>(&mut ctx.tdma);
    let decoded: DmTensor<bf16, Chip, Cluster, m![A / 16], m![A / 8 % 2, A % 8, B]> = ctx
        .sub
        .begin(input_dm.view())
        .fetch::<m![A / 8 % 2], m![A % 8, B]>()
        .fetch_table_lookup::<bf16>()
        .collect::<m![A / 8 % 2, A % 8], m![B]>()
        .commit_trim::<m![B]>()
        .commit();
    decoded.to_hbm(&mut ctx.tdma)
}

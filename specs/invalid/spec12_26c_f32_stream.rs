// expect: type error: no operand pair f32 × f32 (docs/contraction.md §2.1, §12 #26)
// tujit: expect E-TYPE-014
// Derived by docs/contraction.md §12 (not a book kernel): f32 cannot enter contract_outer.
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![A = 8, K4 = 64, K8 = 32, K16 = 16, R = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn f32_stream<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, Chip, Cluster, Slice, m![A], m![K8 / 4]>,
    trf: &TrfTensor<f32, Chip, Cluster, Slice, m![R], m![K8 / 4]>,
) -> ContractOuterTensor<'l, T, f32, f32, Chip, Cluster, Slice, m![R], m![A], m![K8 / 4]> {
    input.contract_outer::<m![A], m![K8 / 4], _, _, _>(trf)
}

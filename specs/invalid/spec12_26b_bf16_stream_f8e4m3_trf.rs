// expect: type error: no operand pair bf16 × f8e4m3 (docs/contraction.md §2.1, §12 #26)
// tujit: expect E-TYPE-014
// Derived by docs/contraction.md §12 (not a book kernel): bf16 × f8e4m3 is no operand pair (float types must match).
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![A = 8, K4 = 64, K8 = 32, K16 = 16, R = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn bf16_stream_f8e4m3_trf<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![A], m![K16]>,
    trf: &TrfTensor<f8e4m3, Chip, Cluster, Slice, m![R], m![K16]>,
) -> ContractOuterTensor<'l, T, f32, bf16, Chip, Cluster, Slice, m![R], m![A], m![K16]> {
    input.contract_outer::<m![A], m![K16], _, _, _>(trf)
}

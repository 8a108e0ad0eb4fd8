// expect: type error: no operand pair i4 × i8 (docs/contraction.md §2.1, §12 #26)
// tujit: expect E-TYPE-014
// Derived by docs/contraction.md §12 (not a book kernel): i4 × i8 is no operand pair (integer widths must match).
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![A = 8, K4 = 64, K8 = 32, K16 = 16, R = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn i4_stream_i8_trf<'l, const T: Tu>(
    input: CollectTensor<'l, T, i4, Chip, Cluster, Slice, m![A], m![K4]>,
    trf: &TrfTensor<i8, Chip, Cluster, Slice, m![R], m![K8]>,
) -> ContractOuterTensor<'l, T, i32, i4, Chip, Cluster, Slice, m![R], m![A], m![K4]> {
    input.contract_outer::<m![A], m![K4], _, _, _>(trf)
}

// expect: ContractTimeError::OrderNotPreserved (docs/contraction.md §7 rule 2, §12 #18)
// tujit: expect E-TIME-002
// Derived by docs/contraction.md §12 (not a book kernel): retained factors A, B are reordered.
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![A = 4, B = 2, C = 4, N = 8, P = 16];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn order_not_preserved<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![A, B], m![P]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, m![N], m![P]>,
) -> ContractTimeTensor<'l, T, f32, Chip, Cluster, Slice, m![N], m![B, A], m![1]> {
    input
        .contract_outer::<m![A, B], m![P], _, _, _>(trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![B, A]>()
}

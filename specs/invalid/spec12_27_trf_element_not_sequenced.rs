// expect: TrfElementNotSequenced [PROP] (docs/contraction.md §5.2 S2, §12 #27)
// tujit: expect E-OUTER-011
// Derived by docs/contraction.md §12 (not a book kernel): OutTime [M] never walks the TRF axis O.
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![M = 4, N = 8, O = 2, K = 16];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn trf_element_not_sequenced<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![M], m![K]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, m![N], m![O, K]>,
) -> ContractOuterTensor<'l, T, f32, bf16, Chip, Cluster, Slice, m![N], m![M], m![K]> {
    input.contract_outer::<m![M], m![K], _, _, _>(trf)
}

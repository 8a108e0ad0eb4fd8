// expect: ContractPacketError::NotAContraction (docs/contraction.md §6 rule 4, §12 #17)
// tujit: expect E-PACKET-004
// Derived by docs/contraction.md §12 (not a book kernel): [K % 4] would sum the outer digits of K, not adjacent cells.
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![K = 64, M = 4, N = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn not_a_contraction<'l, const T: Tu>(
    input: CollectTensor<'l, T, i8, Chip, Cluster, Slice, m![M, K / 32], m![K % 32]>,
    trf: &TrfTensor<i8, Chip, Cluster, Slice, m![N], m![K]>,
) -> ContractPacketTensor<'l, T, i32, Chip, Cluster, Slice, m![N], m![M], m![K % 4]> {
    input
        .contract_outer::<m![M], m![K], _, _, _>(trf)
        .contract_packet::<m![K % 4]>()
}

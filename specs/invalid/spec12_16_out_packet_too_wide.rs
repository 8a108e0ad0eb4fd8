// expect: ContractPacketError::OutPacketTooWide(64) (docs/contraction.md §6 rule 2, §12 #16)
// tujit: expect E-PACKET-002
// Derived by docs/contraction.md §12 (not a book kernel): 64 output columns exceed the 32 accumulator columns.
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![K = 64, M = 4, N = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn out_packet_too_wide<'l, const T: Tu>(
    input: CollectTensor<'l, T, i8, Chip, Cluster, Slice, m![M, K / 32], m![K % 32]>,
    trf: &TrfTensor<i8, Chip, Cluster, Slice, m![N], m![K]>,
) -> ContractPacketTensor<'l, T, i32, Chip, Cluster, Slice, m![N], m![M], m![K]> {
    input
        .contract_outer::<m![M], m![K], _, _, _>(trf)
        .contract_packet::<m![K]>()
}

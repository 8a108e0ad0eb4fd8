// expect: StreamAdapterError::OutPacketFlits(16) (docs/contraction.md §5.1 rule 2, §12 #15)
// tujit: expect E-OUTER-003
// Derived by docs/contraction.md §12 (not a book kernel): a bf16 OutPacket of 8 elements is 16 B.
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![K = 64, N = 8];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn out_packet_flits<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![K / 16], m![K % 16]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, m![N], m![K]>,
) -> ContractOuterTensor<'l, T, f32, bf16, Chip, Cluster, Slice, m![N], m![K / 16], m![K % 8]> {
    input.contract_outer::<m![K / 16], m![K % 8], _, _, _>(trf)
}

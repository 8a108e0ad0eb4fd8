// expect: ContractLaneError::OutPacketSize(4) (docs/contraction.md §8 rule 2, §12 #21)
// tujit: expect E-LANE-002
// Derived by docs/contraction.md §12 (not a book kernel): with 4 lanes the Interleaved OutPacket must be [M # 8].
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![A = 4, M = 4, P = 16];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn out_packet_size<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![A], m![P]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, m![M], m![P]>,
) -> ContractTensor<'l, T, f32, Chip, Cluster, Slice, m![A], m![M]> {
    input
        .contract_outer::<m![A], m![P], _, _, _>(trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![M]>(LaneMode::Interleaved)
}

// expect: TrfPacketBroadcastDependsOnTrf [PROP] (docs/contraction.md §5.2 S1, §12 #28)
// tujit: expect E-OUTER-010
// Derived by docs/contraction.md §12 (not a book kernel): ReadSize 16 with PacketBroadcast [O], but O is a TRF axis.
#![feature(adt_const_params)]
extern crate furiosa_opt_std;
use furiosa_opt_std::prelude::*;
axes![M = 4, N = 8, X = 2, O = 2, K = 16];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

fn trf_packet_broadcast_depends_on_trf<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, Chip, Cluster, Slice, m![M, X, O], m![K]>,
    trf: &TrfTensor<bf16, Chip, Cluster, Slice, m![N], m![O, X, K]>,
) -> ContractOuterTensor<'l, T, f32, bf16, Chip, Cluster, Slice, m![N], m![M, X], m![O, K]> {
    input.contract_outer::<m![M, X], m![O, K], _, _, _>(trf)
}

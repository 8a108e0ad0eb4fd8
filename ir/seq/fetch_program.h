// The Sequencer IR of one data-path chain from DM into the Tensor Unit (docs/datapath.md §4–§6,
// §8; docs/contraction.md §2.2): `begin(x.view()).fetch::<T, P>() [.fetch_table_lookup::<D>()]
// [.fetch_cast::<D>()] [.fetch_zero_point_sub::<D>(zp)] [.switch::<S, T1>(cfg)]
// .collect::<T2, P2>()`. Like
// ContractionProgram it holds only values the verifiers derived (the Fetch sequencer configuration,
// the Collect split); both engines read it composed into a run program's operand streams
// (operand_streams.h), and the tests also run it on its own (tests/support/fetch_exec.h,
// tests/support/fetch_jit.h). One slice runs:
//
//   for pos in 0 … |T|·|P| − 1, in the sequencer's loop order      Fetch Engine (§4, §5)
//     addr = Σ digit·stride over `sequencer.entries`              (stride 0 = broadcast)
//     if addr ≥ buffer: skip (a padded position over-reading past the buffer: poison, Top)
//     v    = dm[addr]                                             one DM element
//     v    = zp(cast(lookup(v)))                                Fetch Adapter (§6), each optional
//     t, e = pos / |P|, pos mod |P|
//     out[t·F + e / E][e mod E] = v                               Collect: F flits of E elements
//   cells of out the packet does not fill (e ≥ |P|) are top padding (§8)
//
// A Switch Engine between the adapter and Collect (docs/switch.md) moves packets across slices:
// the slice loop above is then not independent, and only the composed operand streams
// (operand_streams.h `switched_operand`) run such a chain; the program carries the switch's step.
//
// Images: dm [spatial][buffer] (a DmTensor's [1][Element], a BeginTensor's [Time][Packet]), out
// [spatial][time·F][E]. The padding kinds of the fetched stream's positions come from the `fetched`
// type's mappings (the engines' cell states); the values are what the hardware reads (an over-read
// inside the buffer returns whatever the buffer holds there; past its end, the poison pattern).
#pragma once

#include "ir/datapath/fetch_engine.h"
#include "ir/lang/kernel.h"
#include "ir/seq/switch_step.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace tujit::ir::seq {

/// What the collected stream feeds (docs/contraction.md §3, docs/datapath.md §8.1–§8.2).
enum class FetchConsumer : std::uint8_t { Stream, ToTrf, ToVrf };

struct FetchProgram {
  std::string kernel_name;
  /// The kernel stage the program ends at (an index into Kernel::stages): the Collect it was
  /// lowered from (lower_fetch) or the MemTensor read (lower_mem_read). A consumer finds the
  /// program of an operand by this index, never by comparing types.
  std::size_t stage = 0;
  std::string source;   // the DmTensor parameter `begin` reads (or a BeginTensor parameter)
  TensorType dm;        // its type: the layout of the DM image (Time ⊗ Packet for a Begin)
  TensorType fetched;   // the Fetch output (before the adapter): which positions are padding
  TensorType collected; // the Collect output: the stream the consumer reads
  datapath::FetchContext context = datapath::FetchContext::Main;
  FetchConsumer consumer = FetchConsumer::Stream;

  ScalarType dm_type = ScalarType::BF16;     // DM element type
  ScalarType stream_type = ScalarType::BF16; // after the Fetch Adapter
  /// fetch_table_lookup: the decode table dm_type → lookup_to (docs/scalars.md §4.5).
  std::optional<ScalarType> lookup_to;
  /// fetch_cast to another type (docs/scalars.md §5.1), of the lookup's output when there is one;
  /// nullopt for none or an identity cast.
  std::optional<ScalarType> cast_to;
  /// fetch_zero_point_sub (docs/scalars.md §6): stream_type is then i5 / i9.
  std::optional<std::int64_t> zero_point;

  /// The Fetch sequencer: addresses in DM elements, outermost entry first (docs/datapath.md §4).
  datapath::SequencerConfig sequencer;
  std::uint64_t read_size = 1;        // elements per DM read (§5)
  std::uint64_t reads_per_packet = 1; // |P| / read_size
  std::uint64_t fetch_cycles = 1;     // |T| · reads_per_packet, one read per cycle

  std::uint64_t spatial = 1;          // |Chip|·|Cluster|·|Slice|
  std::uint64_t buffer = 1;           // |Element| of the DM tensor: cells per slice
  std::uint64_t time = 1;             // |T| of the fetch
  std::uint64_t packet = 1;           // |P| of the fetch
  std::uint64_t flits_per_packet = 1; // F: Collect's flits per fetched packet (§8)
  std::uint64_t flit_elements = 1;    // E: elements of stream_type per 32 B flit
  /// The Switch Engine between the Fetch Adapter and Collect, when the chain has one: Collect
  /// then reads its OutSlice and OutTime (docs/switch.md).
  std::optional<SwitchStep> switch_engine;

  /// The type the Fetch Adapter's cast reads: the lookup's output, else the DM type.
  ScalarType cast_source() const { return lookup_to.value_or(dm_type); }
  /// The type the adapter hands on before a zero-point subtraction: the cast's, the lookup's or
  /// the DM type.
  ScalarType adapted_type() const { return cast_to.value_or(cast_source()); }

  /// The register-file store takes the StoTRF / StoVRF short command (docs/contraction.md §4.4,
  /// docs/datapath.md §8.1): the consumer is a store, the fetch reads one contiguous DM run in
  /// order (no broadcast, no gap, no reordering), no adapter changes the values, and Collect adds
  /// no padding. Nullopt when the chain needs the Fetch → Collect path; else "StoTRF" / "StoVRF".
  std::optional<std::string> short_command;
  /// Why the short command does not apply (empty when it does or the consumer is a stream).
  std::string short_command_refusal;

  /// Packets Collect reads per slice: the fetch's, or the switch's OutTime.
  std::uint64_t switched_time() const {
    return switch_engine ? switch_engine->output.mapping(Slot::Time).size() : time;
  }
  std::uint64_t collected_time() const { return switched_time() * flits_per_packet; }
};

/// Calls f(field) for every field of a FetchProgram in declaration order (the fingerprint's one
/// list, ir/seq/field_hash.h): naming exactly the aggregate's fields, so a field added and not
/// named here is a compile error.
template <class Program, class F>
requires std::same_as<std::remove_const_t<Program>, FetchProgram>
void for_each_field(Program& p, F&& f) {
  auto& [kernel_name, stage, source, dm, fetched, collected, context, consumer, dm_type,
         stream_type, lookup_to, cast_to, zero_point, sequencer, read_size, reads_per_packet,
         fetch_cycles, spatial, buffer, time, packet, flits_per_packet, flit_elements,
         switch_engine, short_command, short_command_refusal] = p;
  (f(kernel_name), f(stage), f(source), f(dm), f(fetched), f(collected), f(context), f(consumer),
   f(dm_type), f(stream_type), f(lookup_to), f(cast_to), f(zero_point), f(sequencer), f(read_size),
   f(reads_per_packet), f(fetch_cycles), f(spatial), f(buffer), f(time), f(packet),
   f(flits_per_packet), f(flit_elements), f(switch_engine), f(short_command),
   f(short_command_refusal));
}

/// Lowers the data-path chain that ends at the Collect stage `collect` (an index into
/// kernel.stages), following Stage::producer back to its Fetch, from the Fetch Engine's and
/// Collect's derivations in the kernel's check; E-RUN-101 when the chain does not start with
/// `begin(x.view())` of a DmTensor parameter.
Result<FetchProgram> lower_fetch(const verify::CheckedKernel& kernel, std::size_t collect);

/// The book's `MemTensor::read::<Time, Packet>()` (docs/datapath.md §4.2) of the MemTensor
/// parameter, as the Fetch sequencer runs it: one slice, the buffer
/// read as the stream, no adapter, no Collect (a packet is one row of |Packet| elements).
Result<FetchProgram> lower_mem_read(const verify::CheckedKernel& kernel, std::size_t read_index);

/// Every data-path chain of the kernel (each Collect stage that reads a fetch), in stage order.
Result<std::vector<FetchProgram>> lower_fetches(const verify::CheckedKernel& kernel);

/// The invariants the engines and the cycle models rely on (E-RUN-102 naming the first broken
/// one): non-empty dimensions, a sequencer walking |T|·|P| positions of packets of |P|, whole
/// reads per packet and one read per cycle, packets filling their flits (the last one partly at
/// most), a table lookup only of a decode table in the main context, the stream's scalar the
/// Fetch Adapter's, and a short command only for an unadapted register-file store. lower_fetch and
/// lower_mem_read return only programs that verify.
Status verify(const FetchProgram& p);

/// The `tujit compile --emit seq` text of the program.
std::string to_text(const FetchProgram& p);

/// A stable hash of every field (for_each_field) but the names and the tensor types kept for
/// reports (ir/seq/field_hash.h); the JIT's cache key.
std::uint64_t fingerprint(const FetchProgram& p);

} // namespace tujit::ir::seq

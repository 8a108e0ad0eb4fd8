// The Sequencer IR of a write into DM: the Commit Engine's `commit` at the end of an output path
// (docs/output-path.md §3) or the book's `MemTensor::write` (docs/datapath.md §4.2). Both run the
// write sequencer over the committed stream: packet t arrives at cycle t, its live positions in
// stream order form writes of consecutive DM addresses of at most write_size elements, one write
// per cycle (docs/cycle-model.md §7.3). Padded positions are dropped: nothing is written for them.
//
// The engines write a run's output through its output streams (run_program.h); this program is
// what the cycle models and `tujit cycles` read, so the walk is derived once, here.
#pragma once

#include "ir/datapath/sequencer_config.h"
#include "ir/lang/kernel.h"
#include "ir/verify/checked_kernel.h"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace tujit::ir::seq {

struct CommitProgram {
  std::string kernel_name;
  /// The kernel stage the program was lowered from (an index into Kernel::stages).
  std::size_t stage = 0;
  /// The committed stream (its Time and Packet mappings say which positions are live).
  TensorType stream;
  ContextKind context = ContextKind::Main;
  /// The write sequencer: stream position → DM address in elements (docs/datapath.md §4).
  datapath::SequencerConfig sequencer;
  std::uint64_t element_bits = 8;
  std::uint64_t time = 1;         // |Time| of the stream: packets, one per cycle
  std::uint64_t packet = 1;       // |Packet|: positions per packet
  std::uint64_t live_packets = 1; // packets holding a live position
  /// valid_size: live positions of a live packet (every live packet has the same Packet mapping,
  /// so the same live positions and address steps).
  std::uint64_t valid = 1;
  std::uint64_t access = 1;     // the longest run of those positions at consecutive addresses
  std::uint64_t write_size = 1; // elements per write (docs/output-path.md §3)

  /// Packet t's cell of the stream's Time mapping.
  Cell time_cell(std::uint64_t t) const;
  /// Whether position e of a packet whose Time cell is `time_cell` is live (written).
  bool position_live(const Cell& time_cell, std::uint64_t e) const;
};

template <class Program, class F>
requires std::same_as<std::remove_const_t<Program>, CommitProgram>
void for_each_field(Program& p, F&& f) {
  auto& [kernel_name, stage, stream, context, sequencer, element_bits, time, packet, live_packets,
         valid, access, write_size] = p;
  (f(kernel_name), f(stage), f(stream), f(context), f(sequencer), f(element_bits), f(time),
   f(packet), f(live_packets), f(valid), f(access), f(write_size));
}

/// Lowers the write at kernel.stages[stage]: a Commit Engine `commit` run in its stage's context
/// (the write sequencer and write size the commit verifier derived), or a MemTensor `write`
/// (its write sequencer; write size gcd(valid, access), at most one 32-byte flit). E-RUN-101 for
/// another stage. Returns only programs that verify.
Result<CommitProgram> lower_commit(const verify::CheckedKernel& kernel, std::size_t stage);

/// The invariants the cycle models rely on (E-RUN-102 naming the first broken one): a sequencer
/// walking |Time|·|Packet| positions in packets of |Packet|, at most |Time| live packets, at most
/// |Packet| live positions per packet, and 1 <= write_size <= max(1, |Packet|).
Status verify(const CommitProgram& p);

/// A stable hash of every field but the names and the stream's type (ir/seq/field_hash.h).
std::uint64_t fingerprint(const CommitProgram& p);

/// `tujit compile --emit seq`'s line for the write.
std::string to_text(const CommitProgram& p);

} // namespace tujit::ir::seq

// The Sequencer IR of the book's `MemTensor::write(stream)` (furiosa-opt docs/src/moving-tensors/
// sequencer.md): the stream written back into the buffer by the sequencer's loops in write mode.
// Both engines run it: the interpreter (runtime/interp/write_exec.h) and the JIT
// (codegen/write_jit.h). One slice runs:
//
//   for pos in 0 … |Time|·|Packet| − 1, in the sequencer's loop order
//     addr = Σ digit·stride over `sequencer.entries`
//     if the stream cell at pos is live: buffer[addr] = stream[pos]
//
// A padded stream position is dropped: nothing is written for it (the write verifier,
// ir/datapath/sequencer_derive.h, proves the live positions write each live buffer cell once and
// stay inside the buffer). Buffer cells no live position writes (its own padding) keep what they
// held. Images: stream [1][|Time|][|Packet|], buffer [1][1][|Buf|].
#pragma once

#include "ir/datapath/sequencer_config.h"
#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"

#include <cstdint>
#include <string>

namespace tujit::ir::seq {

struct WriteProgram {
  std::string kernel_name;
  std::string source; // the StreamTensor parameter written
  std::string target; // the MemTensor parameter written into
  TensorType stream;  // its type: which positions are live
  TensorType buffer;
  ScalarType dtype = ScalarType::I8;
  datapath::SequencerConfig sequencer; // addresses in buffer elements, outermost entry first
  std::uint64_t time = 1, packet = 1, buffer_cells = 1;
  std::uint64_t written = 0; // live stream positions
  std::uint64_t stream_cells() const { return time * packet; }
};

/// Lowers the write stage `write_index`: derives the write-mode sequencer (its refusals on
/// failure). E-RUN-101 when the stage is not a write of a StreamTensor parameter into a MemTensor
/// parameter.
Result<WriteProgram> lower_mem_write(const Kernel& kernel, std::size_t write_index);

std::string to_text(const WriteProgram& p);
std::uint64_t fingerprint(const WriteProgram& p);

} // namespace tujit::ir::seq

// A DMA transfer (`to_dm`, `to_hbm`; docs/dma.md): a tensor move between HBM and DM. The
// destination holds the same mathematical tensor as the source, laid out by its own mappings
// (furiosa-opt docs/src/moving-tensors/dma-engine.md): every coordinate the source holds, the
// destination holds, and an axis only the destination names is a broadcast (the same elements
// copied to every coordinate of it). The read and write sides move one packet at a time: the
// innermost run of elements that is contiguous in both layouts.
#pragma once

#include "ir/lang/types.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/stage_check.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace tujit::ir::verify {

/// The memory tiers a transfer connects.
enum class DmaRoute : std::uint8_t { HbmToDm, DmToHbm, HbmToHbm };
std::string_view to_string(DmaRoute r); // "HBM → DM", …

struct DmaInput {
  TensorType source;      // an HbmTensor or DmTensor
  TensorType destination; // an HbmTensor or DmTensor of the same element type
};

struct DmaDerived {
  DmaRoute route = DmaRoute::HbmToDm;
  /// The innermost run of elements contiguous in both Element layouts, and the packets it moves
  /// in: the run, or 4096-byte pieces of a longer one.
  std::uint64_t run_elements = 1;
  std::uint64_t run_bytes = 1;
  std::uint64_t packet_bytes = 1;
  /// Live destination elements written (a broadcast writes each copy) and their bytes.
  std::uint64_t elements = 0;
  std::uint64_t bytes = 0;
  /// Packets and the 256-byte AXI requests they split into (docs/dma.md §3).
  std::uint64_t packets = 0;
  std::uint64_t requests = 0;
  /// The DMNs the DM side touches (0 for HBM ↔ HBM) and the DMA Engines that serve them.
  std::uint64_t dmns = 0;
  std::uint64_t engines = 1;
  /// Requests that write only part of a 256-byte HBM block: the last of every packet into HBM
  /// that is not a whole number of blocks (a read-modify-write, docs/dma.md §4).
  std::uint64_t partial_hbm_writes = 0;
  /// Reads from HBM that cross a 256-byte block and take a second transfer (docs/dma.md §4): the
  /// source's runs start at multiples of run_bytes in its Element layout, each packet of a run
  /// at the run's start plus a multiple of 4096 bytes.
  std::uint64_t unaligned_hbm_reads = 0;
  /// Axes the destination names and the source does not: copied along them.
  std::string broadcast;
  /// Keys: route, run_elements, run_bytes, packet_bytes, elements, bytes, packets, requests, dmns,
  /// engines, partial_hbm_writes, unaligned_hbm_reads, broadcast.
  DerivedTable to_table() const;
};

/// The second transfers of one run of `run_bytes` read from HBM starting `offset` bytes into a
/// 256-byte block: each of its packets (4096-byte pieces from the run's start) that crosses a block
/// boundary it need not cross takes one more: a read crossing a 256-byte boundary takes two
/// transfers (furiosa-opt docs/src/moving-tensors/memory-performance.md "Misaligned Access").
std::uint64_t unaligned_run_reads(std::uint64_t offset, std::uint64_t run_bytes);

/// Rules, first failure wins: E-DMA-001 the destination does not hold the source's tensor (an
/// axis or a coordinate is lost, or one it does not have is invented), E-DMA-002 a write into DM
/// whose packet is not a whole number of 8-byte words. The Cluster / Slice sizes and the DM
/// capacity of a DmTensor are checked with every tensor type (E-HW-001 … E-HW-003).
Result<DmaDerived> verify_dma(const DmaInput& in);

} // namespace tujit::ir::verify

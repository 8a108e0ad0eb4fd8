// The RNGD Tensor Unit as a target description: every hardware constant tujit uses, in one
// place, each with the spec section it comes from. Another chip is another description of this
// shape, not a code change elsewhere (docs/design.md §5.2).
#pragma once

#include <cstdint>

namespace tujit::target {

struct TensorUnitDescription {
  // --- streams (docs/contraction.md §1, docs/datapath.md §11.1) ---
  std::uint32_t flit_bytes = 32;               // every engine after Collect moves one 32 B flit
  std::uint32_t contraction_packet_bytes = 64; // the Multiplier always works on 64 B
  std::uint32_t max_pack_size = 2;             // PackSize ∈ {1, 2}: 32 B or 64 B OutPacket
  std::uint32_t bits_per_byte = 8;             // docs/mapping.md §8 BITS_PER_BYTE

  // --- lanes and the Contraction Engine (docs/contraction.md §1, §6–§8) ---
  std::uint32_t lanes = 8;                // Lane::SIZE ∈ {1, 2, 4, 8}
  std::uint32_t accumulator_cells = 1024; // Time Reducer buffer per slice
  std::uint32_t accumulator_columns = 32; // TEMPORAL_ACCUMULATOR_COLS: max |P2|
  std::uint32_t output_bus_elements = 8;  // CONTRACT_LANE_OUT_PACKET_ELEMENTS
  std::uint32_t tree_latency_4bit =
      7; // furiosa-opt docs/src/computing-tensors/contraction-engine/packet-reducer.md: i4
  std::uint32_t tree_latency_8bit = 6;  // i8 / f8
  std::uint32_t tree_latency_16bit = 5; // bf16
  // Cycle model (docs/contraction.md §10; harness/cycles/, docs/cycle-model.md).
  std::uint32_t fetch_adapter_cast_latency =
      2; // furiosa-opt docs/src/computing-tensors/fetch-adapter.md: a cast adds 1–2 cycles; the
         // model takes the upper bound
  // [MODEL] the book gives no latency for the table lookup; taken as the cast's upper bound (one
  // table read per key, a stage ahead of the cast; docs/cycle-model.md A4).
  std::uint32_t fetch_adapter_lookup_latency = 2;
  std::uint32_t stream_adapter_buffer_packets = 2; // [MODEL] the packet in use + one being filled
  std::uint32_t trf_store_buffer_banks = 2; // [MODEL] a store holds one pending flit per bank
  // [MODEL] configuring a command before its first read: one cycle per engine it configures (the
  // StoTRF / StoVRF short command is one compact instruction: furiosa-opt
  // docs/src/computing-tensors/register-files.md "lower setup overhead"; no figure is published;
  // docs/cycle-model.md M15).
  std::uint32_t command_setup_cycles_per_engine = 1;
  // Every cycle count is of the 1 GHz clock the book's DMA examples count in (furiosa-opt
  // docs/src/moving-tensors/dma-engine.md); a timeline in seconds divides by it.
  std::uint64_t clock_hz = 1'000'000'000;

  // --- register files (docs/contraction.md §1, §4; furiosa-opt
  // docs/src/computing-tensors/register-files.md) ---
  std::uint32_t trf_banks = 2;
  std::uint32_t trf_rows = 128;             // rows per bank at 8 lanes
  std::uint32_t trf_row_bits = 320;         // physical row: 32 B payload + integer widening bits
  std::uint32_t trf_row_payload_bytes = 32; // logical bytes per row per bank
  std::uint32_t trf_capacity_bytes = 65536; // 8 lanes × 2 banks × 128 rows × 32 B per slice
  std::uint32_t trf_cache_rows = 4;         // direct-mapped read cache rows per (lane, bank)
  std::uint32_t trf_wide_read_bytes = 64;   // both banks, per lane per cycle
  std::uint32_t trf_narrow_read_bytes = 32; // one bank
  std::uint32_t vrf_bytes = 8192;           // VRF_BYTES per slice

  // --- memory and hierarchy (docs/datapath.md §1, §3; docs/contraction.md §1) ---
  std::uint32_t dm_bytes_per_slice = 512 * 1024;
  std::uint32_t dm_banks = 16;
  std::uint32_t dm_bank_word_bytes = 8;
  std::uint32_t clusters_per_chip = 2; // hardware count; accepted sizes below
  std::uint32_t slices_per_cluster = 256;
  std::uint32_t dmns_per_cluster = 8; // Data Memory Networks, 32 slices each
  std::uint32_t dmn_bytes_per_cycle = 128;

  // --- DMA (docs/dma.md; furiosa-opt docs/src/moving-tensors/dma-engine.md) ---
  std::uint32_t dma_engines_per_chip = 8;
  std::uint32_t dmns_per_dma_engine = 2; // "one per pair of DMNs"
  std::uint32_t dma_engine_bytes_per_cycle = 256;
  std::uint32_t dma_request_bytes = 256;        // a packet splits into ⌈n / 256⌉ AXI requests
  std::uint32_t dma_max_packet_bytes = 4096;    // 256 beats × 16 B (AXI)
  std::uint32_t dma_dm_write_align_bytes = 8;   // DM writes are whole bank words
  std::uint32_t dma_startup_cycles = 500;       // per command, before data moves
  std::uint32_t hbm_bytes_per_cycle = 1500;     // 1.5 TB/s per chip at the 1 GHz clock
  std::uint32_t hbm_partial_write_penalty = 50; // a partial-block write is a read-modify-write
  std::uint32_t sub_context_write_bytes = 8;    // a sub-context commit writes 8 B at a time

  // --- Transpose Engine (docs/transpose.md; the book's "Parameters", "Buffering Modes" of
  // furiosa-opt docs/src/computing-tensors/transpose-engine.md) ---
  std::uint32_t transpose_valid_size_4bit = 16;  // valid elements per input flit, 4-bit types
  std::uint32_t transpose_valid_size = 8;        // 8-, 16- and 32-bit types
  std::uint32_t transpose_max_in_rows_bytes = 8; // in_rows of 16 / 8 / 4 / 2 elements
  std::uint32_t transpose_min_in_cols = 8;       // in_cols ∈ {8, 16, 32} (4-bit: {16, 32})
  std::uint32_t transpose_max_in_cols = 32;
  std::uint32_t transpose_buffer_columns =
      16; // each of the two buffers: in_cols ≤ 16 double-buffers

  // --- Switch Engine (docs/switch.md; furiosa-opt docs/src/computing-tensors/switch-engine.md
  // "Architecture", "Performance") ---
  std::uint32_t switch_ring_slices = 256; // one router per slice on the chip's ring
  std::uint32_t switch_flit_bytes = 32;   // flits_per_packet = bytes of a packet / 32

  // --- Vector Engine (docs/vector-engine.md §3.6) ---
  // The intra-slice reduce's accumulator slots (furiosa-opt
  // docs/src/computing-tensors/vector-engine/intra-slice-reduce.md "Reduction in Time": capacity
  // 8).
  std::uint32_t ve_reduce_slots = 8;

  // --- sequencers (docs/datapath.md §4) ---
  std::uint32_t sequencer_entries = 8; // MAX_SEQUENCER_ENTRIES
  std::uint64_t sequencer_max_loop_size = 65536;
  std::uint32_t fetch_max_read_bytes = 32;  // one flit per read
  std::uint32_t sub_context_read_bytes = 8; // sub-context fetch reads 8 B
  std::uint32_t packet_align_bytes = 8;     // Fetch/Switch/Collect-input packets are whole 8 B
                                            // words (docs/datapath.md §5, §7; PACKET_ALIGN_BYTES)

  // --- element storage (docs/scalars.md §2, §5.5) ---
  std::uint32_t trf_integer_widening_bits = 1; // TRF stores i4/i5 as 5 bits, i8/i9 as 9 bits

  /// Physical bits one lane reads per TRF read (furiosa-opt
  /// docs/src/computing-tensors/register-files.md): one 320-bit row of one bank (narrow) or of both
  /// banks (wide, 640 bits).
  constexpr std::uint32_t trf_lane_read_bits(bool wide) const {
    return (wide ? trf_banks : 1u) * trf_row_bits;
  }

  /// Bits in one flit: FE(D) = flit_bits() / BITS(D) elements (docs/scalars.md §2, §5.2).
  constexpr std::uint32_t flit_bits() const { return flit_bytes * bits_per_byte; }
};

/// The only target tujit knows today.
inline constexpr TensorUnitDescription kRngd{};

/// Lane::SIZE values the hardware accepts (docs/mapping.md §8 is_valid_lane_size).
constexpr bool is_valid_lane_size(std::uint64_t n) {
  return n == 1 || n == 2 || n == 4 || n == 8;
}

/// Cluster::SIZE / Slice::SIZE values the reference accepts (docs/contraction.md §1,
/// docs/datapath.md §12.1).
constexpr bool is_valid_cluster_size(std::uint64_t n) {
  return n == 1 || n == 2;
}
constexpr bool is_valid_slice_size(std::uint64_t n) {
  return n == 64 || n == 128 || n == 256;
}

/// Bytes one sequencer access may move: 1, 2, 4, 8, 16 or 32 (docs/datapath.md §4 "Constraints",
/// applied to the per-access unit read_size / write_size as §12.2 decides).
constexpr bool is_valid_sequencer_access_bytes(std::uint64_t n) {
  return n >= 1 && n <= kRngd.fetch_max_read_bytes && (n & (n - 1)) == 0;
}

} // namespace tujit::target

// The sequencer loop model shared by Fetch, Commit, DMA and the TRF read path (docs/datapath.md
// §4): a configuration `[n₀:s₀, n₁:s₁, …] : p` (index 0 outermost, strides in elements, p =
// elements per packet) executed as nested loops, the address of iteration (i₀,…,i_k) being
// `Σ iⱼ·sⱼ`. This file holds the value type and the pure arithmetic on it (merging, contiguous
// run, access size, footprint, the address walk); the derivation from mappings is in
// sequencer_derive.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tujit::ir::datapath {

/// One loop level: `size` iterations, `stride` elements between consecutive ones (0 =
/// broadcast: the same address is re-read).
struct SeqEntry {
  std::uint64_t size = 1;
  std::uint64_t stride = 0;
  friend bool operator==(const SeqEntry&, const SeqEntry&) = default;
};

struct SequencerConfig {
  std::vector<SeqEntry> entries; // outermost first
  std::uint64_t packet_size = 1; // p: elements per packet (the stream's Packet::SIZE)
  std::uint64_t contiguous_run = 1;
  std::uint64_t max_access_size = 1; // gcd(packet_size, contiguous_run)

  /// Stream positions the loops enumerate: the product of the entry sizes.
  std::uint64_t stream_size() const;
  /// One past the largest address the loops touch (0 for no entries is never produced: the
  /// empty nest reads address 0 once, so 1).
  std::uint64_t footprint() const;
  /// The address of stream position `pos` (mixed radix over the entry sizes, innermost last).
  std::uint64_t offset_at(std::uint64_t pos) const;
  /// `[4:192, 3:64, 8:8, 8:1] : 8`, the book's notation.
  std::string to_string() const;
  friend bool operator==(const SequencerConfig&, const SequencerConfig&) = default;
};

/// Calls `f(pos, offset)` for every stream position in order, as the hardware's nested loops
/// run: an odometer over the entries (innermost fastest), O(1) amortized per position. Equal to
/// `f(pos, c.offset_at(pos))` for pos = 0 … stream_size() − 1.
template <class F>
void for_each_offset(const SequencerConfig& c, F&& f) {
  const std::size_t k = c.entries.size();
  for (const SeqEntry& e : c.entries)
    if (e.size == 0) return;
  std::vector<std::uint64_t> digit(k, 0);
  std::uint64_t offset = 0;
  const std::uint64_t n = c.stream_size();
  for (std::uint64_t pos = 0; pos < n; ++pos) {
    f(pos, offset);
    for (std::size_t i = k; i-- > 0;) {
      const SeqEntry& e = c.entries[i];
      if (digit[i] + 1 < e.size) {
        ++digit[i];
        offset += e.stride;
        break;
      }
      offset -= digit[i] * e.stride;
      digit[i] = 0;
    }
  }
}

/// docs/datapath.md §4 "Access size": the innermost entry's size, multiplied outward by each next
/// entry while `s_outer == n_inner·s_inner` holds (stop at the first failure). An innermost
/// entry that is neither contiguous (stride 1) nor a broadcast (stride 0) has a run of one
/// element: its elements are not adjacent (the book's formula silently assumes the innermost
/// entry is contiguous, which its innermost-entry rule guarantees; §12.2 moves that rule to the
/// per-access unit, so the run must say so itself). No entries: 1.
std::uint64_t contiguous_run(const std::vector<SeqEntry>& entries);

/// gcd(packet_size, contiguous_run(entries)).
std::uint64_t max_access_size(const std::vector<SeqEntry>& entries, std::uint64_t packet_size);

/// docs/datapath.md §4: adjacent `(n1:s1)` (outer), `(n2:s2)` (inner) with `s1 == n2·s2` become
/// `(n1·n2 : s2)`; repeated until no pair merges. A merge whose size would exceed `max_size` is
/// skipped (merging is only a means to fit the entry table; it must not break the size limit).
/// The address stream is unchanged.
std::vector<SeqEntry> merge_contiguous(std::vector<SeqEntry> entries, std::uint64_t max_size);

/// Entries → a config with contiguous_run and max_access_size filled in.
SequencerConfig make_config(std::vector<SeqEntry> entries, std::uint64_t packet_size);

/// `[8:1, 8:8] : 1` for a list and packet size.
std::string entries_text(const std::vector<SeqEntry>& entries);

} // namespace tujit::ir::datapath

#include "ir/datapath/sequencer_config.h"

#include <fmt/format.h>

#include <limits>
#include <numeric>

namespace tujit::ir::datapath {

namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? kSaturated : r;
}

std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? kSaturated : r;
}

} // namespace

std::uint64_t SequencerConfig::stream_size() const {
  std::uint64_t n = 1;
  for (const SeqEntry& e : entries) n = sat_mul(n, e.size);
  return n;
}

std::uint64_t SequencerConfig::footprint() const {
  std::uint64_t last = 0;
  for (const SeqEntry& e : entries)
    if (e.size > 0) last = sat_add(last, sat_mul(e.size - 1, e.stride));
  return sat_add(last, 1);
}

std::uint64_t SequencerConfig::offset_at(std::uint64_t pos) const {
  std::uint64_t offset = 0;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    if (it->size == 0) continue;
    offset += (pos % it->size) * it->stride;
    pos /= it->size;
  }
  return offset;
}

std::string entries_text(const std::vector<SeqEntry>& entries) {
  std::string s = "[";
  for (std::size_t i = 0; i < entries.size(); ++i)
    s += fmt::format("{}{}:{}", i == 0 ? "" : ", ", entries[i].size, entries[i].stride);
  return s + "]";
}

std::string SequencerConfig::to_string() const {
  return fmt::format("{} : {}", entries_text(entries), packet_size);
}

std::uint64_t contiguous_run(const std::vector<SeqEntry>& entries) {
  if (entries.empty()) return 1;
  const SeqEntry& inner = entries.back();
  if (inner.stride > 1) return 1; // the innermost elements are not adjacent (see the header)
  std::uint64_t run = inner.size;
  for (std::size_t i = entries.size() - 1; i > 0; --i) {
    const SeqEntry& in = entries[i];
    const SeqEntry& out = entries[i - 1];
    if (out.stride != sat_mul(in.size, in.stride)) break;
    run = sat_mul(run, out.size);
  }
  return run;
}

std::uint64_t max_access_size(const std::vector<SeqEntry>& entries, std::uint64_t packet_size) {
  return std::gcd(packet_size, contiguous_run(entries));
}

std::vector<SeqEntry> merge_contiguous(std::vector<SeqEntry> entries, std::uint64_t max_size) {
  bool merged = true;
  while (merged) {
    merged = false;
    for (std::size_t i = 0; i + 1 < entries.size(); ++i) {
      const SeqEntry outer = entries[i];
      const SeqEntry inner = entries[i + 1];
      if (outer.stride != sat_mul(inner.size, inner.stride)) continue;
      const std::uint64_t size = sat_mul(outer.size, inner.size);
      if (size > max_size) continue;
      entries[i] = SeqEntry{size, inner.stride};
      entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i + 1));
      merged = true;
      break;
    }
  }
  return entries;
}

SequencerConfig make_config(std::vector<SeqEntry> entries, std::uint64_t packet_size) {
  SequencerConfig c;
  c.contiguous_run = contiguous_run(entries);
  c.max_access_size = std::gcd(packet_size, c.contiguous_run);
  c.entries = std::move(entries);
  c.packet_size = packet_size;
  return c;
}

} // namespace tujit::ir::datapath

#include "ir/datapath/fetch_engine.h"

#include "ir/datapath/sequencer_errors.h"
#include "ir/target/rngd.h"

#include <fmt/format.h>

namespace tujit::ir::datapath {

namespace {

using target::kRngd;

std::string bytes_text(std::uint64_t elements, std::uint32_t bits) {
  const std::uint64_t b = elements * bits;
  if (b % 8 == 0) return fmt::format("{} B", b / 8);
  return fmt::format("{} bits", b);
}

} // namespace

std::optional<std::uint64_t> fetch_read_size(std::uint64_t max_access_size, ScalarType dtype,
                                             FetchContext context,
                                             std::optional<ScalarType> cast_to,
                                             std::optional<ScalarType> lookup_to) {
  const std::uint32_t bits = wire_bits(dtype);
  if (bits == 0 || max_access_size == 0) return std::nullopt;
  if (context == FetchContext::Sub) {
    // docs/datapath.md §5: the sub-context fetch reads a fixed 8 B.
    const std::uint64_t elements =
        std::uint64_t{kRngd.sub_context_read_bytes} * kRngd.bits_per_byte / bits;
    if (elements == 0 || max_access_size % elements != 0) return std::nullopt;
    return elements;
  }
  // Candidates from the largest legal byte size down: the first that divides the access wins.
  for (std::uint64_t bytes = kRngd.fetch_max_read_bytes; bytes >= 1; bytes /= 2) {
    if (!target::is_valid_sequencer_access_bytes(bytes)) continue;
    if (bytes * kRngd.bits_per_byte % bits != 0) continue;
    const std::uint64_t d = bytes * kRngd.bits_per_byte / bits;
    if (max_access_size % d != 0) continue;
    // One read's output of each converting adapter stage travels as one flit (§5, §6).
    if (cast_to && d * wire_bits(*cast_to) > kRngd.flit_bits()) continue;
    if (lookup_to && d * wire_bits(*lookup_to) > kRngd.flit_bits()) continue;
    return d;
  }
  return std::nullopt;
}

Result<FetchDerived> check_fetch(const SequencerDerivation& seq, ScalarType dtype,
                                 FetchContext context, std::optional<ScalarType> cast_to,
                                 std::optional<ScalarType> lookup_to) {
  const SequencerConfig& c = seq.config;
  const std::uint32_t bits = wire_bits(dtype);
  FetchDerived out;
  out.seq = seq;

  auto rs = fetch_read_size(c.max_access_size, dtype, context, cast_to, lookup_to);
  if (!rs) {
    std::vector<std::string> notes = {
        fmt::format("sequencer {}: contiguous_run {}, max_access_size = gcd({}, {}) = {} "
                    "elements ({})",
                    c.to_string(), c.contiguous_run, c.packet_size, c.contiguous_run,
                    c.max_access_size, bytes_text(c.max_access_size, bits)),
        context == FetchContext::Sub
            ? "the sub-context fetch reads exactly 8 B per access (docs/datapath.md §5)"
            : "one access moves 1, 2, 4, 8, 16 or 32 bytes of adjacent elements (docs/datapath.md "
              "§4 "
              "'Constraints', applied to the access as §12.2 decides)",
        "fix: make the packet's innermost piece contiguous in memory (the same axis order as "
        "the buffer), or widen it"};
    if (cast_to)
      notes.insert(notes.begin() + 1,
                   fmt::format("with fetch_cast to {}, one read's output must fit {} B",
                               name(*cast_to), kRngd.flit_bytes));
    if (lookup_to)
      notes.insert(notes.begin() + 1,
                   fmt::format("with fetch_table_lookup to {}, one read's decoded output must "
                               "fit {} B",
                               name(*lookup_to), kRngd.flit_bytes));
    return seq_error(kNoAccessSize,
                     fmt::format("no legal DM access size for this {} fetch: the packet's "
                                 "contiguous pieces are {} elements ({})",
                                 name(dtype), c.max_access_size,
                                 bytes_text(c.max_access_size, bits)),
                     std::move(notes));
  }
  out.read_size = *rs;
  out.read_bytes = *rs * bits / kRngd.bits_per_byte;
  out.reads_per_packet = c.packet_size / *rs;
  out.cycles = seq.time_size * out.reads_per_packet;
  out.footprint = c.footprint();

  out.over_read = out.footprint > seq.buffer_size ? out.footprint - seq.buffer_size : 0;

  // Padded positions may over-read past the buffer's last element (they are top padding:
  // arbitrary values, never data); a live position never may.
  if (seq.live_footprint > seq.buffer_size)
    return seq_error(
        kReadsPastBuffer,
        fmt::format("the fetch would feed live data from {} element(s) past the end of its "
                    "buffer: the sequencer {} reads live positions up to offset {}, the buffer "
                    "holds {} elements",
                    seq.live_footprint - seq.buffer_size, c.to_string(), seq.live_footprint - 1,
                    seq.buffer_size),
        {"only a stream's top padding may read past the buffer (its values are arbitrary); "
         "every live stream position must read a cell of the buffer (docs/datapath.md §4.2)",
         fmt::format("fix: make the DM tensor cover offset {} (an outer `# {}` on its mapping), "
                     "or read fewer live positions",
                     seq.live_footprint - 1, seq.live_footprint)});
  return out;
}

namespace {

/// The first buffer position the loops read that `buf` declares `#{!}`, if any. Only buffers
/// with bottom padding are walked; broadcast entries add no address, so they are left out.
std::optional<std::uint64_t> bottom_read(const Mapping& buf, const SequencerConfig& c) {
  if (buf.to_string().find("#{!}") == std::string::npos) return std::nullopt;
  std::vector<bool> bottom(buf.size(), false);
  for (std::uint64_t q = 0; q < buf.size(); ++q) {
    const Cell cell = buf.map(q);
    bottom[q] = cell.kind == Cell::Kind::Padding && cell.padding == PaddingKind::Bottom;
  }
  SequencerConfig moving = c;
  std::erase_if(moving.entries, [](const SeqEntry& e) { return e.stride == 0; });
  std::optional<std::uint64_t> first;
  for_each_offset(moving, [&](std::uint64_t, std::uint64_t offset) {
    if (!first && offset < bottom.size() && bottom[offset]) first = offset;
  });
  return first;
}

} // namespace

Result<FetchDerived> verify_fetch(const FetchInput& in) {
  auto seq = derive_sequencer(in.buf, in.time, in.packet, SeqMode::Read);
  if (!seq) return std::move(seq).take_diagnostics();
  auto out = check_fetch(*seq, in.dtype, in.context, in.cast_to, in.lookup_to);
  if (!out) return out;
  if (auto q = bottom_read(in.buf, seq->config))
    return seq_error(
        kReadsBottomPadding,
        fmt::format("the fetch reads buffer position {}, which `{}` declares bottom "
                    "padding (`#{{!}}`): such cells are never touched",
                    *q, in.buf.to_string()),
        {"fix: read only the live part of the buffer, or declare its padding top "
         "(`#`, readable) or zero (`#{0}`) (docs/mapping.md §2, docs/datapath.md §3)"});
  return out;
}

} // namespace tujit::ir::datapath

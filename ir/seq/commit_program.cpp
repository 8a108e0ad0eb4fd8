#include "ir/seq/commit_program.h"

#include "ir/datapath/sequencer_derive.h"
#include "ir/seq/field_hash.h"
#include "ir/seq/lower_support.h"
#include "ir/target/rngd.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <optional>

namespace tujit::ir::seq {

Cell CommitProgram::time_cell(std::uint64_t t) const {
  return stream.mapping(Slot::Time).map(t);
}

bool CommitProgram::position_live(const Cell& time_cell, std::uint64_t e) const {
  return combine(time_cell, stream.mapping(Slot::Packet).map(e)).is_live();
}

namespace {

// valid_size, the live positions' contiguous run and the live packets, from the walk itself (the
// first live packet stands for every live one: they share the Packet mapping).
void count_live(CommitProgram& p) {
  std::optional<std::uint64_t> first;
  p.live_packets = 0;
  for (std::uint64_t t = 0; t < p.time; ++t)
    if (p.time_cell(t).is_live()) {
      ++p.live_packets;
      if (!first) first = t;
    }
  p.valid = 0;
  p.access = 0;
  std::uint64_t run = 0, prev = 0;
  for (std::uint64_t e = 0; first && e < p.packet; ++e) {
    if (!p.position_live(p.time_cell(*first), e)) continue;
    ++p.valid;
    const std::uint64_t a = p.sequencer.offset_at(*first * p.packet + e);
    run = run > 0 && a == prev + 1 ? run + 1 : 1;
    p.access = std::max(p.access, run);
    prev = a;
  }
}

} // namespace

Result<CommitProgram> lower_commit(const verify::CheckedKernel& ck, std::size_t stage) {
  const Kernel& kernel = ck;
  if (stage >= kernel.stages.size())
    return lower_error("internal: lower_commit needs a stage of the kernel");
  const Stage& s = kernel.stages[stage];
  const bool commit = s.unit() == StageUnit::CommitEngine;
  if (!commit && s.unit() != StageUnit::MemWriter)
    return lower_error("internal: lower_commit needs a commit or a MemTensor write", s.name_span);
  CommitProgram p;
  p.kernel_name = kernel.name;
  p.stage = stage;
  p.stream = s.input;
  p.context = s.context == ContextKind::Sub ? ContextKind::Sub : ContextKind::Main;
  p.element_bits = wire_bits(s.input.dtype);
  p.time = s.input.mapping(Slot::Time).size();
  p.packet = s.input.mapping(Slot::Packet).size();
  std::optional<std::uint64_t> write_size;
  if (commit) {
    // The Commit Engine's rules (docs/output-path.md §3): its write size, the sub context's
    // 8-byte writes included.
    auto rule = verified<verify::CommitDerived>(ck, s);
    if (!rule) return std::move(rule).take_diagnostics();
    p.sequencer = rule->sequencer;
    write_size = rule->write_size;
  } else {
    auto derived = verified<datapath::SequencerDerivation>(ck, s);
    if (!derived) return std::move(derived).take_diagnostics();
    p.sequencer = derived->config;
  }
  count_live(p);
  // A MemTensor write: whole runs of the live positions, at most one 32-byte flit per write.
  const std::uint64_t flit = std::uint64_t{target::kRngd.flit_bytes} * target::kRngd.bits_per_byte /
                             std::max<std::uint64_t>(1, p.element_bits);
  p.write_size =
      write_size.value_or(std::max<std::uint64_t>(1, std::min(std::gcd(p.valid, p.access), flit)));
  if (auto ok = verify(p); !ok) return ok.diagnostics();
  return p;
}

Status verify(const CommitProgram& p) {
  const auto invalid = [&](std::string what) {
    return run_error("E-RUN-102", fmt::format("internal: the write of stage {} of `{}` {}", p.stage,
                                              p.kernel_name, std::move(what)));
  };
  if (p.time == 0 || p.packet == 0 || p.element_bits == 0) return invalid("has an empty dimension");
  if (p.sequencer.stream_size() != p.time * p.packet || p.sequencer.packet_size != p.packet)
    return invalid(fmt::format("walks {} positions of packets of {}, not {} × {}",
                               p.sequencer.stream_size(), p.sequencer.packet_size, p.time,
                               p.packet));
  if (p.live_packets > p.time || p.valid > p.packet || p.access > p.valid)
    return invalid(fmt::format("counts {} live packets of {}, {} live positions of {}, a run of {}",
                               p.live_packets, p.time, p.valid, p.packet, p.access));
  if (p.write_size == 0 || p.write_size > p.packet)
    return invalid(
        fmt::format("writes {} elements at a time from packets of {}", p.write_size, p.packet));
  return {};
}

std::uint64_t fingerprint(const CommitProgram& p) {
  return field_fingerprint(p);
}

std::string to_text(const CommitProgram& p) {
  return fmt::format("write stage {} ({} context): sequencer {}, {} live of {} positions per "
                     "packet, {} of {} packets live, contiguous run {}, write size {}\n",
                     p.stage, to_string(p.context), p.sequencer.to_string(), p.valid, p.packet,
                     p.live_packets, p.time, p.access, p.write_size);
}

} // namespace tujit::ir::seq

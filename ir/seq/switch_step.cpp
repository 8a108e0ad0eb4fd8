#include "ir/seq/switch_step.h"

#include "ir/verify/switch.h"

#include <fmt/format.h>

namespace tujit::ir::seq {

Result<SwitchStep> lower_switch(const verify::CheckedKernel& ck, std::size_t index) {
  const Kernel& kernel = ck;
  if (index >= kernel.stages.size() || kernel.stages[index].unit() != StageUnit::SwitchEngine ||
      !kernel.stages[index].switch_config)
    return run_error("E-RUN-102", "internal: lower_switch needs a switch stage");
  const Stage& st = kernel.stages[index];
  const verify::SwitchDerived* d = ck.derived<verify::SwitchDerived>(st);
  if (d == nullptr)
    return run_error("E-RUN-102", "internal: a switch that did not verify reached lowering");
  SwitchStep s;
  s.stage = index;
  s.kind = d->kind;
  s.slice2 = d->slice2;
  s.slice1 = d->slice1;
  s.slice0 = d->slice0;
  s.time2 = d->time2;
  s.time1 = d->time1;
  s.time0 = d->time0;
  s.ring_size = d->ring_size;
  s.cycles = d->cycles;
  s.input = st.input;
  s.output = st.output;
  return s;
}

std::uint64_t book_out_time(const SwitchStep& s) {
  switch (s.kind) {
  case SwitchKind::Broadcast01:
    return s.time1 * s.slice1 * s.time0 * s.slice0;
  case SwitchKind::Broadcast1:
    return s.time0 * s.slice1;
  case SwitchKind::Transpose:
    return s.time0;
  case SwitchKind::InterTranspose:
    return s.time2 * s.time0 * s.slice1;
  case SwitchKind::TransposedBroadcast1:
    return s.time0 * s.slice0;
  case SwitchKind::CustomBroadcast:
    break;
  }
  return 0;
}

// Each case reads the output's digits outermost first, as the book's diagram after the switch
// lists them, and composes the input's from the diagram before it: InSlice [slice2, slice1,
// slice0], InTime [time2, time1, time0] (the configuration's parts of it).
std::optional<SwitchSource> book_source(const SwitchStep& s, std::uint64_t slice,
                                        std::uint64_t time) {
  const std::uint64_t S1 = s.slice1, S0 = s.slice0;
  if (slice >= s.slice2 * S1 * S0 || time >= book_out_time(s)) return std::nullopt;
  const auto in_slice = [&](std::uint64_t s2, std::uint64_t s1, std::uint64_t s0) {
    return (s2 * S1 + s1) * S0 + s0;
  };
  switch (s.kind) {
  case SwitchKind::Broadcast01: {
    // Slice [slice2, X, Y], Time [time1, slice1, time0, slice0].
    const std::uint64_t s2 = slice / (S1 * S0);
    const std::uint64_t s0 = time % S0, t0 = time / S0 % s.time0;
    const std::uint64_t s1 = time / (S0 * s.time0) % S1, t1 = time / (S0 * s.time0 * S1);
    return SwitchSource{in_slice(s2, s1, s0), t1 * s.time0 + t0};
  }
  case SwitchKind::Broadcast1: {
    // Slice [slice2, X, slice0], Time [time0, slice1].
    const std::uint64_t s2 = slice / (S1 * S0), s0 = slice % S0;
    return SwitchSource{in_slice(s2, time % S1, s0), time / S1};
  }
  case SwitchKind::Transpose: {
    // Slice [slice2, slice0, slice1], Time unchanged.
    const std::uint64_t s2 = slice / (S0 * S1), s0 = slice / S1 % S0, s1 = slice % S1;
    return SwitchSource{in_slice(s2, s1, s0), time};
  }
  case SwitchKind::InterTranspose: {
    // Slice [slice2, time1, slice0], Time [time2, time0, slice1]; time1 = slice1 in size.
    const std::uint64_t s2 = slice / (s.time1 * S0), t1 = slice / S0 % s.time1, s0 = slice % S0;
    const std::uint64_t s1 = time % S1, t0 = time / S1 % s.time0, t2 = time / (S1 * s.time0);
    return SwitchSource{in_slice(s2, s1, s0), (t2 * s.time1 + t1) * s.time0 + t0};
  }
  case SwitchKind::TransposedBroadcast1: {
    // Slice [slice2, Y, slice1] (Y of slice0's size), Time [time0, slice0].
    const std::uint64_t s2 = slice / (S0 * S1), s1 = slice % S1;
    return SwitchSource{in_slice(s2, s1, time % S0), time / S0};
  }
  case SwitchKind::CustomBroadcast:
    break;
  }
  return std::nullopt;
}

} // namespace tujit::ir::seq

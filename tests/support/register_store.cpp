#include "tests/support/register_store.h"

#include "ir/verify/to_trf.h"
#include "ir/verify/to_vrf.h"

#include <fmt/format.h>

#include <map>

namespace tujit::testing {
namespace {

using runtime::CellState;
using runtime::DeviceImage;

Diagnostic store_error(std::string code, std::string message) {
  Diagnostic d = make_error(std::move(code), std::move(message));
  d.stage = "run";
  return d;
}

std::optional<Diagnostic> check_stream(const DeviceImage& stream, const ir::Mapping& time,
                                       const ir::Mapping& packet) {
  if (stream.outer != time.size() || stream.inner != packet.size() ||
      stream.bits.size() != stream.cells() || stream.state.size() != stream.cells())
    return store_error("E-RUN-102",
                       fmt::format("the stream image is [{}][{}][{}], the store reads a stream of "
                                   "[{}][{}] per slice",
                                   stream.spatial, stream.outer, stream.inner, time.size(),
                                   packet.size()));
  return std::nullopt;
}

// Coordinates with zero entries dropped, so equal cells compare equal (docs/mapping.md §2).
ir::Index key_of(const ir::Cell& c) {
  ir::Index k;
  for (const auto& [axis, v] : c.index)
    if (v != 0) k.emplace(axis, v);
  return k;
}

} // namespace

Result<DeviceImage> store_to_trf(const ir::Mapping& time, const ir::Mapping& packet,
                                 const ir::Mapping& lane, const ir::Mapping& element,
                                 ir::ScalarType trf_dtype, const DeviceImage& stream) {
  auto v = ir::verify::verify_to_trf({stream.dtype, time, packet, lane, element});
  if (!v) return v.diagnostics();
  if (auto e = check_stream(stream, time, packet)) return *e;
  const std::uint64_t fpl = v->flits_per_lane;
  DeviceImage out(trf_dtype, stream.spatial, lane.size(), element.size());
  for (std::uint64_t s = 0; s < stream.spatial; ++s)
    for (std::uint64_t f = 0; f < time.size(); ++f)
      for (std::uint64_t e = 0; e < packet.size(); ++e) {
        // §4.2: flit f fills lane f / FPL at element offset (f mod FPL)·|Packet|.
        const std::uint64_t src = stream.index(s, f, e);
        const std::uint64_t dst = out.index(s, f / fpl, (f % fpl) * packet.size() + e);
        out.bits[dst] = stream.bits[src];
        out.state[dst] = stream.state[src];
      }
  return out;
}

Result<DeviceImage> store_to_vrf(const ir::Mapping& time, const ir::Mapping& packet,
                                 const ir::Mapping& element, ir::ScalarType vrf_dtype,
                                 const DeviceImage& stream) {
  auto v = ir::verify::verify_to_vrf({vrf_dtype, element});
  if (!v) return v.diagnostics();
  if (auto e = check_stream(stream, time, packet)) return *e;
  // Source position of every live [Time, Packet] cell, by coordinates.
  std::map<ir::Index, std::uint64_t> source;
  for (std::uint64_t f = 0; f < time.size(); ++f) {
    const ir::Cell tc = time.map(f);
    if (!tc.is_live()) continue;
    for (std::uint64_t e = 0; e < packet.size(); ++e) {
      const ir::Cell c = ir::combine(tc, packet.map(e));
      if (c.is_live()) source.emplace(key_of(c), f * packet.size() + e);
    }
  }
  std::vector<std::int64_t> from(element.size(), -1);
  for (std::uint64_t a = 0; a < element.size(); ++a) {
    const ir::Cell c = element.map(a);
    if (!c.is_live()) continue;
    auto it = source.find(key_of(c));
    if (it != source.end()) from[a] = static_cast<std::int64_t>(it->second);
  }
  DeviceImage out(vrf_dtype, stream.spatial, 1, element.size());
  for (std::uint64_t s = 0; s < stream.spatial; ++s)
    for (std::uint64_t a = 0; a < element.size(); ++a) {
      const std::uint64_t dst = out.index(s, 0, a);
      out.state[dst] = CellState::Zero; // [REF] destination zero-initialised (§4.3)
      if (from[a] < 0) continue;
      const std::uint64_t src =
          s * stream.outer * stream.inner + static_cast<std::uint64_t>(from[a]);
      out.bits[dst] = stream.bits[src];
      out.state[dst] = stream.state[src];
    }
  return out;
}

Result<DeviceImage> run_store(const ir::Stage& stage, const DeviceImage& stream) {
  using ir::Slot;
  if (stage.unit() == ir::StageUnit::TrfStore)
    return store_to_trf(stage.input.mapping(Slot::Time), stage.input.mapping(Slot::Packet),
                        stage.output.mapping(Slot::Lane), stage.output.mapping(Slot::Element),
                        stage.output.dtype, stream);
  if (stage.unit() == ir::StageUnit::VrfStore)
    return store_to_vrf(stage.input.mapping(Slot::Time), stage.input.mapping(Slot::Packet),
                        stage.output.mapping(Slot::Element), stage.output.dtype, stream);
  return store_error("E-RUN-101",
                     fmt::format("`{}` is not a register-file store", ir::to_string(stage.op)));
}

namespace {
Result<DeviceImage> run_first(const ir::Kernel& kernel, ir::StageUnit unit, std::string_view file,
                              const DeviceImage& stream) {
  for (const ir::Stage& st : kernel.stages)
    if (st.unit() == unit) return run_store(st, stream);
  return store_error("E-RUN-101",
                     fmt::format("kernel `{}` has no store into the {}", kernel.name, file));
}
} // namespace

Result<DeviceImage> run_to_trf(const ir::Kernel& kernel, const DeviceImage& stream) {
  return run_first(kernel, ir::StageUnit::TrfStore, "TRF", stream);
}
Result<DeviceImage> run_to_vrf(const ir::Kernel& kernel, const DeviceImage& stream) {
  return run_first(kernel, ir::StageUnit::VrfStore, "VRF", stream);
}

} // namespace tujit::testing

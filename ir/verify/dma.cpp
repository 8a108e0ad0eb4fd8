#include "ir/verify/dma.h"

#include "ir/mapping/factor.h"
#include "ir/mapping/live_coordinates.h"
#include "ir/target/rngd.h"
#include "ir/verify/hardware_limits.h"
#include "ir/verify/outer_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <set>

namespace tujit::ir::verify {

using namespace outer_detail;

namespace {

const target::TensorUnitDescription& tu = target::kRngd;
constexpr std::string_view kStage = "dma";

/// The whole layout of a memory tensor, major first: Chip, then Cluster, Slice (DM), then Element.
Result<Mapping> layout(const TensorType& t) {
  Mapping m = t.mapping(Slot::Element);
  if (t.kind == TensorKind::Dm) {
    auto s = Mapping::pair(t.mapping(Slot::Slice), m);
    if (!s) return std::move(s).take_diagnostics();
    auto c = Mapping::pair(t.mapping(Slot::Cluster), *s);
    if (!c) return std::move(c).take_diagnostics();
    m = *c;
  }
  return Mapping::pair(t.mapping(Slot::Chip), m);
}

/// The coordinates of `axis` that `held` marks, as text for a note ("all 2048", "0 … 7").
std::string held_text(const std::vector<bool>& held) {
  const auto v = set_coordinates(held);
  if (v.empty()) return "none";
  if (v.size() == held.size()) return fmt::format("all {}", held.size());
  if (v.back() - v.front() + 1 == v.size()) return fmt::format("{} … {}", v.front(), v.back());
  return fmt::format("{} of {}", v.size(), held.size());
}

/// The innermost run of positions on which the two Element layouts agree as digits (a common
/// divisor r of both sizes whose inner r positions are the same mapping in each): what one DMA
/// packet moves without a jump on either side.
std::uint64_t shared_run(const Mapping& src, const Mapping& dst) {
  const FactorList fs = factorize(src), fd = factorize(dst);
  const std::uint64_t g = std::gcd(src.size(), dst.size());
  std::vector<std::uint64_t> divisors;
  for (std::uint64_t d = 1; d * d <= g; ++d)
    if (g % d == 0) divisors.insert(divisors.end(), {d, g / d});
  std::sort(divisors.rbegin(), divisors.rend());
  for (std::uint64_t r : divisors) {
    auto a = split_at(fs, r), b = split_at(fd, r);
    if (a && b && a->inner == b->inner) return r;
  }
  return 1;
}

/// The DMNs the live spatial positions of a DmTensor occupy (docs/datapath.md §1: 8 DMNs of 32
/// slices per cluster).
std::uint64_t dmns_touched(const TensorType& dm) {
  const Mapping& cluster = dm.mapping(Slot::Cluster);
  const Mapping& slice = dm.mapping(Slot::Slice);
  const std::uint64_t per_dmn = tu.slices_per_cluster / tu.dmns_per_cluster;
  std::set<std::uint64_t> dmns;
  for (std::uint64_t c = 0; c < cluster.size(); ++c) {
    if (cluster.map(c).kind != Cell::Kind::Index) continue;
    for (std::uint64_t s = 0; s < slice.size(); ++s)
      if (slice.map(s).kind == Cell::Kind::Index)
        dmns.insert(c * tu.dmns_per_cluster + s / per_dmn);
  }
  return dmns.size();
}

DmaRoute route_of(const TensorType& src, const TensorType& dst) {
  const bool from_dm = src.kind == TensorKind::Dm, to_dm = dst.kind == TensorKind::Dm;
  if (from_dm) return DmaRoute::DmToHbm; // DmTensor::to_dm (DM → DM) is not in the language
  return to_dm ? DmaRoute::HbmToDm : DmaRoute::HbmToHbm;
}

/// E-DMA-001: the destination holds exactly the source's coordinates of every axis the source
/// names (a mathematical tensor move, furiosa-opt docs/src/moving-tensors/dma-engine.md).
std::optional<Diagnostic> check_same_tensor(const Mapping& src, const Mapping& dst,
                                            std::string& broadcast) {
  std::vector<Axis> axes = src.axes();
  const std::size_t source_axes = axes.size();
  for (const Axis& a : dst.axes())
    if (std::find(axes.begin(), axes.end(), a) == axes.end()) {
      broadcast += (broadcast.empty() ? "" : ", ") + a.name;
      axes.push_back(a);
    }
  const LiveCoordinates s = live_coordinates(src, axes), d = live_coordinates(dst, axes);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (i >= source_axes) break; // the axes only the destination names: broadcasts
    if (s.held[i] == d.held[i]) continue;
    const bool lost = set_coordinates(d.held[i]).size() < set_coordinates(s.held[i]).size();
    return rule_error(
        "E-DMA-001", std::string(kStage), "NotATensorMove",
        fmt::format("the destination {} holds {} coordinates of axis {} than the source {}: {} "
                    "against {}",
                    mtext(dst), lost ? "fewer" : "other", axes[i].name, mtext(src),
                    held_text(d.held[i]), held_text(s.held[i])),
        {"a DMA transfer moves the whole tensor: the destination's Chip, Cluster, Slice and "
         "Element hold every element the source holds, each once or copied along an axis only "
         "the destination names (docs/dma.md §1)",
         "fix: name every coordinate of the axis in the destination's mappings (pad the rest "
         "with `#`)"});
  }
  return std::nullopt;
}

/// The unaligned reads of `runs` runs of `run_bytes` read from HBM [MODEL, docs/dma.md §4]: run
/// k starts at k · run_bytes in the source's Element layout, so its block offset repeats with
/// period 256 / gcd(run_bytes, 256); every offset of the period is taken to occur equally often.
std::uint64_t unaligned_reads(std::uint64_t run_bytes, std::uint64_t runs) {
  const std::uint64_t block = tu.dma_request_bytes;
  const std::uint64_t period = block / std::gcd(run_bytes % block == 0 ? block : run_bytes, block);
  std::uint64_t per_period = 0;
  for (std::uint64_t k = 0; k < period; ++k)
    per_period += unaligned_run_reads(k * run_bytes % block, run_bytes);
  return sat_mul(runs, per_period) / period;
}

} // namespace

std::string_view to_string(DmaRoute r) {
  switch (r) {
  case DmaRoute::HbmToDm:
    return "HBM → DM";
  case DmaRoute::DmToHbm:
    return "DM → HBM";
  case DmaRoute::HbmToHbm:
    return "HBM → HBM";
  }
  return "?";
}

DerivedTable DmaDerived::to_table() const {
  return {{"route", std::string(to_string(route))},
          {"run_elements", run_elements},
          {"run_bytes", run_bytes},
          {"packet_bytes", packet_bytes},
          {"elements", elements},
          {"bytes", bytes},
          {"packets", packets},
          {"requests", requests},
          {"dmns", dmns},
          {"engines", engines},
          {"partial_hbm_writes", partial_hbm_writes},
          {"unaligned_hbm_reads", unaligned_hbm_reads},
          {"broadcast", broadcast}};
}

std::uint64_t unaligned_run_reads(std::uint64_t offset, std::uint64_t run_bytes) {
  const std::uint64_t block = tu.dma_request_bytes, packet = tu.dma_max_packet_bytes;
  const auto blocks = [&](std::uint64_t bytes) { return (bytes + block - 1) / block; };
  const std::uint64_t full = (run_bytes - 1) / packet; // packets before the last
  const std::uint64_t last = run_bytes - full * packet;
  return (offset != 0 ? full : 0) + blocks(offset + last) - blocks(last);
}

Result<DmaDerived> verify_dma(const DmaInput& in) {
  const TensorType& src = in.source;
  const TensorType& dst = in.destination;
  DmaDerived out;
  out.route = route_of(src, dst);
  auto ls = layout(src);
  if (!ls) return std::move(ls).take_diagnostics();
  auto ld = layout(dst);
  if (!ld) return std::move(ld).take_diagnostics();
  if (auto d = check_same_tensor(*ls, *ld, out.broadcast)) return *d;
  if (dst.kind == TensorKind::Dm) {
    if (auto d = check_spatial(spatial_of(dst))) return *d;
    if (auto d = check_dm_capacity(dst.dtype, dst.mapping(Slot::Element))) return *d;
  }

  const Mapping& se = src.mapping(Slot::Element);
  const Mapping& de = dst.mapping(Slot::Element);
  out.run_elements = shared_run(se, de);
  out.run_bytes = std::max<std::uint64_t>(1, bytes_of(src.dtype, out.run_elements));
  // Writes into DM move whole 8-byte bank words (docs/dma.md §2; the reference checks the
  // writes into SRAM): furiosa-opt docs/src/moving-tensors/dma-engine.md "Constraints".
  const bool into_dm = dst.kind == TensorKind::Dm;
  if (into_dm && (!whole_bytes(src.dtype, out.run_elements) ||
                  out.run_bytes % tu.dma_dm_write_align_bytes != 0))
    return rule_error(
        "E-DMA-002", std::string(kStage), "PacketNotAligned",
        fmt::format(
            "the DMA packet is {} {} elements = {}, not a whole number of 8-byte words: the "
            "source Element {} and the destination Element {} share only that contiguous "
            "run",
            out.run_elements, name(src.dtype), bytes_text(out.run_bytes), mtext(se), mtext(de)),
        {"a DMA write into DM moves whole 8-byte words; a transfer between HBM and DM also needs "
         "8-byte aligned addresses and packets (docs/dma.md §2)",
         "fix: keep the source's innermost axis innermost in the destination's Element, over at "
         "least 8 bytes"});

  out.elements = live_positions(dst.mapping(Slot::Chip));
  if (dst.kind == TensorKind::Dm)
    out.elements = sat_mul(out.elements, sat_mul(live_positions(dst.mapping(Slot::Cluster)),
                                                 live_positions(dst.mapping(Slot::Slice))));
  out.elements = sat_mul(out.elements, live_positions(de));
  out.bytes = bytes_of(src.dtype, out.elements);
  // A run longer than the AXI limit is split into 4096-byte packets; every packet into 256-byte
  // requests (docs/dma.md §3).
  const std::uint64_t run_bytes = out.run_bytes;
  const std::uint64_t runs = (out.elements + out.run_elements - 1) / out.run_elements;
  out.packets = sat_mul(runs, (run_bytes + tu.dma_max_packet_bytes - 1) / tu.dma_max_packet_bytes);
  out.packet_bytes = std::min<std::uint64_t>(run_bytes, tu.dma_max_packet_bytes);
  out.requests = sat_mul(runs, (run_bytes + tu.dma_request_bytes - 1) / tu.dma_request_bytes);
  if (dst.kind == TensorKind::Hbm && run_bytes % tu.dma_request_bytes != 0)
    out.partial_hbm_writes = runs;
  if (src.kind == TensorKind::Hbm) out.unaligned_hbm_reads = unaligned_reads(run_bytes, runs);
  if (src.kind == TensorKind::Dm) out.dmns = dmns_touched(src);
  if (dst.kind == TensorKind::Dm) out.dmns = std::max(out.dmns, dmns_touched(dst));
  out.engines = std::clamp<std::uint64_t>(
      (out.dmns + tu.dmns_per_dma_engine - 1) / tu.dmns_per_dma_engine, 1, tu.dma_engines_per_chip);
  return out;
}

} // namespace tujit::ir::verify

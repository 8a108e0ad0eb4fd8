#include "ir/verify/hardware_limits.h"

#include "ir/mapping/factor.h"
#include "ir/target/rngd.h"
#include "ir/verify/outer_util.h"

#include <fmt/format.h>

namespace tujit::ir::verify {

using namespace outer_detail;

namespace {
const target::TensorUnitDescription& tu = target::kRngd;
constexpr std::string_view kStage = "hardware";
} // namespace

std::optional<Diagnostic> check_spatial(const SpatialInput& in) {
  if (!target::is_valid_cluster_size(in.cluster.size())) {
    return rule_error(
        "E-HW-001", std::string(kStage), "ClusterSize",
        fmt::format(
            "Cluster {} has size {}; a chip has 2 clusters and Cluster::SIZE must be 1 or 2",
            mtext(in.cluster), in.cluster.size()),
        {"fix: use top padding for unused clusters, e.g. `1 # 2` for one live cluster"});
  }
  if (!target::is_valid_slice_size(in.slice.size())) {
    return rule_error("E-HW-002", std::string(kStage), "SliceSize",
                      fmt::format("Slice {} has size {}; Slice::SIZE must be 64, 128 or 256",
                                  mtext(in.slice), in.slice.size()),
                      {"fix: pad the slice mapping with top padding, e.g. `X # 256`"});
  }
  return std::nullopt;
}

std::optional<Diagnostic> check_dm_capacity(ScalarType dtype, const Mapping& element) {
  const std::uint64_t bytes = bytes_of(dtype, element.size());
  if (bytes > tu.dm_bytes_per_slice) {
    return rule_error("E-HW-003", std::string(kStage), "DmExceedsCapacity",
                      fmt::format("DM Element {} holds {} of {} per slice, more than the {} of "
                                  "one slice's DM",
                                  mtext(element), bytes_text(bytes), name(dtype),
                                  bytes_text(tu.dm_bytes_per_slice)),
                      {fmt::format("bytes = {}, capacity = {}", bytes, tu.dm_bytes_per_slice),
                       "fix: spread the tensor over more slices or keep it in HBM and tile it"});
  }
  return std::nullopt;
}

bool fits_trf(ScalarType dtype, std::uint64_t lanes, std::uint64_t element_cells) {
  return sat_mul(lanes, total_bits(dtype, element_cells)) <=
         std::uint64_t{tu.trf_capacity_bytes} * tu.bits_per_byte;
}

std::optional<Diagnostic> check_trf_capacity(ScalarType dtype, const Mapping& lane,
                                             const Mapping& element) {
  if (fits_trf(dtype, lane.size(), element.size())) return std::nullopt;
  const std::uint64_t per_lane = bytes_of(dtype, element.size());
  return rule_error(
      "E-HW-009", std::string(kStage), "TrfExceedsCapacity",
      fmt::format("the TRF tensor does not fit one slice's TRF: {} lanes × {} per lane (Element "
                  "{} of {}) = {} > capacity {}",
                  lane.size(), bytes_text(per_lane), mtext(element), name(dtype),
                  bytes_text(sat_mul(lane.size(), per_lane)), bytes_text(tu.trf_capacity_bytes)),
      {fmt::format("lanes = {}, per_lane_bytes = {}, capacity = {}", lane.size(), per_lane,
                   tu.trf_capacity_bytes),
       "fix: spread the weight over more slices (Cluster / Slice) or tile it so that one slice's "
       "share is at most 64 KiB"});
}

std::optional<Diagnostic> check_whole_bytes(ScalarType dtype, const Mapping& m,
                                            std::string_view what) {
  if (!whole_bytes(dtype, m.size())) {
    return rule_error("E-HW-007", std::string(kStage), "NotWholeBytes",
                      fmt::format("{} {} holds {} {} elements = {} bits, not a whole number of "
                                  "bytes",
                                  what, mtext(m), m.size(), name(dtype),
                                  total_bits(dtype, m.size())),
                      {"fix: 4-bit elements come in pairs; pad the mapping to an even size"});
  }
  return std::nullopt;
}

std::optional<Diagnostic> check_packet_one_flit(ScalarType dtype, const Mapping& packet) {
  if (total_bits(dtype, packet.size()) != std::uint64_t{tu.flit_bytes} * tu.bits_per_byte) {
    return rule_error(
        "E-HW-004", std::string(kStage), "PacketNotOneFlit",
        fmt::format("Packet {} holds {} {} elements = {} bits; this stream carries exactly one "
                    "32 B flit ({} elements)",
                    mtext(packet), packet.size(), name(dtype), total_bits(dtype, packet.size()),
                    flit_elements(dtype)),
        {"fix: collect the stream (collect pads and splits packets into flits)"});
  }
  return std::nullopt;
}

std::optional<Diagnostic> check_packet_aligned(ScalarType dtype, const Mapping& packet) {
  const std::uint64_t word_bits = std::uint64_t{tu.packet_align_bytes} * tu.bits_per_byte;
  if (total_bits(dtype, packet.size()) % word_bits != 0) {
    return rule_error("E-HW-005", std::string(kStage), "PacketNotAligned",
                      fmt::format("Packet {} holds {} bits of {}, not a whole number of {} B words",
                                  mtext(packet), total_bits(dtype, packet.size()), name(dtype),
                                  tu.packet_align_bytes),
                      {"fix: pad the packet to a multiple of 8 bytes (e.g. `X # n`)"});
  }
  return std::nullopt;
}

std::optional<Diagnostic> check_packet_one_or_two_flits(ScalarType dtype, const Mapping& packet) {
  const std::uint64_t bits = total_bits(dtype, packet.size());
  const std::uint64_t flit_bits = tu.flit_bits();
  if (bits != flit_bits && bits != 2 * flit_bits) {
    return rule_error("E-HW-006", std::string(kStage), "PacketNotOneOrTwoFlits",
                      fmt::format("Packet {} holds {} bits of {}; a contraction packet is 32 B or "
                                  "64 B",
                                  mtext(packet), bits, name(dtype)),
                      {fmt::format("fix: use {} or {} elements", flit_elements(dtype),
                                   2 * flit_elements(dtype))});
  }
  return std::nullopt;
}

std::optional<Diagnostic> check_same_spatial(const SpatialInput& a, const SpatialInput& b,
                                             std::string_view a_name, std::string_view b_name) {
  struct Part {
    const char* label;
    const Mapping& x;
    const Mapping& y;
  };
  const Part parts[] = {
      {"Chip", a.chip, b.chip}, {"Cluster", a.cluster, b.cluster}, {"Slice", a.slice, b.slice}};
  for (const Part& p : parts) {
    if (!(factorize(p.x) == factorize(p.y))) {
      return rule_error("E-HW-008", std::string(kStage), "SpatialMismatch",
                        fmt::format("{} of the {} is {} but {} of the {} is {}; both operands "
                                    "must live on the same units",
                                    p.label, a_name, mtext(p.x), p.label, b_name, mtext(p.y)),
                        {"fix: give both tensors the same Chip/Cluster/Slice mappings"});
    }
  }
  return std::nullopt;
}

} // namespace tujit::ir::verify

// Robustness of the Packet Reducer / Time Reducer / Lane Folder verifiers on arbitrary valid
// mapping expressions (tests/support/mapping_gen.h: nested pairs, strides and moduli of pairs,
// ragged paddings of every kind, resizes, broadcasts): every call returns derived parameters or
// an error diagnostic with a stable code — never a crash, never an empty failure.
#include "ir/verify/contract_lane.h"
#include "ir/verify/contract_packet.h"
#include "ir/verify/contract_time.h"

#include "tests/support/mapping_gen.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>

using namespace tujit;
using namespace tujit::ir;
using namespace tujit::ir::verify;

namespace {

template <class T>
void accepted_or_diagnosed(const Result<T>& r, const char* prefix) {
  if (r.ok()) return;
  REQUIRE_FALSE(r.diagnostics().empty());
  const auto& d = r.diagnostics().front();
  INFO(d.code << ": " << d.message);
  CHECK(d.severity == Severity::Error);
  CHECK(d.code.rfind(prefix, 0) == 0);
  CHECK_FALSE(d.message.empty());
}

} // namespace

TEST_CASE("the reduce-stage verifiers diagnose arbitrary mappings without crashing",
          "[verify-reduce][fuzz]") {
  testing::MappingGenOptions opts;
  opts.max_size = 256;
  opts.max_depth = 3;
  testing::MappingGenerator gen(0xF022u, opts);
  std::mt19937_64& rng = gen.rng();
  const ScalarType types[] = {ScalarType::I4, ScalarType::I8, ScalarType::BF16, ScalarType::F32};
  for (int iter = 0; iter < 400; ++iter) {
    const testing::GeneratedMapping g = gen.next();
    const AxisTable& ax = g.axes;
    const Mapping a = g.mapping;
    const Mapping b = gen.next_over(ax);
    INFO("iteration " << iter << ": " << a.to_string() << " | " << b.to_string());

    // contract_packet: a packet of 32 or 64 B when the size allows one, P2 random or OP / 2^k.
    const ScalarType t = types[rng() % 4];
    const std::uint64_t op_cells = (1 + rng() % 2) * 256 / wire_bits(t);
    const Mapping op = testing::sized_mapping(a, op_cells);
    const std::uint64_t g2 = std::uint64_t{1} << (rng() % 8);
    const Mapping p2 = (rng() % 2 == 0 && op_cells % g2 == 0) ? *Mapping::stride(op, g2) : b;
    accepted_or_diagnosed(verify_contract_packet(ContractPacketInput{t, op, p2}), "E-PACKET-");
    accepted_or_diagnosed(verify_contract_packet(ContractPacketInput{t, a, b}), "E-PACKET-");

    // contract_time: T2 random, or a stride / modulo piece of OT, or OT itself.
    Mapping t2 = b;
    const auto pick = rng() % 4;
    if (pick == 1) t2 = a;
    if (pick == 2 && a.size() % 2 == 0) t2 = *Mapping::stride(a, 2);
    if (pick == 3 && a.size() % 2 == 0) t2 = *Mapping::modulo(a, a.size() / 2);
    accepted_or_diagnosed(verify_contract_time(ContractTimeInput{a, t2}), "E-TIME-");
    auto it = inner_time_of(a, t2);
    if (!it.ok()) CHECK_FALSE(it.diagnostics().empty());

    // contract_lane: Lane and P3 of plausible sizes, T3 = [T2, P2] or random.
    const Mapping lane = testing::sized_mapping(gen.next_over(ax), std::uint64_t{1} << (rng() % 4));
    const Mapping pk = testing::sized_mapping(gen.next_over(ax), std::uint64_t{1} << (rng() % 6));
    const Mapping p3 =
        rng() % 2 == 0 ? testing::sized_mapping(lane, 8) : testing::sized_mapping(b, 8);
    Mapping t3 = b;
    if (rng() % 2 == 0) {
      auto pr = Mapping::pair(t2, pk);
      if (pr.ok()) t3 = *pr;
    }
    for (LaneMode mode : {LaneMode::Interleaved, LaneMode::Sequential})
      accepted_or_diagnosed(verify_contract_lane(ContractLaneInput{mode, lane, t2, pk, t3, p3, a}),
                            "E-LANE-");
  }
}

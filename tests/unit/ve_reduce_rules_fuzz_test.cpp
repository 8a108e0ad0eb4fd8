// Robustness of the Vector Engine reductions' rules (ir/verify/vector_reduce.h,
// docs/vector-engine.md §3.6, §3.7) on arbitrary valid mapping expressions (tests/support/
// mapping_gen.h): the intra-slice reduce's and the inter-slice reducer's checks return a state or
// an E-VE diagnostic, never crash, and a shape they accept is one the run's lowering can take
// apart (the reducer's reduction group exists).
#include "ir/verify/vector_reduce.h"

#include "tests/support/mapping_gen.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>

using namespace tujit;
using namespace tujit::ir;
using namespace tujit::ir::verify;

namespace {

void diagnosed(const Diagnostic& d) {
  INFO(d.code << ": " << d.message);
  CHECK(d.severity == Severity::Error);
  CHECK(d.code.rfind("E-VE-", 0) == 0);
  CHECK_FALSE(d.message.empty());
}

VectorStep step(VectorCallKind kind, ReduceOp op) {
  VectorStep s;
  s.call.kind = kind;
  s.call.reduce = VeReduce{op};
  return s;
}

} // namespace

TEST_CASE("the reductions' rules diagnose arbitrary mappings without crashing",
          "[vector][reduce][fuzz]") {
  testing::MappingGenOptions opts;
  opts.max_size = 256;
  opts.max_depth = 3;
  testing::MappingGenerator gen(0x5EDCu, opts);
  std::mt19937_64& rng = gen.rng();
  std::size_t accepted = 0;
  for (int iter = 0; iter < 600; ++iter) {
    const testing::GeneratedMapping g = gen.next();
    const AxisTable& ax = g.axes;
    const std::vector<Axis>& axes = ax.axes();
    REQUIRE_FALSE(axes.empty());
    const Axis& r = axes[rng() % axes.size()];
    // Intra-slice: Time random, Packet 4 cells, Time2 random or Time's piece, Packet2 4 cells.
    VectorStep s = step(VectorCallKind::IntraSliceReduce, ReduceOp::AddSat);
    s.time = g.mapping;
    s.packet = testing::sized_mapping(gen.next_over(ax), 4);
    s.out_time = rng() % 2 == 0 ? gen.next_over(ax) : Mapping();
    s.out_packet = rng() % 2 == 0 ? s.packet : testing::sized_mapping(Mapping(), 4);
    s.group_axis = Mapping::symbol(r);
    INFO("iteration " << iter << ": R = " << r.name << ", Time " << s.time.to_string()
                      << ", Packet " << s.packet.to_string() << ", Time2 "
                      << s.out_time.to_string());
    if (auto d = intra_reduce_rules(s))
      diagnosed(*d);
    else
      ++accepted;
    // Inter-slice: Slice 256 cells from the mapping, Slice2 random of 256 or Slice with its
    // innermost part replaced by a dummy.
    VectorStep t = step(VectorCallKind::InterSliceReduce, ReduceOp::Add);
    t.slice = testing::sized_mapping(g.mapping, 256);
    t.time = gen.next_over(ax);
    t.out_time = rng() % 2 == 0 ? t.time : Mapping();
    t.packet = testing::sized_mapping(gen.next_over(ax), 8);
    Mapping slice2 = testing::sized_mapping(gen.next_over(ax), 256);
    if (rng() % 2 == 0)
      if (auto outer = Mapping::stride(t.slice, 4); outer.ok())
        if (auto dummy = Mapping::padding(Mapping(), 4, PaddingKind::Top); dummy.ok())
          if (auto pr = Mapping::pair(*outer, *dummy); pr.ok()) slice2 = *pr;
    t.out_slice = slice2;
    auto st = inter_reduce(VectorState{}, t);
    if (!st.ok()) {
      REQUIRE_FALSE(st.diagnostics().empty());
      diagnosed(st.diagnostics().front());
    } else {
      ++accepted;
      CHECK(inter_reduced_slices(t.slice, t.out_slice).has_value());
    }
  }
  CHECK(factor_internal_errors() == 0);
  CHECK(accepted > 0);
}

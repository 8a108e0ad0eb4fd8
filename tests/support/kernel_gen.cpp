#include "tests/support/kernel_gen.h"

#include <fmt/format.h>

#include <vector>

namespace tujit::testing {

KernelGenerator::KernelGenerator(std::uint64_t seed, KernelGenOptions options)
    : rng_(seed), opt_(options) {}

std::uint64_t KernelGenerator::pick(std::initializer_list<std::uint64_t> choices) {
  std::uniform_int_distribution<std::size_t> d(0, choices.size() - 1);
  return *(choices.begin() + d(rng_));
}

namespace {
std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s.empty() ? "1" : s;
}
} // namespace

GeneratedKernel KernelGenerator::next() {
  const bool i8 = opt_.allow_i8 && pick({0, 1}) == 1;
  const std::string d = i8 ? "i8" : "bf16";
  const std::string acc = i8 ? "i32" : "f32";
  const std::uint64_t fe = i8 ? 32 : 16; // elements per 32 B flit
  const std::uint64_t lanes = pick({1, 2, 4, 8});
  const std::uint64_t ps = pick({1, 2});   // PackSize
  const std::uint64_t rows = pick({1, 2}); // packets of K in Time (reduced by contract_time)
  const std::uint64_t w = fe * ps;         // |OP|
  const std::uint64_t k = w * rows;
  const std::uint64_t m = pick({2, 4, 8});
  const std::uint64_t b = opt_.allow_broadcast ? pick({1, 2, 3}) : 1;
  const bool sequential = opt_.allow_sequential && pick({0, 1}) == 1;
  const bool cast = pick({0, 1}) == 1; // an identity fetch_cast (legal for every type)
  const std::string outer = pick({0, 1}) ? "M" : "V"; // "M in Time" or "V in Time"

  std::vector<std::string> axes = {fmt::format("{} = {}", outer, m), fmt::format("K = {}", k)};
  if (lanes > 1) axes.push_back(fmt::format("N = {}", lanes));
  if (b > 1) axes.push_back(fmt::format("B = {}", b));

  const std::string lane = lanes > 1 ? "N" : "1";
  std::vector<std::string> trf_dm, trf_time, element, ot = {outer}, t2 = {outer};
  if (lanes > 1) trf_dm.push_back("N"), trf_time.push_back("N");
  if (b > 1) trf_dm.push_back("B"), trf_time.push_back("B"), element.push_back("B");
  trf_dm.push_back("K");
  trf_time.push_back(fmt::format("K / {}", fe));
  element.push_back("K");
  if (rows > 1) ot.push_back(fmt::format("K / {}", w));
  if (b > 1) ot.push_back("B"), t2.push_back("B"); // TimeBroadcast innermost (§5.1)
  const std::string packet = fmt::format("K % {}", fe);
  const std::string stream_time = fmt::format("{}, K / {}", outer, fe);
  const std::string op = fmt::format("K % {}", w);
  std::vector<std::string> t3 = t2;
  std::string p3;
  if (sequential) {
    // Sequential: Lane moves into OutTime after T2; P2 = [1] padded to one 8-element flit (§8).
    if (lanes > 1) t3.push_back("N");
    p3 = "1 # 8";
  } else {
    p3 = lanes == 8 ? "N" : (lanes > 1 ? "N # 8" : "1 # 8");
  }
  const std::string cast_line = cast ? fmt::format("\n        .fetch_cast::<{}>()", d) : "";
  const std::string name = fmt::format("generated_{}", count_++);

  GeneratedKernel g;
  g.kernel_name = name;
  g.description = fmt::format("{} L={} PS={} {}={} K={} B={} {}{}", d, lanes, ps, outer, m, k, b,
                              sequential ? "Sequential" : "Interleaved", cast ? " fetch_cast" : "");
  g.expected.pack_size = ps;
  g.expected.time_broadcast = b;
  g.expected.lanes = lanes;
  g.expected.read_size = w;
  for (std::uint64_t x = w; x > 1; x /= 2) ++g.expected.depth;
  g.expected.inner_time = rows > 1 ? b : 1;
  g.expected.flits_per_lane = b * k / fe;
  g.spec = fmt::format(
      R"(// generated: {desc}
use furiosa_opt_std::prelude::*;

axes![{axes}];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

pub fn {name}<'l>(
    ctx: &'l mut Context,
    input_dm: &DmTensor<{d}, Chip, Cluster, Slice, m![{outer}, K]>,
    trf_dm: &DmTensor<{d}, Chip, Cluster, Slice, m![{trf_dm}]>,
) -> ContractTensor<'l, {{ Tu::Main }}, {acc}, Chip, Cluster, Slice, m![{t3}], m![{p3}]> {{
    let trf: TrfTensor<{d}, Chip, Cluster, Slice, m![{lane}], m![{element}]> = ctx
        .sub
        .begin(trf_dm.view())
        .fetch::<m![{trf_time}], m![{packet}]>(){cast}
        .collect::<m![{trf_time}], m![{packet}]>()
        .to_trf();

    ctx.main
        .begin(input_dm.view())
        .fetch::<m![{stream_time}], m![{packet}]>(){cast}
        .collect::<m![{stream_time}], m![{packet}]>()
        .contract_outer::<m![{ot}], m![{op}], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![{t2}]>()
        .contract_lane::<m![{t3}], m![{p3}]>(LaneMode::{mode})
}}
)",
      fmt::arg("desc", g.description), fmt::arg("axes", join(axes)), fmt::arg("name", name),
      fmt::arg("d", d), fmt::arg("acc", acc), fmt::arg("outer", outer),
      fmt::arg("trf_dm", join(trf_dm)), fmt::arg("t3", join(t3)), fmt::arg("p3", p3),
      fmt::arg("lane", lane), fmt::arg("element", join(element)),
      fmt::arg("trf_time", join(trf_time)), fmt::arg("packet", packet), fmt::arg("cast", cast_line),
      fmt::arg("stream_time", stream_time), fmt::arg("ot", join(ot)), fmt::arg("op", op),
      fmt::arg("t2", join(t2)), fmt::arg("mode", sequential ? "Sequential" : "Interleaved"));
  return g;
}

} // namespace tujit::testing

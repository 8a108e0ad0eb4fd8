#include "harness/run/run_verify.h"

#include "runtime/layout/layout.h"
#include "runtime/oracle/oracle.h"
#include "runtime/scalar/fetch_adapter.h"
#include "runtime/scalar/widen.h"
#include "runtime/vector/reduce_oracle.h"
#include "runtime/vector/vector_oracle.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <map>
#include <tuple>
#include <utility>

namespace tujit::run {
namespace {

/// The fetch program that made the operand collected by stage `collect`, if any.
const ir::seq::FetchProgram* fetch_of(const std::vector<ir::seq::FetchProgram>& fetches,
                                      std::optional<std::size_t> collect) {
  if (!collect) return nullptr;
  for (const auto& f : fetches)
    if (f.stage == *collect) return &f;
  return nullptr;
}

/// The parameter's contents over its tile as the consumer sees them: the Fetch Adapter applied
/// elementwise — the table lookup and the cast, and the zero point too when `with_zero_point`
/// (else the dtype stays the one before it).
runtime::LogicalTensor adapted(const runtime::LogicalTensor& given,
                               const std::vector<ir::Axis>& tile, const ir::seq::FetchProgram* f,
                               bool with_zero_point) {
  runtime::LogicalTensor t = given.axes == tile ? given : runtime::leading_block(given, tile);
  if (f == nullptr) return t;
  static const std::optional<std::int64_t> kNoZeroPoint;
  const std::optional<std::int64_t>& zero_point = with_zero_point ? f->zero_point : kNoZeroPoint;
  if (!f->lookup_to && !f->cast_to && !zero_point) return t;
  runtime::LogicalTensor out = t;
  out.dtype = zero_point ? f->stream_type : f->adapted_type();
  out.data.resize(t.elements() * runtime::element_bytes(out.dtype));
  for (std::uint64_t i = 0; i < t.elements(); ++i)
    out.set(
        i, runtime::fetch_adapter_bits(f->dm_type, f->lookup_to, f->cast_to, zero_point, t.get(i)));
  return out;
}

/// The `&vrf` operands' sources as the pass reads them: each parameter over its tile, after its
/// Fetch Adapter (docs/vector-engine.md §3.2).
std::vector<runtime::LogicalTensor> vrf_sources(const RunOperands& ops,
                                                const std::vector<ir::seq::FetchProgram>& fetches,
                                                const RunInputTensors& inputs,
                                                const ir::seq::InputShapes& tiles) {
  std::vector<runtime::LogicalTensor> out;
  for (const RunOperands::VrfOperand& o : ops.vrf)
    out.push_back(adapted(*inputs.tensors.at(o.param->name), tiles.at(o.param->name),
                          fetch_of(fetches, o.collect), true));
  return out;
}

/// The operands output element `i` reads: each source at the element's coordinates on the
/// source's own axes, independently of the engines' address streams.
void vrf_operands_at(const std::vector<runtime::LogicalTensor>& sources,
                     const runtime::LogicalTensor& output, std::uint64_t i,
                     std::vector<std::uint32_t>& values) {
  values.resize(sources.size());
  if (sources.empty()) return;
  const ir::Index at = output.index(i);
  for (std::size_t k = 0; k < sources.size(); ++k)
    values[k] = sources[k].get(sources[k].offset(at));
}

/// An operand `to_dm` copied along axes its HBM tensor lacks (docs/dma.md §1): `t` (over the HBM
/// tensor's axes) copied along them, and `type` the DM tensor's own layout, which names them, so
/// the einsum sums a reduced axis over every copy the engines sum. Unchanged for other operands.
Status with_copies(const ir::SpecFile& file, const RunOperands& ops, const ir::KernelParam* p,
                   runtime::LogicalTensor& t, ir::TensorType& type) {
  const ir::TensorType* dm = ops.moved_layout(p);
  if (dm == nullptr) return {};
  std::vector<ir::Axis> axes = runtime::tensor_axes(*dm, file.axes);
  for (ir::Axis& a : axes)
    for (const ir::Axis& own : t.axes)
      if (own.name == a.name) a = own; // the tile of an axis the HBM tensor has
  auto copied = runtime::broadcast_copy(t, axes);
  if (!copied) return std::move(copied).take_diagnostics();
  t = std::move(*copied);
  type = *dm;
  return {};
}

/// A Store / Collect run moves data: every cell the output holds (the input's axes, permuted, a
/// tile of them or every stride-th coordinate of a block) must be the input element with the same
/// coordinates, after the Fetch Adapter, bit for bit.
void check_data_movement(const runtime::LogicalTensor& expected,
                         const runtime::LogicalTensor& actual, RunVerification& v) {
  auto cmp = runtime::compare_moved(expected, actual);
  if (!cmp) {
    v.oracle_not_applicable = cmp.diagnostics().front().message;
    return;
  }
  v.oracle_ok = cmp->ok;
  v.mismatches = cmp->mismatches;
  v.worst = cmp->worst;
}

/// The output path's cast of the run, as the oracle composes it (docs/kernels.md §3).
std::optional<runtime::OracleCast> oracle_cast(const RunOperands& ops) {
  const auto c = ir::seq::output_cast(ops, ir::ScalarType::F32);
  if (!c) return std::nullopt;
  return runtime::OracleCast{c->to, c->relu};
}

/// The tolerance of the run's lowered chain (docs/contraction.md §9.5); E-ORACLE-002 for a run
/// without one, whose float tolerance is undefined.
Result<runtime::ToleranceModel> chain_tolerance(const ir::seq::RunProgram& program) {
  if (program.is_move())
    return make_error("E-ORACLE-002",
                      fmt::format("kernel {} has no contraction stage, so the float tolerance of "
                                  "docs/contraction.md §9.5 is undefined",
                                  program.kernel_name));
  return runtime::tolerance_model(program.contraction().chain);
}

/// The verdict of comparing `output` with the float64 reference `ref` (through the output path's
/// cast when the run has one).
Status judge(const ir::seq::RunProgram& program, const runtime::OracleReference& ref,
             const runtime::LogicalTensor& output, RunVerification& v,
             const std::optional<runtime::OracleCast>& cast = std::nullopt) {
  auto model = chain_tolerance(program);
  if (!model) return std::move(model).take_diagnostics();
  auto cmp = runtime::compare_with_oracle(ref, output, *model, cast);
  if (!cmp) return std::move(cmp).take_diagnostics();
  v.oracle_max_abs_err = cmp->max_abs_err;
  v.oracle_ok = cmp->ok;
  v.mismatches = cmp->mismatches;
  v.worst = cmp->worst;
  return {};
}

/// A part of a chain that starts from a ContractOuter / Packet / Time tensor: the output sums the
/// input over what the part reduces, or moves it (the Lane Folder alone).
Status check_part_from_tensor(const ir::SpecFile& file, const ir::Kernel& kernel,
                              const ir::seq::RunProgram& program, const RunOperands& ops,
                              const runtime::LogicalTensor& input,
                              const runtime::LogicalTensor& output, RunVerification& v) {
  auto held = runtime::held_reductions(ops.output_type(kernel), {&*ops.stream->tensor}, file.axes);
  if (!held) {
    v.oracle_not_applicable = held.diagnostics().front().message;
    return {};
  }
  auto ref = runtime::reduction_oracle(input, output.axes, runtime::kDefaultMaxElements, *held);
  if (!ref) return std::move(ref).take_diagnostics();
  return judge(program, *ref, output, v);
}

/// A run whose output has the input's axes compares each output element with the input element of
/// the same coordinates: `match(in, out)` gives whether they agree and the error it counts.
template <typename Match>
void check_elementwise(const runtime::LogicalTensor& input, const runtime::LogicalTensor& output,
                       RunVerification& v, Match match) {
  if (input.axes != output.axes) {
    v.oracle_not_applicable = "the output's axes are not the input's";
    return;
  }
  v.oracle_ok = true;
  for (std::uint64_t i = 0; i < output.elements(); ++i) {
    const auto [ok, abs_err] = match(input.get(i), output.get(i));
    if (std::isfinite(abs_err)) v.oracle_max_abs_err = std::max(v.oracle_max_abs_err, abs_err);
    if (ok) continue;
    if (v.mismatches++ == 0) v.worst = output.coordinate_text(i);
    v.oracle_ok = false;
  }
}

/// How an output element is judged against the oracle's value of the pass: oracle_compare, or
/// cast_compare when the output path narrows the pass's result.
using ElementJudge = std::function<runtime::vector::OracleCheck(double, std::uint32_t)>;

/// An f32 pass followed by the output path's cast (docs/output-path.md §1): the f32 results
/// oracle_compare accepts for `expected` form an interval [lo, hi] around it (found one f32 step at
/// a time, at most 4096 each way); the cast is monotone, so the output must lie in cast_range of
/// [lo, hi] (a NaN where the pass gives a NaN).
runtime::vector::OracleCheck cast_compare(const ir::seq::VectorProgram& p, double expected,
                                          const runtime::OracleCast& cast, std::uint32_t out) {
  const double got = static_cast<double>(std::bit_cast<float>(runtime::widen_bits(cast.to, out)));
  if (std::isnan(expected)) return {std::isnan(got), 0};
  const auto accepts = [&](float f) {
    return runtime::vector::oracle_compare(p, expected, std::bit_cast<std::uint32_t>(f)).ok;
  };
  const float f0 = static_cast<float>(expected);
  if (!accepts(f0)) return {false, std::abs(got - expected)};
  float lo = f0, hi = f0;
  for (int k = 0; k < 4096 && accepts(std::nextafter(lo, -INFINITY)); ++k)
    lo = std::nextafter(lo, -INFINITY);
  for (int k = 0; k < 4096 && accepts(std::nextafter(hi, INFINITY)); ++k)
    hi = std::nextafter(hi, INFINITY);
  const auto [clo, chi] = runtime::cast_range(cast, lo, hi);
  if (got >= clo && got <= chi) return {true, 0};
  return {false, std::min(std::abs(got - clo), std::abs(got - chi))};
}

/// A run through a Vector Engine pass: the pass's value calls applied in float64 to the input
/// element (runtime/vector/vector_oracle.h, docs/vector-engine.md §8), each `&vrf` operand the
/// element of its source (after its Fetch Adapter) at the output element's coordinates on the
/// source's axes (docs/vector-engine.md §3.2), independently of the engines' address streams.
void check_vector_pass(const ir::seq::VectorProgram& p, const runtime::LogicalTensor& input,
                       const runtime::LogicalTensor& output,
                       const std::vector<runtime::LogicalTensor>& vrf_sources, RunVerification& v,
                       const ElementJudge& judge) {
  std::vector<std::uint32_t> vrf;
  std::uint64_t i = 0; // check_elementwise visits the output's elements in order
  check_elementwise(input, output, v, [&](std::uint32_t in, std::uint32_t out) {
    vrf_operands_at(vrf_sources, output, i++, vrf);
    const auto c = judge(runtime::vector::oracle_chain(p, in, vrf), out);
    return std::pair{c.ok, c.abs_err};
  });
}

/// A pair-mode pass (docs/vector-engine.md §3.5): output element c is the float64 chain on the
/// input elements (c, I = 0) and (c, I = 1), read by coordinates, independently of the engines'
/// address streams; the input holds exactly the output's axes and the grouping axis `I`.
void check_pair_pass(const ir::seq::VectorProgram& p, const std::string& group_axis,
                     const runtime::LogicalTensor& input, const runtime::LogicalTensor& output,
                     const std::vector<runtime::LogicalTensor>& vrf_sources, RunVerification& v,
                     const ElementJudge& judge) {
  std::vector<ir::Axis> expect = output.axes;
  for (const ir::Axis& a : input.axes)
    if (a.name == group_axis) expect.push_back(a);
  std::vector<ir::Axis> have = input.axes;
  const auto by_name = [](const ir::Axis& a, const ir::Axis& b) { return a.name < b.name; };
  std::sort(expect.begin(), expect.end(), by_name);
  std::sort(have.begin(), have.end(), by_name);
  if (expect != have) {
    v.oracle_not_applicable = "the input's axes are not the output's and the grouping axis";
    return;
  }
  v.oracle_ok = true;
  std::vector<std::uint32_t> vrf;
  for (std::uint64_t o = 0; o < output.elements(); ++o) {
    ir::Index at = output.index(o);
    at[group_axis] = 0;
    const std::uint32_t g0 = input.get(input.offset(at));
    at[group_axis] = 1;
    const std::uint32_t g1 = input.get(input.offset(at));
    vrf_operands_at(vrf_sources, output, o, vrf);
    const auto c = judge(runtime::vector::oracle_pair_chain(p, g0, g1, vrf), output.get(o));
    if (std::isfinite(c.abs_err)) v.oracle_max_abs_err = std::max(v.oracle_max_abs_err, c.abs_err);
    if (c.ok) continue;
    if (v.mismatches++ == 0) v.worst = output.coordinate_text(o);
    v.oracle_ok = false;
  }
}

/// A pass with an intra- or inter-slice reduce (docs/vector-engine.md §3.6, §3.7, §8): output
/// element c reduces the input elements with c's coordinates and every coordinate of the reduced
/// `axes`, read by coordinates, independently of the engines' address streams and of the order
/// they combine the terms in. An output axis `R / s` (a per-slice reduction keeps R's Slice part,
/// held at every s-th coordinate) fixes R to [c·s, c·s + s); another output axis the input lacks
/// (a Slice2 broadcast) is ignored. The input holds exactly the output's other axes and the
/// reduced ones.
void check_reduce_pass(const ir::seq::VectorProgram& p, const std::vector<std::string>& axes,
                       const runtime::LogicalTensor& input, const runtime::LogicalTensor& output,
                       const std::vector<runtime::LogicalTensor>& vrf_sources, RunVerification& v) {
  const auto held = [&](const std::string& n) {
    return std::any_of(input.axes.begin(), input.axes.end(),
                       [&](const ir::Axis& a) { return a.name == n; });
  };
  // A reduced axis's kept part (`R / s`, docs/cli.md's name of a strided output axis): its stride.
  std::map<std::string, std::uint64_t> kept;
  std::vector<std::string> fresh;
  std::vector<ir::Axis> expect;
  for (const ir::Axis& a : output.axes) {
    if (held(a.name)) {
      expect.push_back(a);
      continue;
    }
    fresh.push_back(a.name);
    for (const std::string& r : axes)
      if (a.name.rfind(r + " / ", 0) == 0 && a.name.find('%') == std::string::npos)
        kept[a.name] = std::stoull(a.name.substr(r.size() + 3));
  }
  struct Reduced {
    std::string name, part; // the axis, and its kept part's output axis (empty: none)
    std::uint64_t extent = 0;
  };
  std::vector<Reduced> reduced;
  std::uint64_t extent = 1;
  for (const ir::Axis& a : input.axes) {
    if (std::find(axes.begin(), axes.end(), a.name) == axes.end()) continue;
    expect.push_back(a);
    Reduced r{a.name, "", a.size};
    for (const auto& [name, stride] : kept)
      if (name.rfind(a.name + " / ", 0) == 0) r = {a.name, name, stride};
    reduced.push_back(r);
    extent *= r.extent;
  }
  std::vector<ir::Axis> have = input.axes;
  const auto by_name = [](const ir::Axis& a, const ir::Axis& b) { return a.name < b.name; };
  std::sort(expect.begin(), expect.end(), by_name);
  std::sort(have.begin(), have.end(), by_name);
  if (expect != have) {
    v.oracle_not_applicable = "the input's axes are not the output's and the reduced ones";
    return;
  }
  v.oracle_ok = true;
  std::vector<std::uint32_t> vrf, terms(extent);
  for (std::uint64_t o = 0; o < output.elements(); ++o) {
    const ir::Index out_at = output.index(o);
    ir::Index at = out_at;
    for (const std::string& f : fresh) at.erase(f);
    for (std::uint64_t t = 0; t < extent; ++t) {
      std::uint64_t rest = t;
      for (auto r = reduced.rbegin(); r != reduced.rend(); ++r) {
        const std::uint64_t base = r->part.empty() ? 0 : out_at.at(r->part) * r->extent;
        at[r->name] = base + rest % r->extent;
        rest /= r->extent;
      }
      terms[t] = input.get(input.offset(at));
    }
    vrf_operands_at(vrf_sources, output, o, vrf);
    const auto c = runtime::vector::oracle_reduce_check(p, terms, vrf, output.get(o));
    if (std::isfinite(c.abs_err)) v.oracle_max_abs_err = std::max(v.oracle_max_abs_err, c.abs_err);
    if (c.ok) continue;
    if (v.mismatches++ == 0) v.worst = output.coordinate_text(o);
    v.oracle_ok = false;
  }
}

/// A Vector Engine pass reading a contraction's output (docs/vector-engine.md §8): the chain's
/// f32 result c lies within the einsum's tolerance t of its float64 value r, so the pass's output
/// must be what the float64 pass gives somewhere on [r − t, r + t]: between its values at the
/// two ends (the pass's calls are monotone there, or the interval is far below their period), or
/// within the pass's own tolerance of one of them. An i32 chain is exact: the pass's oracle on it.
Status check_pass_after_chain(const ir::seq::RunProgram& program, const ir::seq::VectorProgram& p,
                              const runtime::OracleReference& ref,
                              const runtime::LogicalTensor& output,
                              const std::vector<runtime::LogicalTensor>& vrf_sources,
                              RunVerification& v, const std::optional<runtime::OracleCast>& cast) {
  if (cast && (p.out_type != ir::ScalarType::F32 || ir::is_integer(ref.accumulator))) {
    v.oracle_not_applicable = "the oracle composes the output path's cast after a Vector Engine "
                              "pass only for an f32 pass after an f32 chain";
    return {};
  }
  auto model = chain_tolerance(program);
  if (!model) return std::move(model).take_diagnostics();
  if (output.axes != ref.axes) {
    v.oracle_not_applicable = "the output's axes are not the contraction's";
    return {};
  }
  const bool integer = ir::is_integer(ref.accumulator);
  v.oracle_ok = true;
  std::vector<std::uint32_t> vrf;
  for (std::uint64_t o = 0; o < output.elements(); ++o) {
    const std::uint32_t got = output.get(o);
    vrf_operands_at(vrf_sources, output, o, vrf);
    bool ok = false;
    double err = INFINITY;
    if (integer) {
      const auto c = runtime::vector::oracle_compare(
          p, runtime::vector::oracle_chain_value(p, ref.exact[o], vrf), got);
      ok = c.ok;
      err = c.abs_err;
    } else {
      const double r = ref.value[o];
      const double t = runtime::oracle_tolerance(*model, ref.abs_sum[o], ref.products_per_output);
      double lo = INFINITY, hi = -INFINITY;
      for (double x : {r, r - t, r + t}) {
        const double e = runtime::vector::oracle_chain_value(p, x, vrf);
        const auto c = runtime::vector::oracle_compare(p, e, got);
        ok = ok || c.ok;
        err = std::min(err, c.abs_err);
        const double rounded =
            p.out_type == ir::ScalarType::F32 ? static_cast<double>(static_cast<float>(e)) : e;
        lo = std::min(lo, rounded);
        hi = std::max(hi, rounded);
      }
      double g = p.out_type == ir::ScalarType::F32
                     ? static_cast<double>(std::bit_cast<float>(got))
                     : static_cast<double>(std::bit_cast<std::int32_t>(got));
      if (cast) {
        // The pass's f32 result anywhere in [lo, hi], narrowed by the cast (cast_range); a
        // narrowed value is never within the pass's own tolerance test above.
        std::tie(lo, hi) = runtime::cast_range(*cast, lo, hi);
        g = static_cast<double>(std::bit_cast<float>(runtime::widen_bits(cast->to, got)));
        ok = false;
        err = INFINITY;
      }
      if (g >= lo && g <= hi) {
        ok = true;
        err = 0;
      }
    }
    if (std::isfinite(err)) v.oracle_max_abs_err = std::max(v.oracle_max_abs_err, err);
    if (ok) continue;
    if (v.mismatches++ == 0) v.worst = output.coordinate_text(o);
    v.oracle_ok = false;
  }
  return {};
}

} // namespace

Status oracle_verdict(const ir::SpecFile& file, const ir::Kernel& kernel, const RunOperands& ops,
                      const ir::seq::RunProgram& program, const RunInputTensors& inputs,
                      const ir::seq::InputShapes& tiles, const runtime::LogicalTensor& output,
                      RunVerification& v) {
  const std::vector<ir::seq::FetchProgram>& fetches = program.fetches;
  if (ops.vector_final && !program.vector)
    return run_error("E-RUN-102", fmt::format("internal: the program of `{}` lacks its Vector "
                                              "Engine pass",
                                              kernel.name));
  const ir::seq::FetchProgram* stream_fetch = fetch_of(fetches, ops.stream_collect);
  const runtime::LogicalTensor& stream_in = *inputs.tensors.at(ops.stream->name);
  const std::vector<ir::Axis>& stream_tile = tiles.at(ops.stream->name);
  if (ops.shape != RunShape::Contraction && ops.shape != RunShape::Partial) {
    // Store, Collect, Write: the data moved, or passed through the Vector Engine.
    runtime::LogicalTensor input = adapted(stream_in, stream_tile, stream_fetch, true);
    const auto cast = oracle_cast(ops);
    if (cast && ops.vector_final && program.vector->out_type != ir::ScalarType::F32) {
      v.oracle_not_applicable = "the oracle composes the output path's cast after a Vector Engine "
                                "pass on a data move only for an f32 pass";
      return {};
    }
    if (cast && !ops.vector_final) {
      // The output path narrows every moved element in place (docs/output-path.md §1, §2.2).
      runtime::LogicalTensor narrowed = input;
      narrowed.dtype = cast->to;
      narrowed.data.resize(input.elements() * runtime::element_bytes(cast->to));
      for (std::uint64_t i = 0; i < input.elements(); ++i)
        narrowed.set(i, runtime::output_cast_bits(cast->to, cast->relu, input.get(i)));
      input = std::move(narrowed);
    }
    if (!ops.vector_final) {
      check_data_movement(input, output, v);
      return {};
    }
    const ir::seq::VectorProgram& p = *program.vector;
    const ElementJudge judge = [&](double expected, std::uint32_t out) {
      return cast ? cast_compare(p, expected, *cast, out)
                  : runtime::vector::oracle_compare(p, expected, out);
    };
    if (const auto& axes = program.move().reduce_axes; !axes.empty()) {
      if (cast) {
        v.oracle_not_applicable = "the oracle does not compose the output path's cast after "
                                  "a reduce";
        return {};
      }
      check_reduce_pass(p, axes, input, output, vrf_sources(ops, fetches, inputs, tiles), v);
      return {};
    }
    if (const std::string& group_axis = program.move().pair_group_axis; !group_axis.empty()) {
      check_pair_pass(p, group_axis, input, output, vrf_sources(ops, fetches, inputs, tiles), v,
                      judge);
      return {};
    }
    check_vector_pass(p, input, output, vrf_sources(ops, fetches, inputs, tiles), v, judge);
    return {};
  }
  // A part of a chain from contract_outer is judged like a whole chain, by the einsum below.
  if (ops.shape == RunShape::Partial && ops.outer == nullptr)
    return check_part_from_tensor(file, kernel, program, ops,
                                  adapted(stream_in, stream_tile, nullptr, false), output, v);
  const ir::seq::FetchProgram* trf_fetch = fetch_of(fetches, ops.trf_collect);
  const ir::TensorType& out_type = ops.output_type(kernel);
  // The oracle reads each operand as the device holds it: a DM-fed operand through its DM
  // tensor's layout (digits the fetch broadcasts are not data), else through the type the
  // Contraction Engine reads (the TRF type when the TRF is stored in the kernel).
  // (The fetched parameter's type is its DM tensor's; for a DM tensor `to_dm` wrote, the HBM
  // source read through that layout, docs/dma.md §1.)
  ir::TensorType trf_type = trf_fetch       ? *ops.trf->tensor
                            : ops.trf_store ? ops.trf_store->output
                                            : *ops.trf->tensor;
  ir::TensorType stream_type = stream_fetch ? *ops.stream->tensor : ops.stream_type(kernel);
  // The oracle subtracts the zero points itself (docs/contraction.md §2.2).
  runtime::LogicalTensor trf_t =
      adapted(*inputs.tensors.at(ops.trf->name), tiles.at(ops.trf->name), trf_fetch, false);
  runtime::LogicalTensor stream_t = adapted(stream_in, stream_tile, stream_fetch, false);
  if (auto s = with_copies(file, ops, ops.trf, trf_t, trf_type); !s) return s;
  if (auto s = with_copies(file, ops, ops.stream, stream_t, stream_type); !s) return s;
  v.oracle_not_applicable =
      runtime::oracle_not_applicable(out_type, {&stream_type, &trf_type}, file.axes);
  if (v.oracle_not_applicable) return {};
  auto weight = runtime::device_view(trf_t, trf_type);
  if (!weight) return std::move(weight).take_diagnostics();
  auto stream_view = runtime::device_view(stream_t, stream_type);
  if (!stream_view) return std::move(stream_view).take_diagnostics();
  const std::int64_t stream_zp = stream_fetch ? stream_fetch->zero_point.value_or(0) : 0;
  const std::int64_t trf_zp = trf_fetch ? trf_fetch->zero_point.value_or(0) : 0;
  auto held = runtime::held_reductions(out_type, {&stream_type, &trf_type}, file.axes);
  if (!held) return std::move(held).take_diagnostics();
  auto ref = runtime::einsum_oracle({&*stream_view, stream_zp}, {&*weight, trf_zp}, output.axes,
                                    runtime::kDefaultMaxElements, *held);
  if (!ref) return std::move(ref).take_diagnostics();
  if (ops.vector_final) {
    return check_pass_after_chain(program, *program.vector, *ref, output,
                                  vrf_sources(ops, fetches, inputs, tiles), v, oracle_cast(ops));
  }
  return judge(program, *ref, output, v, oracle_cast(ops));
}

} // namespace tujit::run

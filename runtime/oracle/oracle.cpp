#include "runtime/oracle/oracle.h"

#include "runtime/layout/held_readback.h"
#include "runtime/layout/layout.h"
#include "runtime/scalar/float_bits.h"
#include "runtime/scalar/widen.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tujit::runtime {

namespace {

// The Multiplier's widening (docs/contraction.md §2.1) of a float operand: hardware bf16
// widening (subnormals flushed), exact f8 decodes (runtime/scalar/widen.h).
double widen_float(ir::ScalarType t, std::uint32_t bits) {
  return static_cast<double>(f32_from_bits(widen_bits(t, bits)));
}

// Row-major stride of `axis` in `t`, 0 when the tensor does not have it (broadcast).
std::uint64_t stride_of(const LogicalTensor& t, const std::string& axis) {
  std::uint64_t stride = 1;
  for (std::size_t k = t.axes.size(); k-- > 0;) {
    if (t.axes[k].name == axis) return stride;
    stride *= t.axes[k].size;
  }
  return 0;
}

bool contains(const std::vector<ir::Axis>& v, const std::string& name) {
  return std::any_of(v.begin(), v.end(), [&](const ir::Axis& a) { return a.name == name; });
}

// An odometer over a list of axes that keeps the running offsets into both operands.
struct Walk {
  std::vector<std::uint64_t> size, sa, sb, digit;
  std::uint64_t oa = 0, ob = 0;
  void init(const std::vector<ir::Axis>& axes, const LogicalTensor& a, const LogicalTensor& b) {
    for (const auto& ax : axes) {
      size.push_back(ax.size);
      sa.push_back(stride_of(a, ax.name));
      sb.push_back(stride_of(b, ax.name));
    }
    digit.assign(axes.size(), 0);
  }
  // Advance the innermost digit with carries; false after the last position.
  bool next() {
    for (std::size_t k = size.size(); k-- > 0;) {
      if (++digit[k] < size[k]) {
        oa += sa[k];
        ob += sb[k];
        return true;
      }
      oa -= sa[k] * (size[k] - 1);
      ob -= sb[k] * (size[k] - 1);
      digit[k] = 0;
    }
    return false;
  }
};

// The output and reduction walks of an einsum over `a` and `b` (b = a for one operand): the
// contracted axes are the operands' axes the output does not have; a partly held contracted
// axis walks its held coordinates only; a block axis of the output (HeldReduction::block) steps
// over its source axis by the block's stride, and the source axis is summed within the block.
struct EinsumWalks {
  Walk out, red;
};

EinsumWalks einsum_walks(OracleReference& ref, const LogicalTensor& a, const LogicalTensor& b,
                         const std::vector<HeldReduction>& held) {
  for (const auto* t : {&a, &b})
    for (const auto& ax : t->axes)
      if (!contains(ref.axes, ax.name) && !contains(ref.contracted, ax.name))
        ref.contracted.push_back(ax);
  ref.products_per_output = 1;
  for (const auto& ax : ref.contracted) ref.products_per_output *= ax.size;
  EinsumWalks w;
  w.out.init(ref.axes, a, b);
  w.red.init(ref.contracted, a, b);
  for (const auto& h : held) {
    for (std::size_t k = 0; k < ref.contracted.size(); ++k) {
      if (h.axis != ref.contracted[k].name) continue;
      ref.products_per_output = ref.products_per_output / w.red.size[k] * h.count;
      w.red.size[k] = h.count;
      const std::uint64_t step = h.block.empty() ? h.stride : h.step;
      w.red.sa[k] *= step;
      w.red.sb[k] *= step;
    }
    if (h.block.empty()) continue;
    for (std::size_t k = 0; k < ref.axes.size(); ++k) {
      if (ref.axes[k].name != h.block) continue;
      w.out.sa[k] = stride_of(a, h.axis) * h.stride;
      w.out.sb[k] = stride_of(b, h.axis) * h.stride;
    }
  }
  return w;
}

// Σ term over the reduced coordinates of every output cell: integers wrapped to i32 (the
// accumulator, docs/contraction.md §9.1), floats in double with Σ |term| for the tolerance.
template <class IntTerm, class FloatTerm>
void accumulate(OracleReference& ref, EinsumWalks& w, std::uint64_t n_out, IntTerm int_term,
                FloatTerm float_term) {
  if (ir::is_integer(ref.accumulator))
    ref.exact.assign(n_out, 0);
  else {
    ref.value.assign(n_out, 0.0);
    ref.abs_sum.assign(n_out, 0.0);
  }
  for (std::uint64_t o = 0; o < n_out; ++o, w.out.next()) {
    if (ir::is_integer(ref.accumulator)) {
      std::uint64_t sum = 0; // two's-complement wrap
      do {
        sum += static_cast<std::uint64_t>(int_term(w.out.oa + w.red.oa, w.out.ob + w.red.ob));
      } while (w.red.next());
      ref.exact[o] = static_cast<std::int32_t>(static_cast<std::uint32_t>(sum));
    } else {
      double sum = 0, abs_sum = 0;
      do {
        const double p = float_term(w.out.oa + w.red.oa, w.out.ob + w.red.ob);
        sum += p;
        abs_sum += std::fabs(p);
      } while (w.red.next());
      ref.value[o] = sum;
      ref.abs_sum[o] = abs_sum;
    }
  }
}

} // namespace

Result<OracleReference> einsum_oracle(const OracleOperand& stream, const OracleOperand& weight,
                                      const std::vector<ir::Axis>& out_axes,
                                      std::uint64_t max_elements,
                                      const std::vector<HeldReduction>& held) {
  const LogicalTensor& a = *stream.tensor;
  const LogicalTensor& b = *weight.tensor;
  auto acc = ir::contraction_accumulator(a.dtype, b.dtype);
  if (!acc)
    return make_error(
        "E-ORACLE-001",
        fmt::format("the oracle cannot contract {} with {}", ir::name(a.dtype), ir::name(b.dtype)),
        std::nullopt, {ir::explain_contraction_refusal(a.dtype, b.dtype)});
  OracleReference ref;
  ref.accumulator = *acc;
  ref.axes = out_axes;
  auto shape = make_logical_tensor(*acc, out_axes, max_elements);
  if (!shape) return std::move(shape).take_diagnostics();
  EinsumWalks w = einsum_walks(ref, a, b, held);
  accumulate(
      ref, w, shape->elements(),
      [&](std::uint64_t ia, std::uint64_t ib) {
        const std::int64_t x = element_integer(a.dtype, a.get(ia)) - stream.zero_point;
        const std::int64_t y = element_integer(b.dtype, b.get(ib)) - weight.zero_point;
        return x * y;
      },
      [&](std::uint64_t ia, std::uint64_t ib) {
        return widen_float(a.dtype, a.get(ia)) * widen_float(b.dtype, b.get(ib));
      });
  return ref;
}

Result<OracleReference> reduction_oracle(const LogicalTensor& input,
                                         const std::vector<ir::Axis>& out_axes,
                                         std::uint64_t max_elements,
                                         const std::vector<HeldReduction>& held) {
  OracleReference ref;
  ref.accumulator = input.dtype;
  ref.axes = out_axes;
  auto shape = make_logical_tensor(input.dtype, out_axes, max_elements);
  if (!shape) return std::move(shape).take_diagnostics();
  EinsumWalks w = einsum_walks(ref, input, input, held);
  accumulate(
      ref, w, shape->elements(),
      [&](std::uint64_t i, std::uint64_t) { return element_integer(input.dtype, input.get(i)); },
      [&](std::uint64_t i, std::uint64_t) { return widen_float(input.dtype, input.get(i)); });
  return ref;
}

double oracle_tolerance(const ToleranceModel& m, double abs_sum, std::uint64_t products) {
  const double n = static_cast<double>(products);
  const double k = static_cast<double>(m.tree_depth) + static_cast<double>(m.flits);
  return k * std::ldexp(abs_sum, -24) * (1.0 + std::ldexp(1.0, -16)) + n * std::ldexp(1.0, -149) +
         n * std::ldexp(abs_sum, -52);
}

ToleranceModel tolerance_model(const ir::seq::ContractionProgram& chain) {
  using ir::seq::ChainStage;
  const auto runs = [&](ChainStage s) { return chain.first <= s && s <= chain.last; };
  ToleranceModel m;
  m.tree_depth = runs(ChainStage::Packet) ? chain.depth : 0;
  m.flits = 0;
  if (runs(ChainStage::Time)) {
    const std::uint64_t ot = chain.m.out_time.size(), t2 = chain.m.t2.size();
    m.flits = std::max<std::uint64_t>(1, t2 == 0 ? ot : ot / t2);
  }
  return m;
}

std::pair<double, double> cast_range(const OracleCast& cast, double lo, double hi) {
  const auto f32_at = [](double x, bool up) {
    float f = static_cast<float>(x);
    if (up && static_cast<double>(f) < x) f = std::nextafter(f, INFINITY);
    if (!up && static_cast<double>(f) > x) f = std::nextafter(f, -INFINITY);
    return f;
  };
  const auto narrowed = [&](float f) {
    const std::uint32_t code = output_cast_bits(cast.to, cast.relu, f32_bits(f));
    return static_cast<double>(f32_from_bits(widen_bits(cast.to, code)));
  };
  return {narrowed(f32_at(lo, false)), narrowed(f32_at(hi, true))};
}

Result<OracleComparison> compare_with_oracle(const OracleReference& ref,
                                             const LogicalTensor& actual,
                                             const ToleranceModel& model,
                                             const std::optional<OracleCast>& cast) {
  const ir::ScalarType expected_dtype = cast ? cast->to : ref.accumulator;
  if (actual.dtype != expected_dtype || actual.axes != ref.axes)
    return make_error(
        "E-ORACLE-003",
        fmt::format("the output ({} {}) does not match the oracle's ({} {})",
                    ir::name(actual.dtype), shape_text(actual.shape()), ir::name(expected_dtype),
                    shape_text(LogicalTensor{ref.accumulator, ref.axes, {}}.shape())));
  OracleComparison c;
  const bool integer = ir::is_integer(ref.accumulator);
  c.checked = actual.elements();
  double worst_score = -1;
  for (std::uint64_t o = 0; o < actual.elements(); ++o) {
    double expected, got, tol = 0, err;
    bool bad;
    if (integer) {
      // The exact sum, wrapped by the cast when there is one (the container is sign-extended).
      const std::uint32_t want =
          cast ? output_cast_bits(cast->to, cast->relu, static_cast<std::uint32_t>(ref.exact[o]))
               : static_cast<std::uint32_t>(ref.exact[o]);
      expected = static_cast<std::int32_t>(want);
      got = static_cast<std::int32_t>(actual.get(o));
      err = std::fabs(got - expected);
      bad = want != actual.get(o);
    } else if (cast) {
      expected = ref.value[o];
      tol = oracle_tolerance(model, ref.abs_sum[o], ref.products_per_output);
      got = static_cast<double>(f32_from_bits(widen_bits(cast->to, actual.get(o))));
      const auto [lo, hi] = cast_range(*cast, expected - tol, expected + tol);
      bad = std::isnan(expected) ? !std::isnan(got) : !(got >= lo && got <= hi);
      err = std::isnan(expected) || std::isnan(got) ? (bad ? INFINITY : 0)
                                                    : std::fabs(got - expected);
      if (std::isinf(err) && !bad) err = 0;
    } else {
      expected = ref.value[o];
      got = static_cast<double>(f32_from_bits(actual.get(o)));
      tol = oracle_tolerance(model, ref.abs_sum[o], ref.products_per_output);
      if (std::isnan(expected) || std::isnan(got)) {
        err = std::isnan(expected) && std::isnan(got) ? 0 : INFINITY;
      } else if (std::isinf(expected) || std::isinf(got)) {
        err = expected == got ? 0 : INFINITY;
      } else {
        err = std::fabs(got - expected);
      }
      bad = err > tol;
      const double ratio = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0);
      c.max_err_over_tolerance = std::max(c.max_err_over_tolerance, ratio);
    }
    const double score = bad ? INFINITY : err;
    if (err > c.max_abs_err || std::isnan(err)) c.max_abs_err = err;
    if (score > worst_score) {
      worst_score = score;
      c.worst = actual.coordinate_text(o);
    }
    if (bad) {
      c.ok = false;
      if (c.mismatches++ < 8)
        c.first_mismatches.push_back({actual.coordinate_text(o), expected, got, tol});
    }
  }
  return c;
}

Result<std::vector<HeldReduction>>
held_reductions(const ir::TensorType& output, const std::vector<const ir::TensorType*>& operands,
                const ir::AxisTable& table) {
  const auto out_axes = tensor_axes(output, table);
  std::vector<std::vector<HeldAxis>> operand_held;
  for (const ir::TensorType* t : operands) {
    auto held = operand_held_axes(*t, tensor_axes(*t, table));
    if (!held) return std::move(held).take_diagnostics();
    operand_held.push_back(std::move(*held));
  }
  std::vector<HeldReduction> out;
  // The output holds every stride-th coordinate of an axis (docs/mapping.md §3.1): each cell sums
  // what the operands hold of its block (the block's other coordinates are contracted digits: a
  // valid chain keeps every spatial digit in its output, docs/contraction.md §3).
  auto out_held = held_axes(output, out_axes);
  if (!out_held) return std::move(out_held).take_diagnostics();
  for (const auto& h : *out_held) {
    if (h.stride == 1) continue;
    // Only an operand that holds every s-th coordinate thins the block out; one that holds the
    // whole axis or a first tile of it is read over every coordinate (device_view).
    std::uint64_t step = 1;
    for (const auto& held : operand_held)
      for (const auto& o : held) {
        if (o.source.name != h.source.name || o.stride == 1) continue;
        if (h.stride % o.stride != 0)
          return make_error("E-ORACLE-004",
                            fmt::format("an operand holds coordinates of the axis {} that are not "
                                        "every s-th one with s dividing the output's {}",
                                        h.source.name, h.stride));
        step = std::lcm(step, o.stride);
      }
    out.push_back({h.source.name, h.stride, h.stride / step, h.axis.name, step});
  }
  std::vector<std::string> whole; // contracted axes some operand holds entirely
  for (const auto& held : operand_held) {
    for (const auto& h : held) {
      if (contains(out_axes, h.source.name)) continue;
      if (h.whole()) {
        whole.push_back(h.source.name);
        continue;
      }
      HeldReduction r{h.source.name, h.stride, h.axis.size, {}};
      auto same = std::find_if(out.begin(), out.end(),
                               [&](const HeldReduction& x) { return x.axis == r.axis; });
      if (same != out.end() && !same->block.empty())
        return make_error("E-ORACLE-004",
                          fmt::format("an operand holds only part of the axis {} whose blocks the "
                                      "output sums",
                                      r.axis));
      if (same == out.end())
        out.push_back(r);
      else if (same->stride != r.stride || same->count != r.count)
        return make_error("E-ORACLE-004",
                          fmt::format("the operands hold different parts of the contracted "
                                      "axis {}",
                                      r.axis));
    }
  }
  return out;
}

namespace {

// The source axis and stride of an axis of a read-back tensor, as held_readback.h names the
// axes it renames: "T / 16" (every 16th T) or "T / 16 % 4" (the first 4 of them); any other name
// is the axis itself.
std::pair<std::string, std::uint64_t> held_source(const std::string& name) {
  const auto slash = name.find(" / ");
  if (slash == std::string::npos) return {name, 1};
  const std::string rest = name.substr(slash + 3);
  std::uint64_t stride = 0;
  std::size_t i = 0;
  for (; i < rest.size() && rest[i] >= '0' && rest[i] <= '9'; ++i)
    stride = stride * 10 + static_cast<std::uint64_t>(rest[i] - '0');
  if (i == 0 || stride == 0 || (i < rest.size() && rest.compare(i, 3, " % ") != 0))
    return {name, 1};
  return {name.substr(0, slash), stride};
}

} // namespace

Result<OracleComparison> compare_moved(const LogicalTensor& expected, const LogicalTensor& actual) {
  const auto refuse = [&](const std::string& why) {
    return make_error("E-ORACLE-003",
                      fmt::format("the output ({} {}) is not a move of the input ({} {}): {}",
                                  ir::name(actual.dtype), axes_text(actual.axes),
                                  ir::name(expected.dtype), axes_text(expected.axes), why));
  };
  if (actual.dtype != expected.dtype) return refuse("the element types differ");
  // Per output axis: the input's row-major stride for one step along it.
  std::vector<std::uint64_t> step(actual.axes.size(), 0);
  std::vector<bool> covered(expected.axes.size(), false);
  for (std::size_t k = 0; k < actual.axes.size(); ++k) {
    const auto [source, stride] = held_source(actual.axes[k].name);
    std::uint64_t inner = 1;
    for (std::size_t e = expected.axes.size(); e-- > 0;) {
      if (expected.axes[e].name == source) {
        if (stride * (actual.axes[k].size - 1) >= expected.axes[e].size)
          return refuse(
              fmt::format("the output's {} reaches past the input's", actual.axes[k].name));
        step[k] = inner * stride;
        covered[e] = true;
      }
      inner *= expected.axes[e].size;
    }
    // An axis only the output names is a broadcast (a `to_dm` that copies the tensor along it,
    // docs/dma.md §1, or a fetch broadcast, docs/datapath.md §4): every coordinate of it holds
    // the same input element: its step stays 0.
  }
  for (std::size_t e = 0; e < expected.axes.size(); ++e)
    if (!covered[e] && expected.axes[e].size > 1)
      return refuse(
          fmt::format("the output does not hold the input's axis {}", expected.axes[e].name));
  OracleComparison c;
  c.checked = actual.elements();
  std::vector<std::uint64_t> digit(actual.axes.size(), 0);
  std::uint64_t at = 0; // offset into expected
  for (std::uint64_t o = 0; o < actual.elements(); ++o) {
    if (actual.get(o) != expected.get(at)) {
      if (c.mismatches++ == 0) c.worst = actual.coordinate_text(o);
      c.ok = false;
    }
    for (std::size_t k = actual.axes.size(); k-- > 0;) {
      if (++digit[k] < actual.axes[k].size) {
        at += step[k];
        break;
      }
      at -= step[k] * (actual.axes[k].size - 1);
      digit[k] = 0;
    }
  }
  return c;
}

std::optional<std::string> oracle_not_applicable(const ir::TensorType& output,
                                                 const std::vector<const ir::TensorType*>& operands,
                                                 const ir::AxisTable& table) {
  // The output is read back over what it holds (held_readback.h): every coordinate, a tile, or
  // every stride-th coordinate summed over its block.
  auto held = held_reductions(output, operands, table);
  if (!held) return fmt::format("oracle not applicable: {}", held.diagnostics().front().message);
  return std::nullopt;
}

} // namespace tujit::runtime

#include "runtime/oracle/oracle.h"

#include "ir/verify/contract_packet.h"
#include "runtime/layout/held_readback.h"
#include "runtime/layout/layout.h"
#include "runtime/scalar/float_bits.h"
#include "runtime/scalar/widen.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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
  for (const auto* t : {&a, &b})
    for (const auto& ax : t->axes)
      if (!contains(out_axes, ax.name) && !contains(ref.contracted, ax.name))
        ref.contracted.push_back(ax);
  auto shape = make_logical_tensor(*acc, out_axes, max_elements);
  if (!shape) return std::move(shape).take_diagnostics();
  const std::uint64_t n_out = shape->elements();
  ref.products_per_output = 1;
  for (const auto& ax : ref.contracted) ref.products_per_output *= ax.size;

  Walk out, red;
  out.init(out_axes, a, b);
  red.init(ref.contracted, a, b);
  // A partly held contracted axis: walk its held coordinates only.
  for (std::size_t k = 0; k < ref.contracted.size(); ++k)
    for (const auto& h : held)
      if (h.axis == ref.contracted[k].name) {
        ref.products_per_output = ref.products_per_output / red.size[k] * h.count;
        red.size[k] = h.count;
        red.sa[k] *= h.stride;
        red.sb[k] *= h.stride;
      }
  const bool integer = ir::is_integer(*acc);
  if (integer)
    ref.exact.assign(n_out, 0);
  else {
    ref.value.assign(n_out, 0.0);
    ref.abs_sum.assign(n_out, 0.0);
  }
  for (std::uint64_t o = 0; o < n_out; ++o, out.next()) {
    if (integer) {
      std::uint64_t sum =
          0; // two's-complement wrap, as the i32 accumulator (docs/contraction.md §9.1)
      do {
        std::int64_t x = element_integer(a.dtype, a.get(out.oa + red.oa)) - stream.zero_point;
        std::int64_t y = element_integer(b.dtype, b.get(out.ob + red.ob)) - weight.zero_point;
        sum += static_cast<std::uint64_t>(x * y);
      } while (red.next());
      ref.exact[o] = static_cast<std::int32_t>(static_cast<std::uint32_t>(sum));
    } else {
      double sum = 0, abs_sum = 0;
      do {
        double p = widen_float(a.dtype, a.get(out.oa + red.oa)) *
                   widen_float(b.dtype, b.get(out.ob + red.ob));
        sum += p;
        abs_sum += std::fabs(p);
      } while (red.next());
      ref.value[o] = sum;
      ref.abs_sum[o] = abs_sum;
    }
  }
  return ref;
}

double oracle_tolerance(const ToleranceModel& m, double abs_sum, std::uint64_t products) {
  const double n = static_cast<double>(products);
  const double k = static_cast<double>(m.tree_depth) + static_cast<double>(m.flits);
  return k * std::ldexp(abs_sum, -24) * (1.0 + std::ldexp(1.0, -16)) + n * std::ldexp(1.0, -149) +
         n * std::ldexp(abs_sum, -52);
}

Result<ToleranceModel> tolerance_model_for_kernel(const ir::Kernel& k) {
  const ir::Stage* packet = nullptr;
  const ir::Stage* time = nullptr;
  for (const auto& s : k.stages) {
    if (s.op == ir::StageOp::ContractPacket) packet = &s;
    if (s.op == ir::StageOp::ContractTime) time = &s;
  }
  if (packet == nullptr || time == nullptr)
    return make_error("E-ORACLE-002",
                      fmt::format("kernel {} has no contract_packet / contract_time stage, so "
                                  "the float tolerance of docs/contraction.md §9.5 is undefined",
                                  k.name));
  ir::verify::ContractPacketInput in;
  in.dtype = packet->input.storage.value_or(packet->input.dtype);
  in.out_packet = packet->input.mapping(ir::Slot::Packet);
  in.p2 = packet->output.mapping(ir::Slot::Packet);
  auto derived = ir::verify::verify_contract_packet(in);
  if (!derived) return std::move(derived).take_diagnostics();
  ToleranceModel m;
  m.tree_depth = derived->depth;
  const std::uint64_t ot = time->input.mapping(ir::Slot::Time).size();
  const std::uint64_t t2 = time->output.mapping(ir::Slot::Time).size();
  m.flits = std::max<std::uint64_t>(1, t2 == 0 ? ot : ot / t2);
  return m;
}

Result<OracleComparison> compare_with_oracle(const OracleReference& ref,
                                             const LogicalTensor& actual,
                                             const ToleranceModel& model) {
  if (actual.dtype != ref.accumulator || actual.axes != ref.axes)
    return make_error(
        "E-ORACLE-003",
        fmt::format("the output ({} {}) does not match the oracle's ({} {})",
                    ir::name(actual.dtype), shape_text(actual.shape()), ir::name(ref.accumulator),
                    shape_text(LogicalTensor{ref.accumulator, ref.axes, {}}.shape())));
  OracleComparison c;
  const bool integer = ir::is_integer(ref.accumulator);
  c.checked = actual.elements();
  double worst_score = -1;
  for (std::uint64_t o = 0; o < actual.elements(); ++o) {
    double expected, got, tol = 0, err;
    bool bad;
    if (integer) {
      expected = ref.exact[o];
      got = static_cast<std::int32_t>(actual.get(o));
      err = std::fabs(got - expected);
      bad = ref.exact[o] != static_cast<std::int32_t>(actual.get(o));
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
  std::vector<HeldReduction> out;
  std::vector<std::string> whole; // contracted axes some operand holds entirely
  for (const ir::TensorType* t : operands) {
    auto held = operand_held_axes(*t, tensor_axes(*t, table));
    if (!held) return std::move(held).take_diagnostics();
    for (const auto& h : *held) {
      if (contains(out_axes, h.source.name)) continue;
      if (h.whole()) {
        whole.push_back(h.source.name);
        continue;
      }
      HeldReduction r{h.source.name, h.stride, h.axis.size};
      auto same = std::find_if(out.begin(), out.end(),
                               [&](const HeldReduction& x) { return x.axis == r.axis; });
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

std::optional<std::string> oracle_not_applicable(const ir::TensorType& output,
                                                 const std::vector<const ir::TensorType*>& operands,
                                                 const ir::AxisTable& table) {
  // The output is read back over what it holds (held_readback.h); the einsum describes a tile
  // (the first r coordinates of an axis), not a strided part (per-slice partial sums).
  auto out = held_axes(output, tensor_axes(output, table));
  if (!out) return fmt::format("oracle not applicable: {}", out.diagnostics().front().message);
  for (const auto& h : *out)
    if (h.stride != 1)
      return fmt::format("oracle not applicable: the output {} holds every {}-th coordinate of "
                         "{} (a partial result per block), which no einsum of the inputs gives",
                         ir::to_string(output), h.stride, h.source.name);
  auto held = held_reductions(output, operands, table);
  if (!held) return fmt::format("oracle not applicable: {}", held.diagnostics().front().message);
  return std::nullopt;
}

} // namespace tujit::runtime

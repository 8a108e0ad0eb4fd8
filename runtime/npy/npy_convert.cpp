#include "runtime/npy/npy_convert.h"

#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f4e2m1.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"
#include "runtime/tensor/float_round.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <optional>

namespace tujit::runtime {

namespace {

std::uint64_t load_le(const std::uint8_t* p, std::uint32_t n) {
  std::uint64_t v = 0;
  for (std::uint32_t k = 0; k < n; ++k) v |= std::uint64_t{p[k]} << (8 * k);
  return v;
}

std::int64_t load_integer(NpyDtype d, const std::uint8_t* p) {
  switch (d) {
  case NpyDtype::I1:
    return static_cast<std::int8_t>(p[0]);
  case NpyDtype::U1:
    return p[0];
  case NpyDtype::I2:
    return static_cast<std::int16_t>(load_le(p, 2));
  case NpyDtype::U2:
    return static_cast<std::int64_t>(load_le(p, 2));
  case NpyDtype::I4:
    return static_cast<std::int32_t>(load_le(p, 4));
  case NpyDtype::I8:
    return static_cast<std::int64_t>(load_le(p, 8));
  default:
    return 0;
  }
}

double load_float(NpyDtype d, const std::uint8_t* p) {
  if (d == NpyDtype::F4)
    return static_cast<double>(f32_from_bits(static_cast<std::uint32_t>(load_le(p, 4))));
  double v;
  std::uint64_t raw = load_le(p, 8);
  std::memcpy(&v, &raw, sizeof v);
  return v;
}

bool is_float_npy(NpyDtype d) {
  return d == NpyDtype::F4 || d == NpyDtype::F8;
}

// The .npy dtype an output of type `t` is written as: integers in the smallest signed width that
// holds their values, u8 as u1, f32 as f4, bf16, f8 and f4e2m1 as f4 (or their raw codes as u2 /
// u1).
NpyDtype npy_dtype_of(ir::ScalarType t, const NpyConvertOptions& opt) {
  switch (ir::encoding(t)) {
  case ir::Encoding::TwosComplement: {
    const std::uint32_t bits = *ir::integer_value_bits(t);
    return bits <= 8 ? NpyDtype::I1 : bits <= 16 ? NpyDtype::I2 : NpyDtype::I4;
  }
  case ir::Encoding::Unsigned:
    return NpyDtype::U1;
  case ir::Encoding::Bf16:
    return opt.raw_bits ? NpyDtype::U2 : NpyDtype::F4;
  case ir::Encoding::F8E4M3:
  case ir::Encoding::F8E5M2:
  case ir::Encoding::F4E2M1:
    return opt.raw_bits ? NpyDtype::U1 : NpyDtype::F4;
  case ir::Encoding::F32:
    return NpyDtype::F4;
  }
  return NpyDtype::F4;
}

/// FloatInputRounding::Device: the value rounded to f32 (exact for <f4 data), then the chip's
/// converter from the scalar reference (bf16.h narrow_bf16, f8.h enc_e4m3 / enc_e5m2).
std::uint32_t device_rounding(ir::ScalarType t, double v) {
  const std::uint32_t x = round_double_to(ir::ScalarType::F32, v).bits;
  switch (ir::encoding(t)) {
  case ir::Encoding::Bf16:
    return narrow_bf16(x);
  case ir::Encoding::F8E4M3:
    return enc_e4m3(x);
  case ir::Encoding::F8E5M2:
    return enc_e5m2(x);
  case ir::Encoding::TwosComplement:
  case ir::Encoding::Unsigned:
  case ir::Encoding::F4E2M1:
  case ir::Encoding::F32:
    break;
  }
  return x;
}

/// The .npy dtype a float type's raw codes are read from (<u2 bf16, |u1 f8, <f4 f32 bit for bit);
/// none for the others.
std::optional<NpyDtype> raw_code_dtype(ir::ScalarType t) {
  switch (ir::encoding(t)) {
  case ir::Encoding::Bf16:
    return NpyDtype::U2;
  case ir::Encoding::F8E4M3:
  case ir::Encoding::F8E5M2:
    return NpyDtype::U1;
  case ir::Encoding::F32:
    return NpyDtype::F4;
  case ir::Encoding::TwosComplement:
  case ir::Encoding::Unsigned:
  case ir::Encoding::F4E2M1:
    break;
  }
  return std::nullopt;
}

/// A 4-bit array packed two per byte (|u1, the last dimension halved, rounded up): the shape it
/// has, or nullopt for a scalar.
std::optional<std::vector<std::uint64_t>> packed_nibble_shape(std::vector<std::uint64_t> shape) {
  if (shape.empty()) return std::nullopt;
  shape.back() = (shape.back() + 1) / 2;
  return shape;
}

/// The 4-bit parameter types (docs/scalars.md §2), which may be given packed.
bool is_packed_input_type(ir::ScalarType t) {
  return t == ir::ScalarType::I4 || t == ir::ScalarType::F4E2M1;
}

/// i4 or f4e2m1 given as the device's packed bytes: |u1, last dimension halved (rounded up), the
/// even-indexed element in the low nibble. An i4 nibble is sign-extended, an f4e2m1 nibble is its
/// code.
void read_packed_nibbles(const NpyArray& a, LogicalTensor& t) {
  const std::uint64_t row = t.shape().back(), row_bytes = a.shape.back();
  const bool sign_extend = t.dtype == ir::ScalarType::I4;
  for (std::uint64_t k = 0; k < t.elements(); ++k) {
    const std::uint8_t byte = a.data[(k / row) * row_bytes + (k % row) / 2];
    const std::uint32_t nibble = (k % row) % 2 == 0 ? byte & 0xFu : byte >> 4;
    t.set(k, sign_extend ? static_cast<std::uint32_t>(static_cast<std::int32_t>(nibble << 28) >> 28)
                         : nibble);
  }
}

/// The f4e2m1 code whose value is exactly `v` (bit for bit in f32, so −0 is code 8), if any.
std::optional<std::uint32_t> e2m1_code_of(double v) {
  const auto f = static_cast<float>(v);
  if (static_cast<double>(f) != v && !std::isnan(v)) return std::nullopt; // not even an f32
  const std::uint32_t bits = f32_bits(f);
  for (std::uint32_t code = 0; code < kE2M1ToF32.size(); ++code)
    if (kE2M1ToF32[code] == bits) return code;
  return std::nullopt;
}

/// f4e2m1 given per element (docs/cli.md §6.1): |u1 codes 0…15, or <f4 / <f8 values each exactly
/// one of the sixteen (a host value is not rounded to this 16-value set).
Status read_e2m1(const NpyArray& a, std::string_view name, LogicalTensor& t) {
  const std::uint32_t w = npy_item_bytes(a.dtype);
  for (std::uint64_t k = 0; k < t.elements(); ++k) {
    const std::uint8_t* p = a.data.data() + k * w;
    if (a.dtype == NpyDtype::U1) {
      if (p[0] > 0xF)
        return make_error("E-NPY-004",
                          fmt::format("input {}: element {} is {}, not an f4e2m1 code (0 … 15)",
                                      name, t.coordinate_text(k), p[0]));
      t.set(k, p[0]);
      continue;
    }
    const double v = load_float(a.dtype, p);
    const auto code = e2m1_code_of(v);
    if (!code)
      return make_error("E-NPY-004",
                        fmt::format("input {}: element {} is {}, which is not an f4e2m1 value "
                                    "(0, ±0.5, ±1, ±1.5, ±2, ±3, ±4, ±6)",
                                    name, t.coordinate_text(k), v));
    t.set(k, *code);
  }
  return {};
}

/// Integer values, each within the parameter type's range (E-NPY-004 otherwise).
Status read_integers(const NpyArray& a, std::string_view name, LogicalTensor& t) {
  const std::uint32_t w = npy_item_bytes(a.dtype);
  const auto range = *ir::integer_range(t.dtype);
  for (std::uint64_t k = 0; k < t.elements(); ++k) {
    std::int64_t v = load_integer(a.dtype, a.data.data() + k * w);
    if (v < range.first || v > range.second)
      return make_error("E-NPY-004",
                        fmt::format("input {}: element {} is {}, outside the {} range [{}, {}]",
                                    name, t.coordinate_text(k), v, ir::name(t.dtype), range.first,
                                    range.second));
    t.set(k, static_cast<std::uint32_t>(v)); // sign-extended container (u8: 0..255)
  }
  return {};
}

/// Float values rounded to the parameter type (docs/cli.md §6.1 --float-input-rounding): to
/// nearest, refusing what the type cannot hold (E-NPY-004), or as the device rounds.
Status read_floats(const NpyArray& a, std::string_view name, const NpyConvertOptions& opt,
                   LogicalTensor& t) {
  const std::uint32_t w = npy_item_bytes(a.dtype);
  const ir::ScalarType dtype = t.dtype;
  for (std::uint64_t k = 0; k < t.elements(); ++k) {
    const double v = load_float(a.dtype, a.data.data() + k * w);
    if (opt.rounding == FloatInputRounding::Device) {
      t.set(k, device_rounding(dtype, v));
      continue;
    }
    FloatRounding r = round_double_to(dtype, v);
    if (r.status == FloatRounding::Status::Overflow)
      return make_error("E-NPY-004",
                        fmt::format("input {}: element {} is {}, beyond the largest finite {} "
                                    "({})",
                                    name, t.coordinate_text(k), v, ir::name(dtype),
                                    max_finite(dtype)));
    if (r.status == FloatRounding::Status::NotRepresentable)
      return make_error("E-NPY-004",
                        fmt::format("input {}: element {} is {}, which {} cannot represent (it "
                                    "has no infinity)",
                                    name, t.coordinate_text(k), v, ir::name(dtype)));
    t.set(k, r.bits);
  }
  return {};
}

} // namespace

Result<LogicalTensor> tensor_from_npy(const NpyArray& a, ir::ScalarType dtype,
                                      std::vector<ir::Axis> axes, std::string_view name,
                                      const NpyConvertOptions& opt) {
  auto made = make_logical_tensor(dtype, std::move(axes));
  if (!made) return std::move(made).take_diagnostics();
  LogicalTensor t = std::move(made).value();
  if (is_packed_input_type(dtype) && a.dtype == NpyDtype::U1 && a.shape != t.shape() &&
      packed_nibble_shape(t.shape()) == a.shape) {
    read_packed_nibbles(a, t);
    return t;
  }
  if (a.shape != t.shape()) {
    std::string axes_note = "the parameter is a scalar (shape [])";
    if (!t.axes.empty()) {
      axes_note = "the logical tensor's axes, in `axes!` declaration order: ";
      for (std::size_t k = 0; k < t.axes.size(); ++k)
        axes_note += fmt::format("{}{}={}", k ? ", " : "", t.axes[k].name, t.axes[k].size);
    }
    return make_error("E-NPY-002",
                      fmt::format("input {}: the .npy array has shape {}, the parameter needs {}",
                                  name, shape_text(a.shape), shape_text(t.shape())),
                      std::nullopt, {axes_note});
  }
  auto bad_dtype = [&](std::string_view expected) {
    return make_error("E-NPY-003",
                      fmt::format("input {}: a {} parameter cannot be read from {} data", name,
                                  ir::name(dtype), npy_descr(a.dtype)),
                      std::nullopt, {fmt::format("expected {}", expected)});
  };
  if (dtype == ir::ScalarType::F4E2M1) {
    if (a.dtype != NpyDtype::U1 && !is_float_npy(a.dtype))
      return bad_dtype("|u1 codes (or two per byte, the last dimension halved), or <f4 / <f8 "
                       "values of f4e2m1");
    if (auto r = read_e2m1(a, name, t); !r) return std::move(r).take_diagnostics();
    return t;
  }
  if (ir::is_integer(dtype)) {
    if (is_float_npy(a.dtype)) return bad_dtype("|i1 <i2 <i4 <i8 |u1 <u2 (integers)");
    if (auto r = read_integers(a, name, t); !r) return std::move(r).take_diagnostics();
    return t;
  }
  // Raw codes: bf16 as <u2, f8 as |u1, f32 as <f4 (bit for bit).
  const std::optional<NpyDtype> raw = raw_code_dtype(dtype);
  if (raw && a.dtype == *raw) {
    const std::uint32_t w = npy_item_bytes(a.dtype);
    for (std::uint64_t k = 0; k < t.elements(); ++k)
      t.set(k, static_cast<std::uint32_t>(load_le(a.data.data() + k * w, w)));
    return t;
  }
  if (!is_float_npy(a.dtype))
    return bad_dtype(raw == NpyDtype::U2   ? "<f4 or <f8 values, or <u2 bf16 codes"
                     : raw == NpyDtype::U1 ? "<f4 or <f8 values, or |u1 codes"
                                           : "<f4 or <f8");
  if (auto r = read_floats(a, name, opt, t); !r) return std::move(r).take_diagnostics();
  return t;
}

NpyArray npy_from_tensor(const LogicalTensor& t, const NpyConvertOptions& opt) {
  NpyArray a;
  a.shape = t.shape();
  auto put = [&](std::uint64_t v, std::uint32_t n) {
    for (std::uint32_t k = 0; k < n; ++k) a.data.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
  };
  a.dtype = npy_dtype_of(t.dtype, opt);
  const std::uint32_t w = npy_item_bytes(a.dtype);
  a.data.reserve(t.elements() * w);
  for (std::uint64_t k = 0; k < t.elements(); ++k) {
    const std::uint32_t b = t.get(k);
    if (a.dtype == NpyDtype::F4 && t.dtype != ir::ScalarType::F32)
      put(f32_bits(static_cast<float>(element_value(t.dtype, b))), 4); // exact: f8/bf16 ⊂ f32
    else
      put(b, w); // container bits: sign-extended integers truncate to their width
  }
  return a;
}

} // namespace tujit::runtime

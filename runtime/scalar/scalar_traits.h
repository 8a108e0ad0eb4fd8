// Per-ScalarType host representation (spec/scalars.md §1, §2, §5.4): the host container, the
// widths, and the hardware widening to / narrowing from the accumulator. One traits template so
// the interpreter (and tests) can be written once over all types; every conversion it names is
// a pure raw-bit function of this folder that the code generator reproduces.
#pragma once

#include "ir/types/scalar_type.h"
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f4e2m1.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"
#include "runtime/scalar/integer.h"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace tujit::runtime {

using ir::ScalarType;

// Float encodings are held as their raw bits: host code never does arithmetic on them directly.
struct Bf16 {
  std::uint16_t bits = 0;
  friend bool operator==(const Bf16&, const Bf16&) = default; // bit equality
};
struct F8E4M3 {
  std::uint8_t bits = 0;
  friend bool operator==(const F8E4M3&, const F8E4M3&) = default;
};
struct F8E5M2 {
  std::uint8_t bits = 0;
  friend bool operator==(const F8E5M2&, const F8E5M2&) = default;
};
/// The code is the low nibble; the constructor discards the high one (§1).
struct F4E2M1 {
  std::uint8_t code = 0;
  static constexpr F4E2M1 from_bits(std::uint8_t b) { return F4E2M1{e2m1_code(b)}; }
  friend bool operator==(const F4E2M1&, const F4E2M1&) = default; // code equality
};

/// Common part: the ScalarType and its widths, from ir/ (one source of truth).
template <ScalarType T>
struct ScalarTraitsBase {
  static constexpr ScalarType type = T;
  static constexpr std::uint32_t wire_bits = ir::wire_bits(T);
  static constexpr std::uint32_t staging_bits = ir::host_staging_bits(T);
};

/// Signed integers: the host holds the sign-extended value; widening to the i32 accumulator is
/// sign extension, narrowing is Wrap(k) (§4.6). `Raw` is the little-endian image word, void for
/// types without a byte image (4-bit packed ones and the staging types).
template <ScalarType T, class H, class R>
struct IntegerTraits : ScalarTraitsBase<T> {
  using Host = H;
  using Raw = R;
  using Accumulator = std::int32_t;
  static constexpr unsigned value_bits = *ir::integer_value_bits(T);
  static constexpr Accumulator widen(Host v) { return static_cast<Accumulator>(v); }
  static constexpr Host narrow(Accumulator v) { return static_cast<Host>(wrap(v, value_bits)); }
};

template <ScalarType T>
struct ScalarTraits;

template <>
struct ScalarTraits<ScalarType::I4> : IntegerTraits<ScalarType::I4, std::int8_t, void> {};
template <>
struct ScalarTraits<ScalarType::I5> : IntegerTraits<ScalarType::I5, std::int8_t, void> {};
template <>
struct ScalarTraits<ScalarType::I8> : IntegerTraits<ScalarType::I8, std::int8_t, std::uint8_t> {};
template <>
struct ScalarTraits<ScalarType::I9> : IntegerTraits<ScalarType::I9, std::int16_t, void> {};
template <>
struct ScalarTraits<ScalarType::I16> : IntegerTraits<ScalarType::I16, std::int16_t, std::uint16_t> {
};
template <>
struct ScalarTraits<ScalarType::I32> : IntegerTraits<ScalarType::I32, std::int32_t, std::uint32_t> {
};

/// u8 has no conversion but identity (§3.1): no accumulator.
template <>
struct ScalarTraits<ScalarType::U8> : ScalarTraitsBase<ScalarType::U8> {
  using Host = std::uint8_t;
  using Raw = std::uint8_t;
};

template <>
struct ScalarTraits<ScalarType::F32> : ScalarTraitsBase<ScalarType::F32> {
  using Host = float;
  using Raw = std::uint32_t;
  using Accumulator = float;
  static constexpr Accumulator widen(Host v) { return v; }
  static constexpr Host narrow(Accumulator v) { return v; }
};

/// bf16: hardware widening (Fetch cast, Multiplier) and hardware narrowing (Cast Engine, Commit).
template <>
struct ScalarTraits<ScalarType::BF16> : ScalarTraitsBase<ScalarType::BF16> {
  using Host = Bf16;
  using Raw = std::uint16_t;
  using Accumulator = float;
  static constexpr Accumulator widen(Host v) { return f32_from_bits(widen_bf16(v.bits)); }
  static constexpr Host narrow(Accumulator v) { return Bf16{narrow_bf16(f32_bits(v))}; }
};

template <>
struct ScalarTraits<ScalarType::F8E4M3> : ScalarTraitsBase<ScalarType::F8E4M3> {
  using Host = F8E4M3;
  using Raw = std::uint8_t;
  using Accumulator = float;
  static constexpr Accumulator widen(Host v) { return f32_from_bits(dec_e4m3(v.bits)); }
  static constexpr Host narrow(Accumulator v) { return F8E4M3{enc_e4m3(f32_bits(v))}; }
};

template <>
struct ScalarTraits<ScalarType::F8E5M2> : ScalarTraitsBase<ScalarType::F8E5M2> {
  using Host = F8E5M2;
  using Raw = std::uint8_t;
  using Accumulator = float;
  static constexpr Accumulator widen(Host v) { return f32_from_bits(dec_e5m2(v.bits)); }
  static constexpr Host narrow(Accumulator v) { return F8E5M2{enc_e5m2(f32_bits(v))}; }
};

/// f4e2m1 is never a Multiplier operand; decode/encode are host-side (§3.5). No accumulator.
template <>
struct ScalarTraits<ScalarType::F4E2M1> : ScalarTraitsBase<ScalarType::F4E2M1> {
  using Host = F4E2M1;
  using Raw = void;
  static constexpr float to_f32(Host v) { return f32_from_bits(dec_e2m1(v.code)); }
  static Host from_f32(float v) { return F4E2M1{enc_e2m1_host(f32_bits(v))}; }
};

/// Raw little-endian word of a byte-addressable host value (the element's byte image).
template <ScalarType T>
constexpr typename ScalarTraits<T>::Raw to_raw(typename ScalarTraits<T>::Host v) {
  using Traits = ScalarTraits<T>;
  static_assert(!std::is_void_v<typename Traits::Raw>, "type has no byte image");
  if constexpr (std::is_same_v<typename Traits::Host, float>)
    return f32_bits(v);
  else if constexpr (std::is_class_v<typename Traits::Host>)
    return v.bits;
  else
    return static_cast<typename Traits::Raw>(v);
}

template <ScalarType T>
constexpr typename ScalarTraits<T>::Host from_raw(typename ScalarTraits<T>::Raw r) {
  using Traits = ScalarTraits<T>;
  if constexpr (std::is_same_v<typename Traits::Host, float>)
    return f32_from_bits(r);
  else if constexpr (std::is_class_v<typename Traits::Host>)
    return typename Traits::Host{r};
  else
    return static_cast<typename Traits::Host>(r);
}

/// Calls f(std::integral_constant<ScalarType, T>{}) for the runtime type t, so that code written
/// once over ScalarTraits<T> can be dispatched from a run-time ScalarType.
template <class F>
constexpr decltype(auto) visit_scalar_type(ScalarType t, F&& f) {
  switch (t) {
  case ScalarType::I4:
    return std::forward<F>(f)(std::integral_constant<ScalarType, ScalarType::I4>{});
  case ScalarType::I5:
    return std::forward<F>(f)(std::integral_constant<ScalarType, ScalarType::I5>{});
  case ScalarType::I8:
    return std::forward<F>(f)(std::integral_constant<ScalarType, ScalarType::I8>{});
  case ScalarType::I9:
    return std::forward<F>(f)(std::integral_constant<ScalarType, ScalarType::I9>{});
  case ScalarType::I16:
    return std::forward<F>(f)(std::integral_constant<ScalarType, ScalarType::I16>{});
  case ScalarType::I32:
    return std::forward<F>(f)(std::integral_constant<ScalarType, ScalarType::I32>{});
  case ScalarType::U8:
    return std::forward<F>(f)(std::integral_constant<ScalarType, ScalarType::U8>{});
  case ScalarType::BF16:
    return std::forward<F>(f)(std::integral_constant<ScalarType, ScalarType::BF16>{});
  case ScalarType::F8E4M3:
    return std::forward<F>(f)(std::integral_constant<ScalarType, ScalarType::F8E4M3>{});
  case ScalarType::F8E5M2:
    return std::forward<F>(f)(std::integral_constant<ScalarType, ScalarType::F8E5M2>{});
  case ScalarType::F32:
    return std::forward<F>(f)(std::integral_constant<ScalarType, ScalarType::F32>{});
  case ScalarType::F4E2M1:
    break;
  }
  return std::forward<F>(f)(std::integral_constant<ScalarType, ScalarType::F4E2M1>{});
}

} // namespace tujit::runtime

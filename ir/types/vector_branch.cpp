#include "ir/types/vector_branch.h"

#include "ir/types/name_table.h"

#include <fmt/format.h>

#include <utility>

namespace tujit::ir {

namespace {

constexpr std::array<std::pair<CmpKind, std::string_view>, 7> kCmp{{
    {CmpKind::Equal, "Equal"},
    {CmpKind::Less, "Less"},
    {CmpKind::Greater, "Greater"},
    {CmpKind::LessUnsigned, "LessUnsigned"},
    {CmpKind::GreaterUnsigned, "GreaterUnsigned"},
    {CmpKind::True, "True"},
    {CmpKind::False, "False"},
}};
constexpr std::array<std::pair<BitReq, std::string_view>, 3> kBitReq{{
    {BitReq::Ignore, "Ignore"},
    {BitReq::Zero, "Zero"},
    {BitReq::One, "One"},
}};
constexpr std::array<std::pair<TernaryArgMode, std::string_view>, 7> kTernaryMode{{
    {TernaryArgMode::Mode012, "Mode012"},
    {TernaryArgMode::Mode002, "Mode002"},
    {TernaryArgMode::Mode102, "Mode102"},
    {TernaryArgMode::Mode112, "Mode112"},
    {TernaryArgMode::Mode020, "Mode020"},
    {TernaryArgMode::Mode021, "Mode021"},
    {TernaryArgMode::Mode120, "Mode120"},
}};

} // namespace

std::string_view to_string(CmpKind k) {
  return name_of(kCmp, k);
}
std::optional<CmpKind> parse_cmp_kind(std::string_view v) {
  return find_name(kCmp, v);
}
bool has_boundary(CmpKind k) {
  return k != CmpKind::True && k != CmpKind::False;
}

std::string_view to_string(BitReq r) {
  return name_of(kBitReq, r);
}
std::optional<BitReq> parse_bit_req(std::string_view v) {
  return find_name(kBitReq, v);
}

std::uint32_t TagGuard::mask() const {
  std::uint32_t m = 0;
  for (unsigned i = 0; i < kTagBits; ++i)
    if (bits[i] != BitReq::Ignore) m |= 1u << i;
  return m;
}

std::uint32_t TagGuard::want() const {
  std::uint32_t w = 0;
  for (unsigned i = 0; i < kTagBits; ++i)
    if (bits[i] == BitReq::One) w |= 1u << i;
  return w;
}

bool TagGuard::unconditional() const {
  return mask() == 0 && !negate;
}

bool TagGuard::matches_nothing() const {
  return mask() == 0 && negate;
}

bool TagGuard::admits(std::uint32_t tag) const {
  return ((tag & mask()) == want()) != negate;
}

std::string TagGuard::describe() const {
  if (unconditional()) return "TagGuard::all()";
  return fmt::format("TagGuard::{}([{}, {}, {}, {}])", negate ? "not_matches" : "matches",
                     to_string(bits[0]), to_string(bits[1]), to_string(bits[2]),
                     to_string(bits[3]));
}

std::string_view to_string(TernaryArgMode m) {
  return name_of(kTernaryMode, m);
}
std::optional<TernaryArgMode> parse_ternary_arg_mode(std::string_view v) {
  return find_name(kTernaryMode, v);
}

std::array<std::uint8_t, 3> ternary_positions(TernaryArgMode m) {
  // The mode's name spells the three positions.
  const std::string_view n = to_string(m);
  return {static_cast<std::uint8_t>(n[4] - '0'), static_cast<std::uint8_t>(n[5] - '0'),
          static_cast<std::uint8_t>(n[6] - '0')};
}

} // namespace tujit::ir

// The Vector Engine's tags, guards and branched operands (the book's
// furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-chain.md "Tag"; the reference's
// furiosa-opt-std/src/engine/vector/branch.rs and furiosa-opt-common-ir TagGuard /
// BranchedOperand): the Tag stage gives every element a 4-bit tag, bit i set where comparison i
// holds; a later binary or ternary op may then condition its operand on the tag through up to
// three immediate slots and one register-file slot, each gated by a TagGuard. An element takes the
// first slot (in call order) whose guard it satisfies and passes through unchanged when none does.
// docs/vector-engine.md §3.4 states the semantics and the rules.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::ir {

/// `Cmp<D>`: what sets one tag bit. The boundary is the stream's scalar (its 32 bits); the
/// `*Unsigned` pair compares the raw bit patterns as unsigned integers.
enum class CmpKind : std::uint8_t {
  Equal,
  Less,
  Greater,
  LessUnsigned,
  GreaterUnsigned,
  True,
  False,
};
std::string_view to_string(CmpKind k);
std::optional<CmpKind> parse_cmp_kind(std::string_view variant);
/// Whether the variant carries a boundary (`True` / `False` do not).
bool has_boundary(CmpKind k);

struct VeCmp {
  CmpKind kind = CmpKind::False;
  std::uint32_t boundary = 0; // the stream scalar's bits
};

/// `TagMode::Comparison([cmp0, cmp1, cmp2, cmp3])`: comparison i sets tag bit i (LSB first).
using TagComparisons = std::array<VeCmp, 4>;

/// `BitReq`: what a guard asks of one tag bit.
enum class BitReq : std::uint8_t { Ignore, Zero, One };
std::string_view to_string(BitReq r);
std::optional<BitReq> parse_bit_req(std::string_view variant);

/// Tags are 4 bits; bit 3 doubles as the pair-mode GroupId.
inline constexpr unsigned kTagBits = 4;
/// Immediate slots a pass has (plus one register-file slot).
inline constexpr std::size_t kImmSlots = 3;

/// `TagGuard`: `matches(bits)` admits a tag whose constrained bits have the required values,
/// `not_matches(bits)` the others; `all()` is `matches([Ignore; 4])`.
struct TagGuard {
  std::array<BitReq, kTagBits> bits{}; // LSB first: bits[i] constrains tag bit i
  bool negate = false;

  /// The tag bits the guard constrains, and the values it wants there.
  std::uint32_t mask() const;
  std::uint32_t want() const;
  /// Admits every tag (the slot is the pass's `else`).
  bool unconditional() const;
  /// Admits no tag (`not_matches([Ignore; 4])`).
  bool matches_nothing() const;
  bool admits(std::uint32_t tag) const;
  /// As the kernel writes it: `TagGuard::matches([One, Ignore, Ignore, Ignore])`.
  std::string describe() const;
  friend bool operator==(const TagGuard&, const TagGuard&) = default;
};

/// One immediate slot: its guard and the constant it feeds (operand0; a ternary op also operand1).
struct VeSlot {
  TagGuard guard;
  std::array<std::uint32_t, 2> operand{};
};

/// A `Branched` operand: immediate slots in match priority, then the register-file slot (a VRF
/// tensor or the stash, VectorCall::source; a ternary op's rf slot carries its own operand1).
struct VeBranches {
  std::vector<VeSlot> imm; // at most kImmSlots
  bool rf = false;
  TagGuard rf_guard;
  std::uint32_t rf_operand1 = 0;
};

/// `TernaryArgMode`: ModeXYZ computes op(argX, argY, argZ), 0 = the stream, 1 = operand0,
/// 2 = operand1 (the reference's op/arg_mode.rs).
enum class TernaryArgMode : std::uint8_t {
  Mode012,
  Mode002,
  Mode102,
  Mode112,
  Mode020,
  Mode021,
  Mode120,
};
std::string_view to_string(TernaryArgMode m);
std::optional<TernaryArgMode> parse_ternary_arg_mode(std::string_view variant);
/// The argument each of the op's three positions reads (0 stream, 1 operand0, 2 operand1).
std::array<std::uint8_t, 3> ternary_positions(TernaryArgMode m);

} // namespace tujit::ir

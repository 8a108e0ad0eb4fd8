// Time Reducer verifier (`contract_time`, docs/contraction.md §7, docs/mapping.md §7.5): the
// declared OutTime T2 keeps a subset of the factors of the pre-reduce time OT, in the same order
// and with the same padding; the other factors are summed. Derives InnerTime (the accumulator slots
// a slot group keeps open) for the Lane Folder's buffer check.
#pragma once

#include "ir/mapping/divide.h"
#include "ir/mapping/factor.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/stage_check.h"

#include <cstdint>
#include <vector>

namespace tujit::ir::verify {

/// What `contract_time::<T2>()` reads.
struct ContractTimeInput {
  Mapping ot; // OT: the time entering the Time Reducer (the Outer stage's OutTime)
  Mapping t2; // T2: the declared OutTime
};

/// Derived parameters of the Time Reducer (docs/contraction.md §7).
struct ContractTimeDerived {
  /// divide_exact(OT, T2): the retained digits, outermost first in OT (dividend_stride
  /// descending), with their strides in OT (dividend) and in T2 (divisor).
  std::vector<DivideTerm> terms;
  /// The digits of OT that are summed (unmatched by the division), innermost first; `stride` is
  /// the stride in the refined OT.
  std::vector<UnmatchedDigit> reduced;
  /// The reduced digits as one compacted mapping (docs/mapping.md §7.4 remainder); the identity
  /// when nothing is reduced. Absent when the remainder is not expressible (a reduced digit inside
  /// a padded group).
  std::optional<FactorList> reduced_mapping;
  std::uint64_t inner_time = 1;   // InnerTime: T2 positions inside the outermost reduced factor
  std::uint64_t slots_needed = 1; // = InnerTime; one slot = one [Lane, P2] chunk

  /// Keys: inner_time, slots_needed, retained (text), reduced (text), reduced_mapping (mapping,
  /// when present).
  DerivedTable to_table() const;
};

/// Runs the rules of docs/contraction.md §7 in order (first failure wins). Codes:
/// E-TIME-001 Indivisible, -002 OrderNotPreserved, -003 LeadingPadding, -004 PaddingNotPreserved.
Result<ContractTimeDerived> verify_contract_time(const ContractTimeInput& in);

/// InnerTime by the rule of docs/contraction.md §7 on a division of the pre-reduce time by the
/// reduced time: let R be the outermost reduced digit (unmatched digit of the refined dividend);
/// the retained digits inner to R are the innermost digits of OutTime, so InnerTime is the OutTime
/// stride of the innermost retained digit outside R, or |OutTime| when none is outside R; 1 when
/// nothing is reduced. Equals the reference's divide-stride walk (ir::inner_time_from_division)
/// whenever a retained term sits at an axis boundary; when every retained digit is a piece of an
/// axis cut by the division the walk has no boundary and answers 1, while slots stay open across
/// R (e.g. OT = [B, A], T2 = [A / 2]: 4 slots, walk 1), so this rule is the one used.
std::uint64_t inner_time_from_reduced(const Division& division, std::uint64_t out_time_size);

/// InnerTime of a pre-reduce time and its reduced time (shared with the Lane Folder). Fails with
/// the division's diagnostics when `out_time` does not divide `time`.
Result<std::uint64_t> inner_time_of(const Mapping& time, const Mapping& out_time);

} // namespace tujit::ir::verify

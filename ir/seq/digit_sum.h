// An address stream of the packet cycles as the hardware's sequencers form it: a sum of digit
// terms ((t / divisor) mod modulus) · stride of the cycle index t (docs/contraction.md §5.1 the
// Stream Adapter's repeated packets, §5.2 the TRF Sequencer's loops, §7 the Time Reducer's retained
// digits). Lowering evaluates one at the counters' boundaries and proves its loop nest against it
// on every live cycle; DigitWalker steps it cycle by cycle without a division.
#pragma once

#include <cstdint>
#include <vector>

namespace tujit::ir::seq {

struct DigitSum {
  struct Term {
    std::uint64_t divisor = 1; // >= 1
    std::uint64_t modulus = 0; // 0: no modulo (the digit grows with t)
    std::uint64_t stride = 0;
  };
  std::vector<Term> terms;

  /// The address of cycle t (modulo 2^64, as every address stream is kept).
  std::uint64_t operator()(std::uint64_t t) const {
    std::uint64_t a = 0;
    for (const Term& term : terms) {
      const std::uint64_t d = t / term.divisor;
      a += (term.modulus == 0 ? d : d % term.modulus) * term.stride;
    }
    return a;
  }
};

/// The addresses of t = 0, 1, 2, … in order: each term keeps t mod divisor and its digit.
class DigitWalker {
public:
  explicit DigitWalker(const DigitSum& sum) : sum_(&sum), state_(sum.terms.size()) {}
  std::uint64_t value() const { return value_; }
  void advance() {
    for (std::size_t k = 0; k < state_.size(); ++k) {
      const DigitSum::Term& term = sum_->terms[k];
      State& s = state_[k];
      if (++s.rest < term.divisor) continue;
      s.rest = 0;
      value_ += term.stride;
      if (term.modulus != 0 && ++s.digit == term.modulus) {
        s.digit = 0;
        value_ -= term.modulus * term.stride;
      }
    }
  }

private:
  struct State {
    std::uint64_t rest = 0, digit = 0;
  };
  const DigitSum* sum_;
  std::vector<State> state_;
  std::uint64_t value_ = 0;
};

} // namespace tujit::ir::seq

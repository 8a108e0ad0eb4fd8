// Time Reducer verifier (docs/contraction.md §7; division rules of docs/mapping.md §7.5).
#include "ir/verify/contract_time.h"

#include "ir/support/stable_sort.h"

#include <algorithm>
#include <fmt/format.h>

namespace tujit::ir::verify {

namespace {

constexpr const char* kStage = "contract_time";

std::string mtext(const Mapping& m) {
  return "m![" + m.to_string() + "]";
}

std::string join_idents(const std::vector<std::string>& ids) {
  if (ids.empty()) return "a broadcast";
  std::string s;
  for (const auto& id : ids) s += (s.empty() ? "" : "+") + id;
  return s;
}

std::string term_text(const DivideTerm& t) {
  return fmt::format("{} ({} values; stride {} in Time, {} in OutTime)", join_idents(t.idents),
                     t.resize, t.dividend_stride, t.divisor_stride);
}

std::string first_message(const Diagnostics& ds) {
  return ds.empty() ? std::string("division failed") : ds.front().message;
}

} // namespace

DerivedTable ContractTimeDerived::to_table() const {
  DerivedTable t;
  t["inner_time"] = inner_time;
  t["slots_needed"] = slots_needed;
  std::string retained;
  for (const auto& term : terms) retained += (retained.empty() ? "" : "; ") + term_text(term);
  t["retained"] = retained.empty() ? std::string("none") : retained;
  std::string red;
  for (auto it = reduced.rbegin(); it != reduced.rend(); ++it)
    red += (red.empty() ? "" : "; ") +
           fmt::format("{} ({} values, stride {})", join_idents(it->idents), it->count, it->stride);
  t["reduced"] = red.empty() ? std::string("none") : red;
  if (reduced_mapping) t["reduced_mapping"] = render(*reduced_mapping);
  return t;
}

std::uint64_t inner_time_from_reduced(const Division& division, std::uint64_t out_time_size) {
  if (division.dividend.unmatched.empty()) return 1; // nothing reduced: every slot is one flit
  std::uint64_t outermost_reduced = 0;
  for (const auto& u : division.dividend.unmatched)
    outermost_reduced = std::max(outermost_reduced, u.stride);
  std::uint64_t inner = out_time_size;
  for (const auto& t : division.terms)
    if (t.dividend_stride > outermost_reduced) inner = std::min(inner, t.divisor_stride);
  return inner;
}

Result<std::uint64_t> inner_time_of(const Mapping& time, const Mapping& out_time) {
  const FactorList d = factorize(time);
  const FactorList v = factorize(out_time);
  Result<std::vector<DivideTerm>> terms = divide_exact(d, v);
  if (!terms) return std::move(terms).take_diagnostics();
  return inner_time_from_reduced(divide_relaxed(d, v), v.size());
}

Result<ContractTimeDerived> verify_contract_time(const ContractTimeInput& in) {
  const FactorList ot = factorize(in.ot);
  const FactorList t2 = factorize(in.t2);

  // Rule 1: every digit of T2 is a digit of OT.
  Result<std::vector<DivideTerm>> div = divide_exact(ot, t2);
  if (!div) {
    return rule_error(
        "E-TIME-001", kStage, "Indivisible",
        fmt::format("OutTime {} must keep only factors of Time {}, but it contains something "
                    "that is not a factor of it: {}",
                    mtext(in.t2), mtext(in.ot), first_message(div.diagnostics())),
        {"the Time Reducer can only drop (sum) factors of Time; it cannot add or re-cut axes"});
  }
  const std::vector<DivideTerm>& terms = *div;

  // Rule 2: retained factors keep their relative order (divisor strides fall as dividend
  // strides fall).
  for (std::size_t i = 0; i + 1 < terms.size(); ++i) {
    if (terms[i].divisor_stride <= terms[i + 1].divisor_stride) {
      return rule_error(
          "E-TIME-002", kStage, "OrderNotPreserved",
          fmt::format("OutTime {} reorders the factors it keeps from Time {}: {} is outside {} "
                      "in Time but not in OutTime",
                      mtext(in.t2), mtext(in.ot), join_idents(terms[i].idents),
                      join_idents(terms[i + 1].idents)),
          {"outer: " + term_text(terms[i]), "inner: " + term_text(terms[i + 1]),
           "list the kept factors of OutTime in the same order as in Time"});
    }
  }

  // Rule 3: walk the retained whole-axis factors in OutTime order; they must tile OutTime edge
  // to edge with their padded extents from Time (pieces of an axis cut by a reduced factor have
  // no boundary and are skipped, docs/mapping.md §10 D-13).
  const auto pps = padding_per_stride(ot);
  struct Boundary {
    const DivideTerm* term;
    std::uint64_t extent;
  };
  std::vector<Boundary> bounds;
  for (const auto& term : terms)
    if (auto e = padded_extent_at(pps, term)) bounds.push_back({&term, *e});
  tujit::stable_sort(bounds, [](const Boundary& a, const Boundary& b) {
    return a.term->divisor_stride < b.term->divisor_stride;
  });
  if (!bounds.empty() && bounds.front().term->divisor_stride != 1) {
    return rule_error(
        "E-TIME-003", kStage, "LeadingPadding",
        fmt::format("OutTime {} has inner padding that Time {} does not have: its innermost kept "
                    "factor {} starts at stride {} instead of 1",
                    mtext(in.t2), mtext(in.ot), join_idents(bounds.front().term->idents),
                    bounds.front().term->divisor_stride),
        {"remove the padding below the innermost kept factor of OutTime"});
  }
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    const std::uint64_t end =
        i + 1 < bounds.size() ? bounds[i + 1].term->divisor_stride : t2.size();
    const std::uint64_t reach = bounds[i].term->divisor_stride * bounds[i].extent;
    if (reach != end) {
      return rule_error(
          "E-TIME-004", kStage, "PaddingNotPreserved",
          fmt::format("OutTime {} does not keep the padding of Time {} around {}: with its padded "
                      "extent {} from Time it ends at stride {}, but the next kept factor (or the "
                      "end of OutTime) is at {}",
                      mtext(in.t2), mtext(in.ot), join_idents(bounds[i].term->idents),
                      bounds[i].extent, reach, end),
          {"a kept factor keeps exactly its padding from Time (`A # n` stays `A # n`), and "
           "OutTime adds none of its own"});
    }
  }

  ContractTimeDerived out;
  out.terms = terms;
  Division full = divide_relaxed(ot, t2);
  for (const auto& u : full.dividend.unmatched) out.reduced.push_back(u);
  if (Result<FactorList> rem = remainder(full.dividend)) out.reduced_mapping = *rem;
  out.inner_time = inner_time_from_reduced(full, t2.size());
  out.slots_needed = out.inner_time;
  return out;
}

} // namespace tujit::ir::verify

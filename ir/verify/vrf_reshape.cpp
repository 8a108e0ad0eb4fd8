#include "ir/verify/vrf_reshape.h"

#include "ir/mapping/factor.h"

#include <fmt/format.h>

#include <cctype>
#include <set>
#include <string>

namespace tujit::ir::verify {

namespace {

constexpr const char* kStage = "reshape";
constexpr Slot kLevels[] = {Slot::Chip, Slot::Cluster, Slot::Slice, Slot::Element};

std::string mtext(const Mapping& m) {
  return "m![" + m.to_string() + "]";
}

std::string lower(Slot s) {
  std::string n(to_string(s));
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return n;
}

void axes_of(const FactorList& l, std::set<std::string>& out) {
  for (const Factor& f : l.factors) {
    if (!f.is_term()) continue;
    if (f.atom.is_composite())
      axes_of(*f.atom.comp, out);
    else
      out.insert(f.atom.name);
  }
}

/// Form 2 on one level: walking both lists innermost first, every factor of `to` equals the next
/// factor of `from`, except that a broadcast of `from` may be covered by a run of `to` factors that
/// are broadcasts or terms of axes `held` does not contain, whose counts multiply to it.
bool names_broadcast(const FactorList& from, const FactorList& to,
                     const std::set<std::string>& held) {
  std::size_t j = 0;
  for (const Factor& f : from.factors) {
    if (j < to.factors.size() && f == to.factors[j]) {
      ++j;
      continue;
    }
    if (!f.is_bcast()) return false;
    std::uint64_t covered = 1;
    while (covered < f.count && j < to.factors.size()) {
      const Factor& g = to.factors[j];
      const bool fresh = g.is_term() && !g.atom.is_composite() && !held.count(g.atom.name);
      if (!fresh && !g.is_bcast()) return false;
      covered *= g.count;
      ++j;
    }
    if (covered != f.count) return false;
  }
  return j == to.factors.size();
}

} // namespace

Result<VrfReshapeDerived> verify_vrf_reshape(const TensorType& from, const TensorType& to) {
  std::set<std::string> held;
  for (Slot s : kLevels) axes_of(factorize(from.mapping(s)), held);
  VrfReshapeDerived out;
  for (Slot s : kLevels) {
    const Mapping& a = from.mapping(s);
    const Mapping& b = to.mapping(s);
    if (a.size() != b.size())
      return rule_error("E-VRF-003", kStage, "ReshapeSize",
                        fmt::format("reshape keeps each level's size, but {} {} has {} cells and "
                                    "the new {} {} has {}",
                                    to_string(s), mtext(a), a.size(), to_string(s), mtext(b),
                                    b.size()),
                        {"a reshape relabels the same slices and elements; it cannot move data "
                         "between levels or change how many cells a level has"});
    const FactorList fa = factorize(a), fb = factorize(b);
    if (fa == fb) {
      out.levels[lower(s)] = std::string(a.to_string() == b.to_string() ? "same" : "regrouped");
      continue;
    }
    if (s != Slot::Element && names_broadcast(fa, fb, held)) {
      out.levels[lower(s)] = std::string("named broadcast");
      continue;
    }
    return rule_error(
        "E-VRF-004", kStage, "ReshapeNotSafe",
        fmt::format("reshape would restate {} {} as {}, but the slices do not hold what the new "
                    "mapping claims",
                    to_string(s), mtext(a), mtext(b)),
        {"reshape moves no data; the two safe forms are regrouping axes (the same mapping "
         "written differently: equal normal forms) and naming a broadcast distribution axis "
         "(`m![256]` → `m![S]` with an axis S the operand does not hold; not in Element) "
         "(furiosa-opt docs/src/computing-tensors/register-files.md)",
         "fix: move data with a store instead (collect → to_vrf), or keep the mapping"});
  }
  return out;
}

} // namespace tujit::ir::verify

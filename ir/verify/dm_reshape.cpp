#include "ir/verify/dm_reshape.h"

#include "ir/mapping/factor.h"

#include <fmt/format.h>

#include <cctype>
#include <string>

namespace tujit::ir::verify {

namespace {

constexpr Slot kLevels[] = {Slot::Chip, Slot::Cluster, Slot::Slice, Slot::Element};

std::string lower(Slot s) {
  std::string n(to_string(s));
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return n;
}

} // namespace

Result<DmReshapeDerived> verify_dm_reshape(const TensorType& from, const TensorType& to) {
  DmReshapeDerived out;
  for (Slot s : kLevels) {
    const Mapping& a = from.mapping(s);
    const Mapping& b = to.mapping(s);
    if (a.size() != b.size())
      return rule_error(
          "E-DM-001", "reshape", "ReshapeSize",
          fmt::format("a DM reshape keeps each level's size, but {} m![{}] has {} cells and the "
                      "new {} m![{}] has {}",
                      to_string(s), a.to_string(), a.size(), to_string(s), b.to_string(), b.size()),
          {"a reshape restates the same DM cells under another mapping: Chip, Cluster, Slice "
           "and Element each keep their size (furiosa-opt-std `DmTensor::reshape`; padding "
           "`# n` counts)",
           "to change how many cells a level has, move the data: a DMA transfer, or a fetch "
           "and a commit"});
    const bool same = a.to_string() == b.to_string();
    out.levels[lower(s)] = std::string(same                           ? "same"
                                       : factorize(a) == factorize(b) ? "regrouped"
                                                                      : "relabelled");
  }
  out.levels["cells"] = from.mapping(Slot::Element).size();
  return out;
}

} // namespace tujit::ir::verify

#include "runtime/tensor/interleave.h"

namespace tujit::runtime {

void interleave_into(LogicalTensor& pair, const std::string& axis, const LogicalTensor& side0,
                     const LogicalTensor& side1) {
  const LogicalTensor* sides[2] = {&side0, &side1};
  for (std::uint64_t i = 0; i < pair.elements(); ++i) {
    ir::Index at = pair.index(i);
    const auto g = at.find(axis);
    const LogicalTensor& side = *sides[g != at.end() && g->second != 0 ? 1 : 0];
    if (g != at.end()) at.erase(g);
    pair.set(i, side.get(side.offset(at)));
  }
}

} // namespace tujit::runtime

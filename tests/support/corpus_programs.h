// The Sequencer IR programs of every corpus kernel that has a contraction chain (the corpus of
// tests/support/spec_corpus.h lowered by ir/seq/lower_contraction.h), in corpus order.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/seq/lower_contraction.h"
#include "tests/support/checked.h"
#include "tests/support/spec_corpus.h"

#include <catch2/catch.hpp>

#include <vector>

namespace tujit::testing {

inline std::vector<ir::seq::ContractionProgram> corpus_programs() {
  std::vector<ir::seq::ContractionProgram> out;
  for (const auto& path : spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& kernel : file->kernels)
      if (auto p = ir::seq::lower_contraction(testing::checked(kernel)))
        out.push_back(std::move(*p));
  }
  return out;
}

} // namespace tujit::testing

// Small helpers shared by the Packet Reducer / Time Reducer / Lane Folder verifier tests
// ("[verify-reduce]"): parse bare mappings over an axes list, and assert on rule failures.
#pragma once

#include "tests/support/mapping_fixture.h"

#include "ir/mapping/mapping.h"
#include "ir/mapping/syntax.h"
#include "ir/support/diagnostic.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <string_view>

namespace tujit::testing::verify_reduce {

using testing::Axes;
using testing::contains;
using testing::expect_rule;
using testing::why;

} // namespace tujit::testing::verify_reduce

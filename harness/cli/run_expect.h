// `tujit run --expect OUT.npy [--rtol R] [--atol A]` (docs/ci.md): the run's output against a
// stored golden array. Without tolerances every cell must hold the same value bit for bit (the
// same bytes when the array has the output's .npy dtype, as `--output` writes it); with them a
// cell passes when |got − expected| ≤ atol + rtol·|expected| (numpy.isclose), NaN matching NaN.
// A failure names how many cells differ and the first ones by their logical coordinates.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "runtime/npy/npy.h"
#include "runtime/tensor/logical_tensor.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tujit::cli {

struct ExpectOptions {
  std::string path;
  std::optional<double> rtol, atol; // neither: bit for bit
  bool exact() const { return !rtol && !atol; }
};

struct CellDifference {
  std::string at; // logical coordinates, "M=3, N=5"
  std::string got, expected;
  double abs_diff = 0; // NaN when one side is NaN or the two are infinities of another sign
};

struct ExpectComparison {
  std::string path;
  bool exact = true;
  double rtol = 0, atol = 0;
  std::uint64_t cells = 0;
  std::uint64_t mismatches = 0;
  double max_abs_diff = 0;           // over cells with finite values on both sides
  std::vector<CellDifference> first; // at most kMaxDifferencesShown, in logical order
  bool ok() const { return mismatches == 0; }
};

inline constexpr std::size_t kMaxDifferencesShown = 8;

/// The golden array of `opt.path`, read before the run: E-IO-001 / E-NPY-001 when the file cannot
/// be read or holds no .npy array (the caller exits 2).
Result<runtime::NpyArray> read_expected(const ExpectOptions& opt);

/// `output` against the golden array `want`; E-EXPECT-002 when the shapes differ.
Result<ExpectComparison> compare_with_expected(const runtime::LogicalTensor& output,
                                               const runtime::NpyArray& want,
                                               const ExpectOptions& opt);

/// E-EXPECT-001 at the kernel's name: the cells that differ.
Diagnostic expect_mismatch(const ExpectComparison& c, const ir::Kernel& kernel);

/// `"expect"` of `tujit run --json`.
nlohmann::ordered_json expect_json(const ExpectComparison& c);
/// One line for the text report: "expect OUT.npy: bit-exact (256 cells)" / "… 3 of 256 cells
/// differ".
std::string expect_text(const ExpectComparison& c);

} // namespace tujit::cli

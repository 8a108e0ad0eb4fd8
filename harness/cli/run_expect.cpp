#include "harness/cli/run_expect.h"

#include "runtime/npy/npy.h"
#include "runtime/npy/npy_convert.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace tujit::cli {

namespace {

/// One element of an .npy array as a number.
struct NpyValue {
  bool is_float = false;
  bool single = false; // an f32 element: shown as the shortest f32 text
  double f = 0;
  std::int64_t i = 0;
  double as_double() const { return is_float ? f : static_cast<double>(i); }
  std::string text() const {
    if (!is_float) return std::to_string(i);
    return single ? fmt::format("{}", static_cast<float>(f)) : fmt::format("{}", f);
  }
};

NpyValue element(const runtime::NpyArray& a, std::uint64_t k) {
  const std::uint8_t* p = a.data.data() + k * runtime::npy_item_bytes(a.dtype);
  auto load = [p]<class T>(T) {
    T v;
    std::memcpy(&v, p, sizeof v); // little-endian host (runtime/npy/npy.h)
    return v;
  };
  NpyValue v;
  switch (a.dtype) {
  case runtime::NpyDtype::F4:
    v.is_float = v.single = true, v.f = load(float{});
    break;
  case runtime::NpyDtype::F8:
    v.is_float = true, v.f = load(double{});
    break;
  case runtime::NpyDtype::I1:
    v.i = load(std::int8_t{});
    break;
  case runtime::NpyDtype::I2:
    v.i = load(std::int16_t{});
    break;
  case runtime::NpyDtype::I4:
    v.i = load(std::int32_t{});
    break;
  case runtime::NpyDtype::I8:
    v.i = load(std::int64_t{});
    break;
  case runtime::NpyDtype::U1:
    v.i = load(std::uint8_t{});
    break;
  case runtime::NpyDtype::U2:
    v.i = load(std::uint16_t{});
    break;
  }
  return v;
}

/// Whether two cells agree. `one_dtype`: both arrays have one .npy dtype, and then `same_bytes`
/// says whether the two cells hold the same bytes (the bit-exact comparison).
bool agree(const NpyValue& got, const NpyValue& want, bool one_dtype, bool same_bytes,
           const ExpectComparison& c) {
  if (c.exact && one_dtype) return same_bytes;
  if (!got.is_float && !want.is_float && c.exact) return got.i == want.i;
  const double g = got.as_double(), w = want.as_double();
  if (std::isnan(g) || std::isnan(w)) return std::isnan(g) && std::isnan(w);
  if (c.exact) return g == w && std::signbit(g) == std::signbit(w);
  if (std::isinf(g) || std::isinf(w)) return g == w;
  return std::fabs(g - w) <= c.atol + c.rtol * std::fabs(w);
}

} // namespace

Result<runtime::NpyArray> read_expected(const ExpectOptions& opt) {
  return runtime::read_npy_file(opt.path);
}

Result<ExpectComparison> compare_with_expected(const runtime::LogicalTensor& output,
                                               const runtime::NpyArray& want,
                                               const ExpectOptions& opt) {
  // The output as `--output` writes it: its values, and its bytes for the bit-exact case.
  const runtime::NpyArray got = runtime::npy_from_tensor(output);
  if (want.shape != got.shape) {
    Diagnostic d =
        make_error("E-EXPECT-002",
                   fmt::format("the --expect array '{}' has shape {}, the output {} has shape {}",
                               opt.path, runtime::shape_text(want.shape),
                               runtime::axes_text(output.axes), runtime::shape_text(got.shape)),
                   std::nullopt,
                   {"save the expected output with `tujit run --output` (or numpy, axes in "
                    "`axes!` order)"});
    d.stage = "run";
    return d;
  }
  ExpectComparison c;
  c.path = opt.path;
  c.exact = opt.exact();
  c.rtol = opt.rtol.value_or(0);
  c.atol = opt.atol.value_or(0);
  c.cells = got.elements();
  const bool one_dtype = want.dtype == got.dtype;
  const std::uint32_t item = runtime::npy_item_bytes(got.dtype);
  for (std::uint64_t k = 0; k < c.cells; ++k) {
    const bool same_bytes = one_dtype && std::memcmp(got.data.data() + k * item,
                                                     want.data.data() + k * item, item) == 0;
    const NpyValue g = element(got, k), w = element(want, k);
    const double diff = std::fabs(g.as_double() - w.as_double());
    if (std::isfinite(diff) && diff > c.max_abs_diff) c.max_abs_diff = diff;
    if (agree(g, w, one_dtype, same_bytes, c)) continue;
    if (c.mismatches++ < kMaxDifferencesShown)
      c.first.push_back({output.coordinate_text(k), g.text(), w.text(),
                         std::isfinite(diff) ? diff : std::nan("")});
  }
  return c;
}

std::string expect_text(const ExpectComparison& c) {
  const std::string mode =
      c.exact ? "bit-exact" : fmt::format("within rtol {:g}, atol {:g}", c.rtol, c.atol);
  if (c.ok()) return fmt::format("expect {}: {} ({} cells)", c.path, mode, c.cells);
  return fmt::format("expect {}: {} of {} cells differ ({}; max abs diff {:g})", c.path,
                     c.mismatches, c.cells, mode, c.max_abs_diff);
}

Diagnostic expect_mismatch(const ExpectComparison& c, const ir::Kernel& kernel) {
  std::vector<std::string> notes;
  for (const auto& d : c.first)
    notes.push_back(fmt::format(
        "[{}]: got {}, expected {}{}", d.at, d.got, d.expected,
        std::isnan(d.abs_diff) ? std::string() : fmt::format(" (|diff| {:g})", d.abs_diff)));
  if (c.mismatches > c.first.size())
    notes.push_back(fmt::format("… and {} more cells", c.mismatches - c.first.size()));
  notes.push_back(c.exact
                      ? "compared bit for bit; --rtol / --atol compare within a tolerance"
                      : fmt::format("a cell passes when |got − expected| ≤ {:g} + {:g}·|expected|",
                                    c.atol, c.rtol));
  Diagnostic d = make_error(
      "E-EXPECT-001",
      fmt::format("the output of kernel `{}` differs from '{}' in {} of {} cells, first at [{}]",
                  kernel.name, c.path, c.mismatches, c.cells,
                  c.first.empty() ? std::string() : c.first[0].at),
      kernel.name_span, std::move(notes));
  d.stage = "run";
  return d;
}

nlohmann::ordered_json expect_json(const ExpectComparison& c) {
  nlohmann::ordered_json first = nlohmann::ordered_json::array();
  for (const auto& d : c.first) {
    nlohmann::ordered_json cell = {{"at", d.at}, {"got", d.got}, {"expected", d.expected}};
    cell["abs_diff"] =
        std::isnan(d.abs_diff) ? nlohmann::ordered_json() : nlohmann::ordered_json(d.abs_diff);
    first.push_back(cell);
  }
  nlohmann::ordered_json j = {
      {"path", c.path}, {"ok", c.ok()}, {"mode", c.exact ? "bit-exact" : "tolerance"}};
  if (!c.exact) {
    j["rtol"] = c.rtol;
    j["atol"] = c.atol;
  }
  j["cells"] = c.cells;
  j["mismatches"] = c.mismatches;
  j["max_abs_diff"] = c.max_abs_diff;
  j["first_differences"] = first;
  return j;
}

} // namespace tujit::cli

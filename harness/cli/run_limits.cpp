#include "harness/cli/run_limits.h"

#include "harness/cli/command.h"
#include "ir/seq/address_stream.h"
#include "ir/seq/operand_streams.h"
#include "ir/seq/run_program.h"
#include "runtime/tensor/logical_tensor.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <ostream>

namespace tujit::cli {

namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > kSaturated / a) return kSaturated;
  return a * b;
}

std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) {
  return a > kSaturated - b ? kSaturated : a + b;
}

/// Elements of the logical tensor over `axes`, and "[M=32, K=64]".
std::pair<std::uint64_t, std::string> logical_extent(const std::vector<ir::Axis>& axes) {
  std::uint64_t n = 1;
  for (const auto& a : axes) n = sat_mul(n, a.size);
  return {n, runtime::axes_text(axes)};
}

using ir::seq::RunShape;

/// Positions of each view dimension of a type (spatial, outer, inner), saturated.
std::array<std::uint64_t, 3> view_sizes(const ir::TensorType& type) {
  const ir::seq::ViewDims d = ir::seq::view_dims(type.kind);
  std::array<std::uint64_t, 3> n{1, 1, 1};
  const std::vector<ir::Slot>* dims[3] = {&d.spatial, &d.outer, &d.inner};
  for (int k = 0; k < 3; ++k)
    for (ir::Slot s : *dims[k]) n[k] = sat_mul(n[k], type.mapping(s).size());
  return n;
}

struct Builder {
  const ir::SpecFile& file;
  RunFootprint out;

  void add(std::string what, std::uint64_t cells, std::uint64_t cell_bytes, SourceSpan span) {
    FootprintItem it{std::move(what), cells, sat_mul(cells, cell_bytes), span};
    out.total_bytes = sat_add(out.total_bytes, it.bytes);
    out.items.push_back(std::move(it));
  }

  void logical(const std::string& role, ir::ScalarType dtype, const std::vector<ir::Axis>& axes,
               SourceSpan span, std::uint64_t cell_bytes = 0) {
    auto [n, text] = logical_extent(axes);
    const std::uint64_t w = cell_bytes != 0 ? cell_bytes : runtime::element_bytes(dtype);
    add(fmt::format("{}: logical tensor {} of {}", role, text,
                    cell_bytes == kOracleElementBytes ? "f64" : std::string(ir::name(dtype))),
        n, w, span);
  }

  /// The address streams of a view (its three dimensions), while lowering makes them.
  void streams(const std::string& role, const ir::TensorType& type, SourceSpan span) {
    const auto n = view_sizes(type);
    const std::uint64_t na = ir::seq::type_axes(type, file.axes).size();
    add(fmt::format("{}: address streams of {} [{} | {} | {}]", role,
                    ir::tensor_type_name(type.kind), n[0], n[1], n[2]),
        sat_add(sat_add(n[0], n[1]), n[2]), kStreamPositionBytes + 8 * na, span);
  }
};

} // namespace

Result<RunFootprint> run_footprint(const ir::SpecFile& file, const ir::Kernel& kernel,
                                   const ir::seq::RunOperands& ops, bool verify, bool inputs_given,
                                   std::uint64_t max_bytes) {
  Builder b{file, {}};
  // Random inputs of a tile kernel cover only the tile; finding it evaluates view dimensions,
  // within the byte budget.
  std::optional<ir::seq::InputShapes>& tiles = b.out.tiles;
  if (!inputs_given)
    if (auto t = ir::seq::input_tiles(file, kernel, ops, max_bytes / kStreamPositionBytes))
      tiles = std::move(*t);
  const auto axes_of = [&](const ir::KernelParam& p) {
    if (tiles)
      if (auto it = tiles->find(p.name); it != tiles->end()) return it->second;
    return ir::seq::type_axes(*p.tensor, file.axes);
  };
  const ir::TensorType& out = ops.output_type(kernel);
  const SourceSpan out_span = ops.lane    ? ops.lane->name_span
                              : ops.store ? ops.store->name_span
                                          : kernel.name_span;
  for (const ir::KernelParam* p : ops.inputs()) {
    if (!p || !p->tensor) continue;
    const std::string role = fmt::format("input '{}'", p->name);
    b.logical(role, p->tensor->dtype, axes_of(*p), p->span);
    b.streams(role, *p->tensor, p->span);
  }
  // The output over every coordinate of its axes (its held part is never larger).
  const auto out_axes = ir::seq::type_axes(out, file.axes);
  const ir::ScalarType out_dtype = out.dtype;
  // Collected streams and stored register files are views whose streams lowering composes.
  for (auto collect : {ops.stream_collect, ops.trf_collect})
    if (collect)
      b.streams("collected stream", kernel.stages[*collect].output,
                kernel.stages[*collect].name_span);
  if (ops.trf_store) b.streams("stored TRF", ops.trf_store->output, ops.trf_store->name_span);
  b.streams("output", out, out_span);
  if (ops.shape == RunShape::Contraction) {
    const auto s = view_sizes(ops.stream_type(kernel));
    const auto o = view_sizes(out);
    b.add("JIT tables: stream offset per flit, output element per cell",
          sat_add(s[1], sat_mul(o[1], o[2])), kJitTableEntryBytes, out_span);
  }
  b.logical("output", out_dtype, out_axes, out_span);
  if (verify) {
    // --verify runs the other engine too (its own output), then the oracle: its float64 result
    // and its views of both inputs.
    b.logical("other engine's output", out_dtype, out_axes, out_span);
    b.logical("oracle output", out_dtype, out_axes, out_span, kOracleElementBytes);
    for (const ir::KernelParam* p : ops.inputs())
      if (p && p->tensor)
        b.logical(fmt::format("oracle view of '{}'", p->name), p->tensor->dtype, axes_of(*p),
                  p->span);
  }
  return std::move(b.out);
}

Result<RunFootprint> check_run_size(const ir::SpecFile& file, const ir::Kernel& kernel,
                                    const ir::seq::RunOperands& ops, bool verify,
                                    std::uint64_t max_bytes, bool inputs_given) {
  auto fp = run_footprint(file, kernel, ops, verify, inputs_given, max_bytes);
  if (!fp || fp->total_bytes <= max_bytes) return fp;
  const auto largest =
      std::max_element(fp->items.begin(), fp->items.end(),
                       [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
  std::vector<std::string> notes;
  notes.push_back(fmt::format("the largest is the {} ({} cells, {})", largest->what, largest->cells,
                              human_bytes(largest->bytes)));
  for (const auto& it : fp->items)
    notes.push_back(fmt::format("{}: {} cells, {}", it.what, it.cells, human_bytes(it.bytes)));
  notes.push_back("shrink the axes, or raise the limit with --max-bytes");
  Diagnostic d = make_error(
      "E-LIMIT-002",
      fmt::format("kernel '{}' needs {} ({} bytes) for its operands and output when run, more "
                  "than the --max-bytes limit of {} ({} bytes)",
                  kernel.name, human_bytes(fp->total_bytes), fp->total_bytes,
                  human_bytes(max_bytes), max_bytes),
      largest->span, std::move(notes));
  return d;
}

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t n = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (n > (kSaturated - digit) / 10) return std::nullopt;
    n = n * 10 + digit;
    ++i;
  }
  if (i == 0) return std::nullopt;
  std::string suffix;
  for (char c : text.substr(i))
    suffix += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  unsigned shift = 0;
  if (suffix.empty() || suffix == "B")
    shift = 0;
  else if (suffix == "K" || suffix == "KIB")
    shift = 10;
  else if (suffix == "M" || suffix == "MIB")
    shift = 20;
  else if (suffix == "G" || suffix == "GIB")
    shift = 30;
  else if (suffix == "T" || suffix == "TIB")
    shift = 40;
  else
    return std::nullopt;
  if (n == 0 || n > (kSaturated >> shift)) return std::nullopt;
  return n << shift;
}

std::optional<std::chrono::milliseconds> parse_timeout(std::string_view text) {
  // Digits with at most one '.', nothing else (no sign, exponent, inf or nan).
  if (text.empty() || text.size() > 32) return std::nullopt;
  int dots = 0;
  for (char c : text) {
    if (c == '.')
      ++dots;
    else if (!std::isdigit(static_cast<unsigned char>(c)))
      return std::nullopt;
  }
  if (dots > 1 || text == ".") return std::nullopt;
  const double seconds = std::strtod(std::string(text).c_str(), nullptr);
  constexpr double kYear = 365.0 * 24 * 3600;
  if (!(seconds >= 0) || seconds > kYear) return std::nullopt;
  auto ms = static_cast<std::int64_t>(std::ceil(seconds * 1000.0));
  return std::chrono::milliseconds(ms);
}

std::string human_bytes(std::uint64_t bytes) {
  if (bytes < 1024) return fmt::format("{} B", bytes);
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes) / 1024.0;
  std::size_t u = 0;
  while (v >= 1024.0 && u + 1 < std::size(kUnits)) {
    v /= 1024.0;
    ++u;
  }
  return fmt::format("{:.1f} {}", v, kUnits[u]);
}

Watchdog::Watchdog(std::chrono::milliseconds limit, Action on_expire)
    : on_expire_(std::move(on_expire)) {
  if (limit.count() > 0) thread_ = std::thread([this, limit] { wait(limit); });
}

Watchdog::~Watchdog() {
  disarm();
}

void Watchdog::wait(std::chrono::milliseconds limit) {
  std::unique_lock lock(mu_);
  if (cv_.wait_for(lock, limit, [this] { return disarmed_; })) return;
  expired_.store(true);
  // Run the action under the lock: disarm() then waits for it instead of racing it.
  if (on_expire_) on_expire_();
}

void Watchdog::disarm() {
  {
    std::lock_guard lock(mu_);
    disarmed_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Diagnostic timeout_diagnostic(std::string_view kernel, std::chrono::milliseconds limit) {
  return make_error(
      "E-LIMIT-003",
      fmt::format("tujit run: kernel '{}' did not finish within the --timeout of {:g} s; the run "
                  "was stopped",
                  kernel, static_cast<double>(limit.count()) / 1000.0),
      std::nullopt,
      {"the simulation's cost grows with the simulated MACs (the product of the contracted and "
       "output axes)",
       "raise --timeout, or shrink the axes"});
}

Watchdog::Action exit_on_timeout(std::string kernel, std::chrono::milliseconds limit,
                                 std::ostream& err) {
  return [kernel = std::move(kernel), limit, &err] {
    err << render(timeout_diagnostic(kernel, limit), nullptr);
    err.flush();
    std::_Exit(kExitUserError);
  };
}

} // namespace tujit::cli

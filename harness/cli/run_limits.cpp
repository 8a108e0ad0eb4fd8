#include "harness/cli/run_limits.h"

#include "harness/cli/command.h"
#include "harness/cli/run_input_axes.h"
#include "runtime/layout/layout.h"
#include "runtime/tensor/logical_tensor.h"

#include <fmt/format.h>

#include <algorithm>
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

struct Builder {
  const ir::SpecFile& file;
  RunFootprint out;
  Diagnostics errors;

  void add(std::string what, std::uint64_t cells, std::uint64_t cell_bytes, SourceSpan span) {
    FootprintItem it{std::move(what), cells, sat_mul(cells, cell_bytes), span};
    out.total_bytes = sat_add(out.total_bytes, it.bytes);
    out.items.push_back(std::move(it));
  }

  void logical(const std::string& role, const ir::TensorType& type, SourceSpan span,
               std::uint64_t cell_bytes = kLogicalElementBytes) {
    logical(role, type, runtime::tensor_axes(type, file.axes), span, cell_bytes);
  }
  void logical(const std::string& role, const ir::TensorType& type,
               const std::vector<ir::Axis>& axes, SourceSpan span,
               std::uint64_t cell_bytes = kLogicalElementBytes) {
    auto [n, text] = logical_extent(axes);
    add(fmt::format("{}: logical tensor {} of {}", role, text,
                    cell_bytes == kOracleElementBytes ? "f64" : std::string(ir::name(type.dtype))),
        n, cell_bytes, span);
  }

  void image(const std::string& role, const ir::TensorType& type, SourceSpan span) {
    auto plan = runtime::layout_plan(type);
    if (!plan) {
      for (const auto& d : plan.diagnostics()) errors.push_back(d);
      return;
    }
    const std::uint64_t cells =
        sat_mul(sat_mul(plan->spatial.size, plan->outer.size), plan->inner.size);
    add(fmt::format("{}: {} device image [{} x {} x {}] of {}", role,
                    ir::tensor_type_name(type.kind), plan->spatial.size, plan->outer.size,
                    plan->inner.size, ir::name(type.dtype)),
        cells, kDeviceCellBytes, span);
  }
};

} // namespace

Result<RunFootprint> run_footprint(const ir::SpecFile& file, const ir::Kernel& kernel,
                                   const RunOperands& ops, bool verify, bool inputs_given,
                                   std::uint64_t max_bytes) {
  Builder b{file, {}, {}};
  // Random inputs of a tile kernel cover only the tile (run_input_axes); finding it evaluates
  // layouts, within the byte budget.
  const auto input_axes = inputs_given
                              ? std::map<std::string, std::vector<ir::Axis>>{}
                              : run_input_axes(file, kernel, ops, max_bytes / kLayoutCellBytes);
  const auto axes_of = [&](const ir::KernelParam& p) {
    auto it = input_axes.find(p.name);
    return it != input_axes.end() ? it->second : runtime::tensor_axes(*p.tensor, file.axes);
  };
  for (const ir::KernelParam* p : ops.inputs()) {
    if (!p || !p->tensor) continue;
    const std::string role = fmt::format("input '{}'", p->name);
    b.logical(role, *p->tensor, axes_of(*p), p->span);
    b.image(role, *p->tensor, p->span);
  }
  // Streams the kernel fetches and collects from DM.
  for (auto collect : {ops.stream_collect, ops.trf_collect})
    if (collect)
      b.image("collected stream", kernel.stages[*collect].output,
              kernel.stages[*collect].name_span);
  if (ops.trf_store) b.image("stored TRF", ops.trf_store->output, ops.trf_store->name_span);
  const ir::TensorType& out = ops.output_type(kernel);
  const SourceSpan out_span = ops.lane    ? ops.lane->name_span
                              : ops.store ? ops.store->name_span
                                          : kernel.name_span;
  if (ops.shape != RunShape::Collect) b.image("output", out, out_span);
  b.logical("output", out, out_span);
  if (verify) {
    // --verify runs the other engine too (its own images and output), then the oracle: its
    // float64 result and its views of both inputs.
    b.image("other engine's output", out, out_span);
    b.logical("oracle output", out, out_span, kOracleElementBytes);
    for (const ir::KernelParam* p : ops.inputs())
      if (p && p->tensor)
        b.logical(fmt::format("oracle view of '{}'", p->name), *p->tensor, axes_of(*p), p->span);
  }
  if (!b.errors.empty()) return std::move(b.errors);
  return std::move(b.out);
}

Result<RunFootprint> check_run_size(const ir::SpecFile& file, const ir::Kernel& kernel,
                                    const RunOperands& ops, bool verify, std::uint64_t max_bytes,
                                    bool inputs_given) {
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

#include "harness/run/run_footprint.h"

#include "ir/seq/address_stream.h"
#include "ir/seq/operand_streams.h"
#include "runtime/tensor/logical_tensor.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

namespace tujit::run {

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
  // A `begin_interleaved` pair is read as one tensor built from its sides, a copy of both
  // (runtime/tensor/interleave.h).
  for (const ir::seq::RunOperands::Interleaved& i : ops.interleaved)
    b.logical(fmt::format("interleaved pair '{}'", i.param->name), i.param->tensor->dtype,
              axes_of(*i.param), i.param->span);
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

namespace {

/// `fp` when it fits in `max_bytes`, else E-LIMIT-002 naming the largest tensor.
Result<RunFootprint> within_limit(const std::string& kernel, Result<RunFootprint> fp,
                                  std::uint64_t max_bytes) {
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
                  kernel, human_bytes(fp->total_bytes), fp->total_bytes, human_bytes(max_bytes),
                  max_bytes),
      largest->span, std::move(notes));
  return d;
}

} // namespace

Result<RunFootprint> check_run_size(const ir::SpecFile& file, const ir::Kernel& kernel,
                                    const ir::seq::RunOperands& ops, bool verify,
                                    std::uint64_t max_bytes, bool inputs_given) {
  return within_limit(kernel.name,
                      run_footprint(file, kernel, ops, verify, inputs_given, max_bytes), max_bytes);
}

Result<RunFootprint> check_run_size(const ir::SpecFile& file, const RunPlan& plan, bool verify,
                                    std::uint64_t max_bytes, bool inputs_given) {
  const CommandRun& result = plan.result();
  if (plan.commands.size() == 1)
    return check_run_size(file, *result.kernel, result.ops, verify, max_bytes, inputs_given);
  // Every command's own footprint, summed: a bound on what is alive at once (a command's output
  // is held until the last command reading it has run).
  RunFootprint sum;
  for (const CommandRun& c : plan.commands) {
    auto fp = run_footprint(file, *c.kernel, c.ops, verify, inputs_given, max_bytes);
    if (!fp) return fp;
    for (FootprintItem& it : fp->items) {
      if (!c.value.empty()) it.what = fmt::format("command `{}`: {}", c.value, it.what);
      sum.items.push_back(std::move(it));
    }
    sum.total_bytes =
        fp->total_bytes > ~sum.total_bytes ? ~std::uint64_t{0} : sum.total_bytes + fp->total_bytes;
  }
  return within_limit(result.kernel->name, std::move(sum), max_bytes);
}

std::optional<Diagnostic> kernel_size_error(const ir::SpecFile& file,
                                            const ir::verify::CheckedKernel& kernel,
                                            std::uint64_t max_bytes) {
  auto plan = plan_run(kernel);
  if (!plan) return std::nullopt;
  auto fp = check_run_size(file, *plan, /*verify=*/false, max_bytes);
  if (fp) return std::nullopt;
  return fp.diagnostics().front();
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

} // namespace tujit::run

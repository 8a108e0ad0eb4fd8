#include "tests/support/fuzz_properties.h"

#include "harness/run/run_footprint.h"
#include "harness/run/run_pipeline.h"
#include "ir/lang/kernel.h"
#include "ir/mapping/factor.h"
#include "ir/mapping/syntax.h"
#include "ir/seq/fetch_program.h"
#include "ir/seq/fnv1a.h"
#include "ir/seq/operand_streams.h"
#include "ir/seq/run_operands.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/kernel_checker.h"
#include "runtime/engine/result_diff.h"
#include "runtime/npy/npy.h"
#include "runtime/npy/npy_convert.h"
#include "tests/support/adversarial_dm.h"
#include "tests/support/fetch_streams_check.h"
#include "tests/support/kernel_gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <map>

namespace tujit::fuzz {

namespace {

using Broken = std::optional<std::string>;

/// Every diagnostic has a code and a message, its span lies inside `src` (when given), and it
/// renders (which walks the line table).
Broken check_diagnostics(const Diagnostics& ds, const SourceBuffer* src) {
  for (const auto& d : ds) {
    if (d.code.empty() || d.message.empty())
      return "diagnostic without code or message: " + d.code + " " + d.message;
    if (src && d.span && std::uint64_t{d.span->offset} + d.span->length > src->text().size())
      return fmt::format("diagnostic span [{}, +{}) outside the {}-byte source: {}", d.span->offset,
                         d.span->length, src->text().size(), render(d, nullptr));
    if (render(d, src).empty()) return "diagnostic renders empty: " + d.code;
  }
  return std::nullopt;
}

Broken check_diagnostics_in(const Diagnostics& ds, std::string_view text) {
  const SourceBuffer src("<fuzz>", std::string(text));
  return check_diagnostics(ds, &src);
}

std::string diagnostics_text(const Diagnostics& ds) {
  std::string s;
  for (const auto& d : ds) s += render(d, nullptr);
  return s;
}

} // namespace

std::optional<std::string> mapping_properties(std::string_view input) {
  const auto nl = input.find('\n');
  const std::string_view axes_text = nl == std::string_view::npos ? input : input.substr(0, nl);
  const std::string_view body = nl == std::string_view::npos ? "" : input.substr(nl + 1);

  auto axes = ir::parse_axes_text(axes_text);
  if (!axes) return check_diagnostics_in(axes.diagnostics(), axes_text);
  auto m = ir::parse_mapping_text(body, *axes);
  if (!m) return check_diagnostics_in(m.diagnostics(), body);

  const std::string text = m->to_string();
  auto again = ir::parse_mapping_text(text, *axes);
  if (!again)
    return "to_string() does not parse back: " + text + "\n" +
           diagnostics_text(again.diagnostics());
  if (!(*again == *m)) return "to_string() parses back to a different tree: " + text;

  const ir::FactorList nf = ir::factorize(*m);
  const std::string nf_text = ir::render_text(nf);
  auto back = ir::parse_mapping_text(nf_text, *axes);
  if (!back)
    return "the normal form's rendering does not parse back: " + text + " -> " + nf_text + "\n" +
           diagnostics_text(back.diagnostics());
  if (back->size() != m->size())
    return fmt::format("the normal form changes the size: {} ({}) -> {} ({})", text, m->size(),
                       nf_text, back->size());
  if (!(ir::factorize(*back) == nf)) return "the normal form is not a fixpoint: " + nf_text;
  if (m->size() <= 4096 && !ir::equivalent_by_map(*m, *back))
    return "the normal form maps differently: " + text + " vs " + nf_text;
  if (ir::factor_internal_errors() != 0) return "factor algebra internal error on " + text;
  return std::nullopt;
}

std::optional<std::string> spec_properties(std::string_view input) {
  const std::string text(input);
  const ir::SpecAnalysis a = ir::analyze(SourceBuffer("<fuzz>", text));
  const SourceBuffer& src = a.file.source;
  if (auto b = check_diagnostics(a.diagnostics, &src)) return b;
  if (auto b = check_diagnostics(a.file.warnings, &src)) return b;
  for (const auto& k : a.file.kernels) {
    // The checker walks refused kernels too (kernel_checker.h): both must be safe.
    const ir::verify::KernelCheck kc = ir::verify::check_kernel(a.file, k);
    if (kc.stages.size() != k.stages.size())
      return "check_kernel returned a different stage count for " + k.name;
    if (auto b = check_diagnostics(kc.all_diagnostics(), &src)) return b;
  }
  auto strict = ir::analyze_spec(SourceBuffer("<fuzz>", text));
  if (strict.ok() == has_errors(a.diagnostics)) return std::string("analyze_spec disagrees");
  if (strict && strict->kernels.size() != a.file.kernels.size())
    return std::string("analyze_spec and analyze yield different kernels");
  return std::nullopt;
}

std::optional<std::string> npy_properties(std::span<const std::uint8_t> input) {
  if (input.empty()) return std::nullopt;
  const ir::ScalarType dtype = ir::kAllScalarTypes[input[0] % ir::kAllScalarTypes.size()];
  runtime::NpyConvertOptions opt;
  opt.raw_bits = (input[0] / ir::kAllScalarTypes.size()) % 2 == 1;
  runtime::NpyLimits limits;
  limits.max_elements = 1u << 16;
  auto a = runtime::parse_npy(input.subspan(1), "<fuzz>", limits);
  if (!a) return check_diagnostics(a.diagnostics(), nullptr);
  if (a->data.size() != a->elements() * runtime::npy_item_bytes(a->dtype))
    return std::string("parsed data size is not elements x item bytes");
  const auto image = runtime::serialize_npy(*a);
  auto again = runtime::parse_npy(image, "<reserialized>", limits);
  if (!again || again->dtype != a->dtype || again->shape != a->shape || again->data != a->data)
    return std::string("serialize_npy does not parse back to the same array");

  // Kernel axes have sizes >= 1: an array with a 0 extent matches no parameter.
  std::vector<ir::Axis> axes;
  for (std::size_t i = 0; i < a->shape.size(); ++i) {
    if (a->shape[i] == 0) return std::nullopt;
    axes.push_back(ir::Axis{fmt::format("A{}", i), a->shape[i]});
  }
  auto t = runtime::tensor_from_npy(*a, dtype, axes, "x", opt);
  if (!t) return check_diagnostics(t.diagnostics(), nullptr);
  if (t->elements() != a->elements()) return std::string("tensor_from_npy changed the count");
  auto back = runtime::tensor_from_npy(runtime::npy_from_tensor(*t, opt), dtype, axes, "x", opt);
  if (!back)
    return fmt::format("npy_from_tensor ({}) does not read back: {}", ir::name(dtype),
                       diagnostics_text(back.diagnostics()));
  // Raw codes read back bit for bit; values too, but for a NaN's payload and sign: a NaN value
  // reads back as the type's canonical NaN (docs/cli.md §6.1).
  for (std::uint64_t i = 0; i < t->elements(); ++i) {
    const std::uint32_t was = t->get(i), now = back->get(i);
    if (was == now) continue;
    if (!opt.raw_bits && std::isnan(runtime::element_value(dtype, was)) &&
        std::isnan(runtime::element_value(dtype, now)))
      continue;
    return fmt::format("npy_from_tensor ({}{}) reads element {} back as {:#x}, not {:#x}",
                       ir::name(dtype), opt.raw_bits ? ", raw codes" : "", i, now, was);
  }
  return std::nullopt;
}

namespace {

/// A diagnostic no verified kernel may produce: the JIT failing to build or run it (E-JIT-002),
/// or checked code stopping an out-of-bounds access (E-JIT-003).
Broken engine_failure(const Diagnostics& ds, const std::string& kernel) {
  for (const auto& d : ds)
    if (d.code.starts_with("E-JIT-00") && d.code != "E-JIT-001")
      return "the JIT failed on a verified kernel " + kernel + ": " + render(d, nullptr);
  return std::nullopt;
}

/// A contraction's logical products: the product of the sizes of every axis its stream, TRF and
/// output name (each axis once; saturating). 0 for a kernel that forms none.
std::uint64_t logical_products(const ir::SpecFile& file, const ir::Kernel& k,
                               const ir::seq::RunOperands& ops) {
  if (ops.shape != ir::seq::RunShape::Contraction && ops.shape != ir::seq::RunShape::Partial)
    return 0;
  std::map<std::string, std::uint64_t> sizes;
  std::vector<const ir::TensorType*> types{&ops.stream_type(k), &ops.output_type(k)};
  if (ops.trf && ops.trf->tensor) types.push_back(&*ops.trf->tensor);
  for (const ir::TensorType* t : types)
    for (const ir::Axis& a : ir::seq::type_axes(*t, file.axes)) sizes[a.name] = a.size;
  std::uint64_t n = 1;
  for (const auto& [name, size] : sizes)
    if (__builtin_mul_overflow(n, size, &n)) return ~std::uint64_t{0};
  return n;
}

} // namespace

std::optional<std::string> run_properties(std::string_view input, std::uint64_t max_bytes) {
  auto file = ir::analyze_spec(SourceBuffer("<fuzz>", std::string(input)));
  if (!file) return std::nullopt;
  const SourceBuffer& src = file->source;
  for (const auto& k : file->kernels) {
    const ir::verify::KernelCheck check = ir::verify::check_kernel(*file, k);
    if (!k.ok || !check.ok()) continue;
    auto ops = ir::seq::find_run_operands(k);
    if (!ops) {
      if (auto b = check_diagnostics(ops.diagnostics(), &src)) return b;
      continue;
    }
    auto fp = run::check_run_size(*file, k, *ops, /*verify=*/true, max_bytes);
    if (!fp) {
      if (auto b = check_diagnostics(fp.diagnostics(), &src)) return b;
      continue;
    }
    if (logical_products(*file, k, *ops) > kFuzzRunMaxProducts) continue;
    // The interpreter runs first; --verify then runs the JIT (checked code, so an address outside
    // a buffer is a diagnostic, not silent corruption) and the float64 oracle.
    run::RunRequest req;
    req.engine = run::Engine::Interp;
    req.threads = 1;
    req.jit.use_cache = false; // nothing on disk per input
    req.jit.checked = true;
    req.seed = input.size();
    req.verify = true;
    auto r = run::run_kernel(*file, {k, check}, *ops, req);
    if (!r) {
      if (auto b = check_diagnostics(r.diagnostics(), &src)) return b;
      if (auto b = engine_failure(r.diagnostics(), k.name)) return b;
      continue;
    }
    if (r->sha256.size() != 64) return "sha256 is not 64 hex digits: " + r->sha256;
    if (r->output_axes.size() != r->output.axes.size())
      return "the output axes disagree with the output tensor of " + k.name;
    if (!r->verify) return "--verify produced no verification for " + k.name;
    const run::RunVerification& v = *r->verify;
    if (!v.engines_not_compared && !v.engines_bit_exact)
      return "interpreter and JIT disagree on " + k.name + ": " + v.engine_difference;
    // A poisoned output is reported, not compared: the oracle knows no padding.
    if (!v.oracle_not_applicable && r->poisoned_outputs == 0 && !v.oracle_ok)
      return fmt::format("{} differs from the float64 oracle: {} mismatches, max |err| {} at {}",
                         k.name, v.mismatches, v.oracle_max_abs_err, v.worst);
  }
  return std::nullopt;
}

std::optional<std::string> fetch_properties(std::string_view input, std::uint64_t max_cells) {
  auto file = ir::analyze_spec(SourceBuffer("<fuzz>", std::string(input)));
  if (!file) return std::nullopt;
  ir::seq::Fnv1a hash;
  hash.add(input);
  const std::uint64_t seed = hash.value();
  for (const auto& k : file->kernels) {
    const ir::verify::KernelCheck check = ir::verify::check_kernel(*file, k);
    if (!k.ok || !check.ok()) continue;
    auto programs = ir::seq::lower_fetches({k, check});
    if (!programs)
      return "a verified kernel's fetch does not lower: " + k.name + ": " +
             diagnostics_text(programs.diagnostics());
    for (const auto& p : *programs) {
      if (p.switch_engine) continue; // the slice-by-slice executor does not run a switch
      const auto within = [&](std::initializer_list<std::uint64_t> dims) {
        std::uint64_t n = 1;
        for (std::uint64_t d : dims)
          if (__builtin_mul_overflow(n, d, &n) || n > max_cells) return false;
        return true;
      };
      if (!within({p.spatial, p.buffer}) ||
          !within({p.spatial, p.time, p.flits_per_packet, p.flit_elements}))
        continue;
      // A `begin_interleaved` pair is two DM tensors read as one (docs/vector-engine.md §3.5):
      // the slice-by-slice executor reads one parameter, so fuzz_run's whole runs cover it.
      const auto pair = [&](const ir::Stage& s) {
        return !s.interleaved.empty() && s.source == p.source;
      };
      if (std::any_of(k.stages.begin(), k.stages.end(), pair)) continue;
      const ir::KernelParam* dm = nullptr;
      for (const auto& param : k.params)
        if (param.name == p.source && param.tensor) dm = &param;
      if (dm == nullptr) return "the fetch of " + k.name + " reads no parameter: " + p.source;
      if (auto diff = testing::fetch_streams_difference(p, *dm, file->axes, seed))
        return "fetch of " + p.source + " in " + k.name + ", streams vs interpreter: " + *diff;
    }
  }
  return std::nullopt;
}

std::optional<std::string> generated_properties(std::span<const std::uint8_t> input) {
  const std::uint8_t choice = input.empty() ? 0 : input[0];
  std::uint64_t seed = 0;
  for (std::size_t i = 1; i < 9 && i < input.size(); ++i)
    seed |= std::uint64_t{input[i]} << (8 * (i - 1));
  testing::KernelGenOptions options;
  constexpr testing::KernelForm kForms[] = {
      testing::KernelForm::CollectParams, testing::KernelForm::DmFetch, testing::KernelForm::Mixed};
  options.form = kForms[choice % std::size(kForms)];
  options.allow_padded_reduced_cycles = (choice / std::size(kForms)) % 2 == 1;
  testing::KernelGenerator gen(seed, options);
  const testing::GeneratedKernel g = gen.next();
  const std::string where = g.description + "\n" + g.spec;
  auto file = ir::analyze_spec(SourceBuffer(g.kernel_name + ".rs", g.spec));
  if (!file)
    return "a generated kernel does not analyze: " + where + "\n" +
           diagnostics_text(file.diagnostics());
  if (file->kernels.size() != 1) return "a generated file does not hold one kernel: " + where;
  const ir::verify::KernelCheck kc = ir::verify::check_kernel(*file, file->kernels[0]);
  if (!kc.ok())
    return "a generated kernel fails verification: " + where + "\n" +
           diagnostics_text(kc.all_diagnostics());
  auto ops = ir::seq::find_run_operands(file->kernels[0]);
  if (!ops)
    return "tujit run cannot feed a generated kernel: " + where + "\n" +
           diagnostics_text(ops.diagnostics());
  if (auto b = run_properties(g.spec)) return *b + "\n" + where;
  if (auto b = fetch_properties(g.spec)) return *b + "\n" + where;
  return std::nullopt;
}

} // namespace tujit::fuzz

#include "harness/cli/check_outcome.h"

#include "harness/ci/cycle_budget.h"
#include "harness/ci/directives.h"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>

namespace tujit::cli {

namespace {

bool inside(SourceSpan s, SourceSpan k) {
  return s.offset >= k.offset && s.offset < k.end();
}

void append(Diagnostics& to, const Diagnostics& more) {
  to.insert(to.end(), more.begin(), more.end());
}

/// An accepted kernel with a budget: its analytic cycles, and E-CYCLES-001/003 when it has no
/// chain to time or needs more.
void check_budget(KernelOutcome& k, const ci::KernelDirectives& dir) {
  if (!dir.max_cycles || has_errors(k.diagnostics)) return;
  k.max_cycles = dir.max_cycles;
  auto total = ci::analytic_total({*k.kernel, *k.check}, *dir.max_cycles_span);
  if (!total) return append(k.diagnostics, total.diagnostics());
  k.cycles = *total;
  if (auto d = ci::check_cycle_budget(*k.kernel, *total, *dir.max_cycles, *dir.max_cycles_span)) {
    k.over_budget = true;
    k.diagnostics.push_back(std::move(*d));
  }
}

void judge(KernelOutcome& k, const ci::KernelDirectives& dir) {
  append(k.diagnostics, dir.diagnostics);
  if (k.kernel) check_budget(k, dir);
  k.verdict = ci::judge(k.diagnostics, dir, k.name);
  if (k.verdict.mismatch) k.diagnostics.push_back(*k.verdict.mismatch);
}

} // namespace

std::string KernelOutcome::summary() const {
  if (over_budget)
    return fmt::format("over its cycle budget ({} > {} cycles)", *cycles, *max_cycles);
  std::string s = verdict.summary;
  if (verdict.kind == ci::Verdict::Kind::Ok && kernel) {
    std::string ops;
    for (const auto& st : kernel->stages)
      ops += (ops.empty() ? "" : ", ") + std::string(ir::stage_name(st));
    // The driver code that builds the kernel's inputs is checked too (ir/lang/driver.h).
    for (std::size_t i = 0; i < kernel->driver.size(); ++i)
      ops += (i ? ", " : "; driver: ") + std::string(ir::stage_name(kernel->driver[i]));
    s += " (" + ops + ")";
    if (cycles) s += fmt::format(", {} cycles within budget {}", *cycles, *max_cycles);
  }
  return s;
}

std::optional<int> check_spec_file(const std::string& path,
                                   const std::optional<std::string>& kernel, CommandIO& io,
                                   CheckedFile& out) {
  const auto t0 = std::chrono::steady_clock::now();
  out.path = path;
  const std::string file_name = std::filesystem::path(path).filename().string();
  // A file over the size limit is refused before it is read: the file is the one test case.
  std::error_code ec;
  if (const auto bytes = std::filesystem::file_size(path, ec); !ec)
    if (auto too_big = ir::check_spec_size(bytes, path)) {
      KernelOutcome k;
      k.name = file_name;
      k.diagnostics = {*too_big};
      judge(k, {});
      out.kernels.push_back(std::move(k));
      return std::nullopt;
    }
  if (auto rc = load_checked("check", path, kernel, io, out.spec)) return rc;
  const ir::SpecAnalysis& a = *out.spec.analysis;
  const auto& kernels = a.file.kernels;
  const ci::SpecDirectives dirs = ci::read_directives(a.file.source, kernels);
  // Front-end diagnostics: a kernel's own when they point into it, else the file's.
  Diagnostics file_level = dirs.diagnostics;
  std::vector<Diagnostics> own(kernels.size());
  for (const auto& d : a.diagnostics) {
    std::size_t owner = kernels.size();
    for (std::size_t i = 0; i < kernels.size() && d.span; ++i)
      if (inside(*d.span, kernels[i].span)) owner = i;
    (owner < kernels.size() ? own[owner] : file_level).push_back(d);
  }
  if (kernels.empty()) {
    KernelOutcome k;
    k.name = file_name;
    k.diagnostics = file_level;
    judge(k, dirs.kernels[0]);
    out.kernels.push_back(std::move(k));
  }
  for (std::size_t n = 0; n < out.spec.selected.size(); ++n) {
    const std::size_t i = out.spec.selected[n];
    KernelOutcome k;
    k.name = kernels[i].name;
    k.kernel = &kernels[i];
    k.check = &out.spec.checks[n];
    k.diagnostics = file_level;
    append(k.diagnostics, own[i]);
    append(k.diagnostics, out.spec.checks[n].all_diagnostics());
    judge(k, dirs.kernels[i]);
    out.kernels.push_back(std::move(k));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (auto& k : out.kernels) k.seconds = seconds / static_cast<double>(out.kernels.size());
  return std::nullopt;
}

report::ReportRecord outcome_record(const CheckedFile& file, const KernelOutcome& k) {
  report::ReportRecord r;
  r.file = file.path;
  r.name = k.name;
  const SourceBuffer* src = file.source();
  if (k.kernel && src) r.location = report::location_of(*src, k.kernel->name_span);
  r.outcome = k.verdict.passed() && !k.over_budget ? report::ReportRecord::Outcome::Passed
                                                   : report::ReportRecord::Outcome::Failed;
  r.summary = k.summary();
  r.seconds = k.seconds;
  for (const auto& d : k.diagnostics)
    r.diagnostics.push_back(report::report_diagnostic(
        d, src, d.severity == Severity::Error && k.verdict.expected.count(d.code) > 0));
  return r;
}

} // namespace tujit::cli

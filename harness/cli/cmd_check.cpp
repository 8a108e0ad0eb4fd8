// `tujit check PATH… [--kernel NAME] [--format text|json|junit|sarif|github]` (docs/cli.md §3,
// docs/ci.md): parse, infer and type every kernel of every spec file PATH names (files,
// directories walked for *.rs, globs), run the stage verifiers (ir/verify/kernel_checker.h), hold
// each kernel to its `// tujit:` comments (an expected refusal, a cycle budget), and print one
// line per kernel and a summary, or one JSON / JUnit / SARIF / GitHub document. Exit 1 when any
// kernel fails.
#include "harness/ci/spec_paths.h"
#include "harness/cli/check_outcome.h"
#include "harness/cli/ci_report.h"
#include "harness/cli/command.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <deque>
#include <map>
#include <ostream>

namespace tujit::cli {

namespace {

/// The kernel's line of the summary; the JSON `status` is the same with `_` for spaces.
std::string category(const KernelOutcome& k) {
  if (k.over_budget) return "over budget";
  switch (k.verdict.kind) {
  case ci::Verdict::Kind::Ok:
    return "ok";
  case ci::Verdict::Kind::RefusedAsExpected:
    return "refused as expected";
  case ci::Verdict::Kind::Refused:
    return "refused";
  case ci::Verdict::Kind::NotAsExpected:
    return "not as expected";
  }
  return "refused";
}

std::string json_name(std::string s) {
  for (auto& c : s)
    if (c == ' ') c = '_';
  return s;
}

/// "3 kernels: 1 ok, 1 refused as expected, 1 refused" (ok and refused always, the rest when
/// some kernel is in them).
std::string summary_line(const std::deque<CheckedFile>& files,
                         std::map<std::string, std::size_t>& n) {
  std::size_t total = 0;
  for (const auto& f : files)
    for (const auto& k : f.kernels) ++n[category(k)], ++total;
  std::string s = fmt::format("{} kernel{}: {} ok", total, total == 1 ? "" : "s", n["ok"]);
  for (const char* c : {"refused as expected", "refused", "not as expected", "over budget"})
    if (n[c] > 0 || std::string_view(c) == "refused") s += fmt::format(", {} {}", n[c], c);
  return s;
}

nlohmann::json diagnostic_doc(const report::Finding& f) {
  const report::ReportDiagnostic& d = *f.diagnostic;
  const report::Location at = d.location.value_or(report::Location{f.record->file});
  nlohmann::json j = {{"severity", std::string(to_string(d.severity))},
                      {"code", d.code},
                      {"stage", d.stage},
                      {"message", d.message},
                      {"notes", d.notes},
                      {"file", at.file},
                      {"line", at.line},
                      {"col", at.col},
                      {"kernel", f.record->name},
                      {"expected", d.expected}};
  return j;
}

nlohmann::json check_document(const std::deque<CheckedFile>& files, const report::Report& report,
                              const std::map<std::string, std::size_t>& counts) {
  nlohmann::json doc;
  doc["files"] = nlohmann::json::array();
  doc["kernels"] = nlohmann::json::array();
  for (const auto& f : files) {
    doc["files"].push_back(f.path);
    const nlohmann::json base = f.spec.analysis ? check_json(f.spec) : nlohmann::json();
    std::size_t n = 0;
    for (const auto& k : f.kernels) {
      nlohmann::json j = k.kernel ? base["kernels"][n++]
                                  : nlohmann::json{{"name", k.name},
                                                   {"ok", false},
                                                   {"stages", nlohmann::json::array()}};
      j["file"] = f.path;
      j["passed"] = k.verdict.passed() && !k.over_budget;
      j["status"] = json_name(category(k));
      j["summary"] = k.summary();
      j["expected"] = nlohmann::json::array();
      for (const auto& c : k.verdict.expected) j["expected"].push_back(c);
      if (k.max_cycles)
        j["budget"] = {
            {"max_cycles", *k.max_cycles},
            {"analytic_cycles", k.cycles ? nlohmann::json(*k.cycles) : nlohmann::json()}};
      doc["kernels"].push_back(std::move(j));
    }
  }
  doc["diagnostics"] = nlohmann::json::array();
  for (const auto& f : report::distinct_findings(report))
    doc["diagnostics"].push_back(diagnostic_doc(f));
  nlohmann::json summary = nlohmann::json::object();
  std::size_t total = 0, failed = 0;
  for (const auto& [c, n] : counts) {
    summary[json_name(c)] = n;
    total += n;
    if (c != "ok" && c != "refused as expected") failed += n;
  }
  summary["kernels"] = total;
  summary["failed"] = failed;
  doc["summary"] = summary;
  return doc;
}

} // namespace

int run_check(const std::vector<std::string>& args, CommandIO& io) {
  const auto extra = format_option();
  FileCommandOptions opt;
  opt.many = true;
  boost::program_options::variables_map vm;
  if (auto rc = parse_file_command(
          "check",
          "Parses kernel specs, infers every type argument and checks every stage of every\n"
          "kernel. PATH is a spec file, a directory (every *.rs below it) or a glob ('*', '?',\n"
          "'[...]', '**'). A `// tujit: expect CODE` comment above a kernel makes its refusal\n"
          "with exactly those codes a pass; `// tujit: max-cycles N` gives it a cycle budget\n"
          "(docs/ci.md). Exit 1 when any kernel fails.",
          args, io, opt, &extra, " [--format text|json|junit|sarif|github]", &vm))
    return *rc;
  report::ReportFormat format = report::ReportFormat::Text;
  if (auto rc = read_format("check", vm, opt.json, io, format)) return *rc;
  if (opt.kernel && opt.files.size() != 1) {
    io.err << "tujit check: --kernel picks a kernel of one FILE; " << opt.files.size()
           << " PATHs given\n";
    return kExitUsage;
  }
  auto paths = ci::expand_spec_paths(opt.files);
  if (!paths) {
    for (const auto& d : paths.diagnostics()) io.err << "tujit check: " << render(d, nullptr);
    return kExitUsage;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::deque<CheckedFile> files; // stable: outcomes point into each file's analysis
  for (const auto& path : *paths)
    if (auto rc = check_spec_file(path, opt.kernel, io, files.emplace_back())) return *rc;

  report::Report report;
  report.command = "check";
  bool failed = false;
  for (const auto& f : files)
    for (const auto& k : f.kernels) {
      report.records.push_back(outcome_record(f, k));
      failed = failed || report.records.back().failed();
    }
  std::map<std::string, std::size_t> counts;
  report.summary = summary_line(files, counts);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const int status = failed ? kExitUserError : kExitOk;

  if (format == report::ReportFormat::Json) {
    io.out << check_document(files, report, counts)
                  .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
           << "\n";
    return status;
  }
  for (const auto& f : report::distinct_findings(report)) io.err << f.diagnostic->rendered;
  if (report::is_ci_format(format)) {
    report::write_report(format, report, io.out);
    return status;
  }
  for (const auto& r : report.records)
    io.out << r.file << ": " << r.name << ": " << r.summary << "\n";
  io.out << report.summary << "\n";
  return status;
}

} // namespace tujit::cli

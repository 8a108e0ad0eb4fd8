#include "harness/cli/ci_report.h"

#include "harness/ci/kernel_verdict.h"
#include "harness/cli/diagnostic_json.h"

#include <boost/program_options.hpp>

#include <filesystem>
#include <ostream>
#include <set>

namespace tujit::cli {

namespace po = boost::program_options;

po::options_description format_option() {
  po::options_description o;
  o.add_options()("format", po::value<std::string>(),
                  "text | json (= --json) | junit | sarif | github: the report's format "
                  "(docs/ci.md)");
  return o;
}

std::optional<int> read_format(std::string_view cmd, const po::variables_map& vm, bool json,
                               CommandIO& io, report::ReportFormat& out) {
  out = json ? report::ReportFormat::Json : report::ReportFormat::Text;
  if (!vm.count("format")) return std::nullopt;
  const std::string name = vm["format"].as<std::string>();
  const auto f = report::parse_report_format(name);
  if (!f || (json && *f != report::ReportFormat::Json)) {
    io.err << "tujit " << cmd << ": "
           << (f ? "--json contradicts --format " + name
                 : "unknown --format '" + name +
                       "' (formats: " + std::string(report::kReportFormats) + ")")
           << "\n";
    return kExitUsage;
  }
  out = *f;
  return std::nullopt;
}

KernelReport::KernelReport(std::string command, report::ReportFormat format, CommandIO& io)
    : command_(std::move(command)), format_(format), io_(io) {}

int KernelReport::finish(int status, const std::string& file, const ir::Kernel* kernel,
                         const SourceBuffer* source, const Diagnostics& diagnostics, bool shown) {
  if (ci()) io_.err << buffer_.str(); // the command's text first, as without a CI format
  if (!shown) report_all(io_, diagnostics, source, status);
  if (!ci() || status == kExitUsage) return status;
  report::ReportRecord rec;
  rec.file = file;
  rec.name = kernel ? kernel->name : std::filesystem::path(file).filename().string();
  if (kernel && source) rec.location = report::location_of(*source, kernel->name_span);
  std::set<std::string> codes;
  for (const auto& d : diagnostics) {
    rec.diagnostics.push_back(report::report_diagnostic(d, source));
    if (d.severity == Severity::Error) codes.insert(d.code);
  }
  rec.outcome = status == kExitOk         ? report::ReportRecord::Outcome::Passed
                : status == kExitInternal ? report::ReportRecord::Outcome::InternalError
                                          : report::ReportRecord::Outcome::Failed;
  rec.summary = status == kExitOk         ? "ok"
                : status == kExitInternal ? "internal error (" + ci::code_list(codes) + ")"
                                          : "failed (" + ci::code_list(codes) + ")";
  rec.output = buffer_.str();
  rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  report::Report r{command_, {std::move(rec)}, {}, 0};
  r.seconds = r.records[0].seconds;
  report::write_report(format_, r, io_.out);
  return status;
}

} // namespace tujit::cli

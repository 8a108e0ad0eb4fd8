#include "harness/cli/check_report.h"

#include "harness/cli/command_line.h"
#include "harness/cli/derived_json.h"
#include "harness/cli/diagnostic_json.h"
#include "ir/lang/kernel_pick.h"
#include "ir/support/input_file.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <ostream>

namespace tujit::cli {

namespace {

bool inside(SourceSpan s, SourceSpan k) {
  return s.offset >= k.offset && s.offset < k.end();
}

// One entry per stage: its op, derived parameters, notes, position and output type.
nlohmann::json stages_json(const std::vector<ir::Stage>& stages,
                           const std::vector<ir::verify::StageCheck>& checks,
                           const SourceBuffer& src) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const auto& s = stages[i];
    auto [line, col] = src.line_col(s.name_span.offset);
    nlohmann::json derived = nlohmann::json::object();
    nlohmann::json notes = nlohmann::json::array();
    if (i < checks.size()) {
      for (const auto& [key, v] : checks[i].derived) derived[key] = to_json(v);
      notes = checks[i].notes;
    }
    out.push_back({{"op", std::string(ir::stage_name(s))},
                   {"derived", derived},
                   {"notes", notes},
                   {"line", line},
                   {"col", col},
                   {"output", ir::to_string(s.output)}});
  }
  return out;
}

nlohmann::json kernel_json(const ir::Kernel& k, const ir::verify::KernelCheck& kc,
                           const SourceBuffer& src) {
  nlohmann::json j = {
      {"name", k.name}, {"ok", k.ok && kc.ok()}, {"stages", stages_json(k.stages, kc.stages, src)}};
  // The driver code that builds the kernel's inputs (ir/lang/driver.h), when the file has one.
  if (!k.driver.empty()) j["driver"] = stages_json(k.driver, kc.driver_stages, src);
  return j;
}

} // namespace

std::optional<int> parse_file_command(std::string_view cmd, std::string_view description,
                                      const std::vector<std::string>& args, CommandIO& io,
                                      FileCommandOptions& out,
                                      const boost::program_options::options_description* extra,
                                      std::string_view usage_tail,
                                      boost::program_options::variables_map* vm_out) {
  namespace po = boost::program_options;
  const std::string name(cmd);
  po::options_description visible("usage: tujit " + name + (out.many ? " PATH..." : " FILE") +
                                  " [--kernel NAME]" + std::string(usage_tail) + " [--json]\n\n" +
                                  std::string(description) + "\n\noptions");
  visible.add_options()("help,h", "show this help")(
      "kernel", po::value<std::string>(), "only the kernel NAME (required when FILE has several)")(
      "json", "print one JSON document on stdout (docs/cli.md §1)");
  if (extra) visible.add(*extra);
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::vector<std::string>>());
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("file", out.many ? -1 : 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    io.err << "tujit " << name << ": " << e.what() << "\n" << visible;
    return kExitUsage;
  }
  if (vm.count("help")) {
    io.out << visible;
    note_help_table(visible, io);
    return kExitOk;
  }
  if (!vm.count("file")) {
    io.err << "tujit " << name << ": missing FILE\n" << visible;
    return kExitUsage;
  }
  out.files = vm["file"].as<std::vector<std::string>>();
  if (!out.many && out.files.size() > 1) {
    io.err << "tujit " << name << ": one FILE only\n" << visible;
    return kExitUsage;
  }
  out.file = out.files.front();
  if (vm.count("kernel")) out.kernel = vm["kernel"].as<std::string>();
  out.json = vm.count("json") > 0;
  if (vm_out) *vm_out = std::move(vm);
  return std::nullopt;
}

std::optional<int> load_checked(std::string_view cmd, const std::string& path,
                                const std::optional<std::string>& kernel, CommandIO& io,
                                CheckedSpec& out) {
  // A regular file, its size checked before it is read (ir/support/input_file.h).
  auto in = InputFile::open(path);
  if (!in) return report_all(io, in.diagnostics(), nullptr, kExitUsage);
  if (auto d = ir::check_spec_size(in->size(), path)) {
    report(io, *d);
    return kExitUserError;
  }
  auto text = in->read_rest();
  if (!text) return report_all(io, text.diagnostics(), nullptr, kExitUsage);
  out.analysis.emplace(ir::analyze(SourceBuffer(path, std::move(*text))));
  const auto& kernels = out.analysis->file.kernels;
  out.selected.clear();
  for (std::size_t i = 0; i < kernels.size(); ++i) out.selected.push_back(i);
  Diagnostics front = out.analysis->diagnostics;
  if (kernel) {
    const ir::KernelPick found = ir::pick_kernel(kernels, *kernel);
    if (!found.index) {
      io.err << "tujit " << cmd << ": " << ir::kernel_pick_error(kernels, found, *kernel, path)
             << "\n";
      return kExitUsage;
    }
    const std::optional<std::size_t> pick = found.index;
    out.selected = {*pick};
    // Keep the kernel's diagnostics and the file-level ones (outside every kernel).
    Diagnostics keep;
    for (const auto& d : front) {
      bool in_other = false;
      if (d.span && !inside(*d.span, kernels[*pick].span))
        for (std::size_t i = 0; i < kernels.size(); ++i)
          in_other = in_other || (i != *pick && inside(*d.span, kernels[i].span));
      if (!in_other) keep.push_back(d);
    }
    front = std::move(keep);
  }
  out.shown = std::move(front);
  out.checks.clear();
  for (std::size_t i : out.selected) {
    // A kernel the front end refused has incomplete types: its stages are not verified.
    if (!kernels[i].ok) {
      ir::verify::KernelCheck kc;
      kc.kernel = kernels[i].name;
      out.checks.push_back(std::move(kc));
      continue;
    }
    out.checks.push_back(ir::verify::check_kernel(out.analysis->file, kernels[i]));
    const Diagnostics more = out.checks.back().all_diagnostics();
    out.shown.insert(out.shown.end(), more.begin(), more.end());
  }
  return std::nullopt;
}

std::optional<int> load_one_kernel(std::string_view cmd, const FileCommandOptions& opt,
                                   CommandIO& io, CheckedSpec& c, const ir::Kernel** kernel) {
  if (auto rc = load_checked(cmd, opt.file, opt.kernel, io, c)) return rc;
  const ir::SpecFile& file = c.analysis->file;
  if (c.status() != kExitOk) {
    return report_all(io, c.shown, &file.source, kExitUserError);
  }
  if (c.selected.size() != 1) {
    std::string names;
    for (auto i : c.selected) names += (names.empty() ? "" : ", ") + file.kernels[i].name;
    io.err << "tujit " << cmd << ": '" << opt.file << "' defines "
           << (c.selected.empty() ? std::string("no kernel")
                                  : fmt::format("{} kernels ({}); pick one with --kernel NAME",
                                                c.selected.size(), names))
           << "\n";
    return kExitUsage;
  }
  report_all(io, c.shown, &file.source, kExitOk); // warnings
  *kernel = &file.kernels[c.selected[0]];
  return std::nullopt;
}

nlohmann::json check_json(const CheckedSpec& c) {
  const SourceBuffer& src = c.analysis->file.source;
  nlohmann::json doc;
  doc["kernels"] = nlohmann::json::array();
  for (std::size_t n = 0; n < c.selected.size(); ++n)
    doc["kernels"].push_back(
        kernel_json(c.analysis->file.kernels[c.selected[n]], c.checks[n], src));
  doc["diagnostics"] = nlohmann::json::array();
  for (const auto& d : c.shown) doc["diagnostics"].push_back(diagnostic_json(d, src));
  return doc;
}

} // namespace tujit::cli

// `tujit check FILE [--kernel NAME] [--json]` (spec/cli.md): parse, infer and type every kernel of
// a spec file, then run the stage verifiers (ir/verify/kernel_checker.h); diagnostics with carets
// on stderr, or one JSON document on stdout.
#include "harness/cli/check_report.h"
#include "harness/cli/command.h"

#include <ostream>

namespace tujit::cli {

int run_check(const std::vector<std::string>& args, CommandIO& io) {
  FileCommandOptions opt;
  if (auto rc = parse_file_command(
          "check", "Parses a kernel spec, infers every type argument and checks every stage.", args,
          io, opt))
    return *rc;
  CheckedSpec c;
  if (auto rc = load_checked("check", opt.file, opt.kernel, io, c)) return *rc;

  if (opt.json) {
    io.out << check_json(c).dump(2) << "\n";
    return c.status();
  }
  const SourceBuffer& src = c.analysis->file.source;
  for (const auto& d : c.shown) io.err << render(d, &src);
  for (std::size_t n = 0; n < c.selected.size(); ++n) {
    const ir::Kernel& k = c.analysis->file.kernels[c.selected[n]];
    io.out << k.name << ": " << (k.ok && c.checks[n].ok() ? "ok" : "FAILED") << " (";
    for (std::size_t i = 0; i < k.stages.size(); ++i)
      io.out << (i ? ", " : "") << ir::to_string(k.stages[i].op);
    io.out << ")\n";
  }
  return c.status();
}

} // namespace tujit::cli

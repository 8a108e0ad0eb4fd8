// `tujit check FILE [--kernel NAME] [--json]` (spec/cli.md): parse, infer and type every kernel of
// a spec file, then run the stage verifiers (ir/verify/kernel_checker.h); diagnostics with carets
// on stderr, or one JSON document on stdout.
#include "harness/cli/check_report.h"
#include "harness/cli/command.h"

#include <boost/program_options.hpp>

#include <ostream>

namespace tujit::cli {

namespace po = boost::program_options;

int run_check(const std::vector<std::string>& args, CommandIO& io) {
  po::options_description visible("usage: tujit check FILE [--kernel NAME] [--json]\n\n"
                                  "Parses a kernel spec, infers every type argument and checks "
                                  "every stage.\n\noptions");
  visible.add_options()("help,h", "show this help")("kernel", po::value<std::string>(),
                                                    "check only the kernel NAME")(
      "json", "print one JSON document on stdout (spec/cli.md)");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>());
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    io.err << "tujit check: " << e.what() << "\n" << visible;
    return kExitUsage;
  }
  if (vm.count("help")) {
    io.out << visible;
    return kExitOk;
  }
  if (!vm.count("file")) {
    io.err << "tujit check: missing FILE\n" << visible;
    return kExitUsage;
  }
  std::optional<std::string> kernel;
  if (vm.count("kernel")) kernel = vm["kernel"].as<std::string>();
  CheckedSpec c;
  if (auto rc = load_checked("check", vm["file"].as<std::string>(), kernel, io, c)) return *rc;

  if (vm.count("json")) {
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

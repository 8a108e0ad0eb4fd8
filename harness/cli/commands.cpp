#include "harness/cli/command.h"

#include <exception>
#include <ostream>

namespace tujit::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"bench", "time kernels and mapping sweeps: JIT, interpreter, sgemm, cycles", &run_bench},
      {"check", "parse, infer and check every stage of a kernel spec", &run_check},
      {"compile", "a kernel's Sequencer IR, generated LLVM IR or host assembly", &run_compile},
      {"cycles", "analytic and trace cycle models of a contraction chain, side by side",
       &run_cycles},
      {"explain", "each stage's mappings and derived parameters, for a person", &run_explain},
      {"map", "a mapping's size, normal form and cells (docs/mapping.md)", &run_map},
      {"run", "run a contraction kernel on the JIT or the reference interpreter", &run_run},
      {"seq", "the sequencer loops that read a memory buffer as a stream", &run_seq},
      {"stage", "one stage verifier on bare mappings: derived values or the rule", &run_stage},
      {"version", "tujit, LLVM and host CPU versions", &run_version},
  };
  return table;
}

namespace {
void print_help(std::ostream& os) {
  os << "tujit — check, compile, simulate and time kernels of the RNGD Tensor Unit\n\n"
        "usage: tujit <command> [options]\n\ncommands:\n";
  for (const auto& c : commands()) {
    os << "  " << c.name << std::string(12 - c.name.size(), ' ') << c.summary << "\n";
  }
  os << "\n`tujit <command> --help` describes a command's options.\n";
}
} // namespace

int run_cli(const std::vector<std::string>& argv, CommandIO& io) {
  if (argv.size() < 2) {
    print_help(io.err);
    return kExitUsage;
  }
  const std::string& sub = argv[1];
  if (sub == "--help" || sub == "-h" || sub == "help") {
    print_help(io.out);
    return kExitOk;
  }
  if (sub == "--version") return run_version({}, io);
  for (const auto& c : commands()) {
    if (c.name != sub) continue;
    std::vector<std::string> args(argv.begin() + 2, argv.end());
    try {
      return c.run(args, io);
    } catch (const std::exception& e) {
      io.err << "tujit: internal error (this is a bug in tujit): " << e.what() << "\n";
      return kExitInternal;
    } catch (...) {
      io.err << "tujit: internal error (this is a bug in tujit): unknown exception\n";
      return kExitInternal;
    }
  }
  io.err << "tujit: unknown command '" << sub << "'\n\n";
  print_help(io.err);
  return kExitUsage;
}

} // namespace tujit::cli

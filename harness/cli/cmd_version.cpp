#include "codegen/build_identity.h"
#include "codegen/host_target.h"
#include "harness/cli/build_commit.h"
#include "harness/cli/command.h"
#include "harness/cli/command_line.h"
#include "runtime/exec/process_usage.h"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

namespace tujit::cli {

namespace po = boost::program_options;

int run_version(const std::vector<std::string>& args, CommandIO& io) {
  po::options_description visible(
      "usage: tujit version [--json]\n\n"
      "tujit's version and the commit it was built from, LLVM's version, the host triple and\n"
      "CPU, and the vector features the JIT targets.\n\noptions");
  visible.add_options()("help,h", "show this help")(
      "json", "print one JSON document on stdout (docs/cli.md §1)");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(visible).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    io.err << "tujit version: " << e.what() << "\n" << visible;
    return kExitUsage;
  }
  if (vm.count("help")) {
    io.out << visible;
    note_help_table(visible, io);
    return kExitOk;
  }
  codegen::HostTarget h = codegen::host_target();
  if (vm.count("json")) {
    nlohmann::json j = {{"tujit", TUJIT_VERSION},
                        {"commit", build_commit()},
                        {"llvm", h.llvm_version},
                        {"triple", h.triple},
                        {"cpu", h.cpu},
                        {"avx2", h.avx2},
                        {"avx512f", h.avx512f},
                        {"fma", h.fma},
                        {"build", codegen::build_identity()}};
    // The bare process (LLVM loaded, no kernel): the baseline of `run --json`'s "process".
    j["process"] = {{"peak_rss_mib", runtime::peak_rss_mib()}};
    io.out << j.dump(2) << "\n";
  } else {
    io.out << "tujit " << TUJIT_VERSION << " (LLVM " << h.llvm_version << ", " << h.triple
           << ", cpu " << h.cpu << (h.avx2 ? ", avx2" : "") << (h.avx512f ? ", avx512f" : "")
           << (h.fma ? ", fma" : "") << ")\n"
           << "commit " << build_commit() << "\n"
           << "build " << codegen::build_identity() << "\n";
  }
  return kExitOk;
}

} // namespace tujit::cli

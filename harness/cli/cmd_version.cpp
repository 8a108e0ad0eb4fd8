#include "codegen/build_identity.h"
#include "codegen/host_target.h"
#include "harness/cli/command.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace tujit::cli {

int run_version(const std::vector<std::string>& args, CommandIO& io) {
  bool json = false;
  for (const auto& a : args) {
    if (a == "--json") {
      json = true;
    } else {
      io.err << "tujit version: unexpected argument '" << a << "' (only --json)\n";
      return kExitUsage;
    }
  }
  codegen::HostTarget h = codegen::host_target();
  if (json) {
    nlohmann::json j = {{"tujit", TUJIT_VERSION}, {"llvm", h.llvm_version},
                        {"triple", h.triple},     {"cpu", h.cpu},
                        {"avx2", h.avx2},         {"avx512f", h.avx512f},
                        {"fma", h.fma},           {"build", codegen::build_identity()}};
    io.out << j.dump(2) << "\n";
  } else {
    io.out << "tujit " << TUJIT_VERSION << " (LLVM " << h.llvm_version << ", " << h.triple
           << ", cpu " << h.cpu << (h.avx2 ? ", avx2" : "") << (h.avx512f ? ", avx512f" : "")
           << (h.fma ? ", fma" : "") << ")\n"
           << "build " << codegen::build_identity() << "\n";
  }
  return kExitOk;
}

} // namespace tujit::cli

#include "harness/cli/command.h"
#include <ostream>
namespace tujit::cli {
int run_map(const std::vector<std::string>&, CommandIO& io) {
  io.err << "tujit map: under construction\n";
  return kExitInternal;
}
} // namespace tujit::cli

#include "harness/cli/command.h"

#include <csignal>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  // A write past the file-size limit (ulimit -f) then fails with EFBIG, which the output writer
  // reports with its cause (runtime/io/output_file.h), instead of killing the process mid-file.
  std::signal(SIGXFSZ, SIG_IGN);
  std::vector<std::string> args(argv, argv + argc);
  tujit::cli::CommandIO io{std::cout, std::cerr};
  return tujit::cli::run_cli(args, io);
}

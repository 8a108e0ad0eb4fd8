#include "harness/cli/command.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  tujit::cli::CommandIO io{std::cout, std::cerr};
  return tujit::cli::run_cli(args, io);
}

#include "harness/cli/build_commit.h"
#include "harness/cli/command.h"
#include "tujit_commit.h" // generated at build time: TUJIT_COMMIT (harness/build_commit.cmake)

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// An AddressSanitizer build checks for leaks when the process exits normally.
#if defined(__SANITIZE_ADDRESS__)
#define TUJIT_EXIT_NORMALLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TUJIT_EXIT_NORMALLY 1
#endif
#endif

int main(int argc, char** argv) {
  // A write past the file-size limit (ulimit -f) then fails with EFBIG, which the output writer
  // reports with its cause (runtime/io/output_file.h), instead of killing the process mid-file.
  std::signal(SIGXFSZ, SIG_IGN);
  tujit::cli::set_build_commit(TUJIT_COMMIT);
  int status = 0;
  {
    std::vector<std::string> args(argv, argv + argc);
    tujit::cli::CommandIO io{std::cout, std::cerr};
    status = tujit::cli::run_cli(args, io);
  }
  // Every command has finished its work here: its output files are closed (each writer is scoped
  // to the command) and only the standard streams may still hold bytes. Flushed, the process ends
  // without running the destructors of static objects — several hundred of LLVM's command-line
  // options and registries, which free memory the kernel reclaims anyway.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
#ifdef TUJIT_EXIT_NORMALLY
  return status;
#else
  std::_Exit(status);
#endif
}

// Runs a program as its child and reports the child's exit status and peak resident set:
//   tujit_peak_rss REPORT PROGRAM [ARGS...]
// writes "<exit status> <peak RSS in bytes>\n" to REPORT (status -1 when the child did not exit
// normally); stdin, stdout and stderr are the child's. Exits 0 once the report is written.
//
// Why a launcher (tests/unit/run_memory_test.cpp): Linux keeps a process's peak resident set
// across execve, and a forked child starts holding its parent's pages, so the ru_maxrss of a
// program the test suite forks and execs is at least the suite's own resident set at the fork
// (about 170 MB under AddressSanitizer, more than a tujit run needs). This process is small, so
// the child it forks starts small and its ru_maxrss is the program's own.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s REPORT PROGRAM [ARGS...]\n", argv[0]);
    return 2;
  }
  const pid_t child = ::fork();
  if (child < 0) {
    std::perror("fork");
    return 2;
  }
  if (child == 0) {
    ::execv(argv[2], argv + 2);
    std::_Exit(127);
  }
  int status = 0;
  rusage use{};
  if (::wait4(child, &status, 0, &use) != child) {
    std::perror("wait4");
    return 2;
  }
  std::FILE* report = std::fopen(argv[1], "w");
  if (report == nullptr) {
    std::perror(argv[1]);
    return 2;
  }
  const int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  // ru_maxrss is in KiB on Linux.
  std::fprintf(report, "%d %lld\n", exit_status, static_cast<long long>(use.ru_maxrss) * 1024);
  return std::fclose(report) == 0 ? 0 : 2;
}

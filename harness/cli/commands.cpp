#include "harness/cli/cli_reference.h"
#include "harness/cli/command.h"
#include "harness/cli/diagnostic_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <ostream>
#include <streambuf>

namespace tujit::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"bench", "time kernels and mapping sweeps: JIT, interpreter, sgemm, cycles", &run_bench,
       JsonOption::PathOrDash},
      {"check", "parse, infer and check every stage of a kernel spec", &run_check},
      {"compile", "a kernel's Sequencer IR, generated LLVM IR or host assembly", &run_compile},
      {"cycles", "analytic and trace cycle models of a contraction chain, side by side",
       &run_cycles},
      {"explain", "each stage's mappings and derived parameters, for a person", &run_explain},
      {"map", "a mapping's size, normal form and cells (docs/mapping.md)", &run_map},
      {"run", "run a contraction kernel on the JIT or the reference interpreter", &run_run},
      {"seq", "the sequencer loops that read a memory buffer as a stream", &run_seq},
      {"stage", "one stage verifier on bare mappings: derived values or the rule", &run_stage},
      {"tune", "search the legal kernels of a contraction and rank them by cycles", &run_tune},
      {"version", "tujit's version and commit, LLVM and host CPU", &run_version},
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

/// Whether the command line asks for JSON on stdout.
bool json_on_stdout(const Command& c, const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (c.json == JsonOption::Flag && args[i] == "--json") return true;
    if (c.json == JsonOption::PathOrDash &&
        (args[i] == "--json=-" ||
         (args[i] == "--json" && i + 1 < args.size() && args[i + 1] == "-")))
      return true;
  }
  return false;
}

/// Forwards everything to `target`, noting whether anything was written and keeping the first
/// `keep` characters when `copy` is set.
class WatchedBuf : public std::streambuf {
public:
  WatchedBuf(std::streambuf* target, std::string* copy, std::size_t keep)
      : target_(target), copy_(copy), keep_(keep) {}
  bool wrote() const { return wrote_; }

protected:
  int overflow(int c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n > 0) wrote_ = true;
    if (copy_ && copy_->size() < keep_)
      copy_->append(s, static_cast<std::size_t>(std::min<std::streamsize>(
                           n, static_cast<std::streamsize>(keep_ - copy_->size()))));
    return target_->sputn(s, n);
  }
  int sync() override { return target_->pubsync(); }

private:
  std::streambuf* target_;
  std::string* copy_;
  std::size_t keep_;
  bool wrote_ = false;
};

/// The error text a command printed, without the "tujit CMD: " prefix and the usage that may
/// follow it: the first lines up to an empty line.
std::string error_message(std::string text, std::string_view command) {
  if (auto blank = text.find("\n\n"); blank != std::string::npos) text.resize(blank);
  const std::string prefix = "tujit " + std::string(command) + ": ";
  if (text.starts_with(prefix)) text.erase(0, prefix.size());
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

void print_failure_json(std::string_view command, int status, const CommandIO& io,
                        const std::string& err_text, std::ostream& out) {
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const auto& d : io.reported) diagnostics.push_back(nlohmann::json::parse(d));
  if (diagnostics.empty()) {
    const Diagnostic d = make_error(status == kExitInternal ? "E-INTERNAL-001" : "E-USAGE-001",
                                    error_message(err_text, command));
    diagnostics.push_back(diagnostic_json(d, nullptr));
  }
  out << failure_document(command, status, diagnostics).dump(2) << "\n";
}

int run_guarded(const Command& c, const std::vector<std::string>& args, CommandIO& io) {
  try {
    return c.run(args, io);
  } catch (const std::exception& e) {
    io.err << "tujit: internal error (this is a bug in tujit): " << e.what() << "\n";
  } catch (...) {
    io.err << "tujit: internal error (this is a bug in tujit): unknown exception\n";
  }
  return kExitInternal;
}

} // namespace

int run_cli(const std::vector<std::string>& argv, CommandIO& io) {
  if (argv.size() < 2) {
    print_help(io.err);
    return kExitUsage;
  }
  const std::string& sub = argv[1];
  // What the build installs (cli_reference.h): the man page and the bash completion.
  if (sub == "help" && argv.size() == 3 && (argv[2] == "--man" || argv[2] == "--bash-completion")) {
    try {
      const auto docs = command_docs();
      io.out << (argv[2] == "--man" ? man_page(docs) : bash_completion(docs));
      return kExitOk;
    } catch (const std::exception& e) {
      io.err << "tujit: internal error (this is a bug in tujit): " << e.what() << "\n";
      return kExitInternal;
    }
  }
  if (sub == "--help" || sub == "-h" || sub == "help") {
    print_help(io.out);
    return kExitOk;
  }
  if (sub == "--version") return run_version({}, io);
  for (const auto& c : commands()) {
    if (c.name != sub) continue;
    std::vector<std::string> args(argv.begin() + 2, argv.end());
    if (!json_on_stdout(c, args)) return run_guarded(c, args, io);
    // Watch stdout and keep the start of stderr, for the failure document.
    std::string err_text;
    WatchedBuf out_buf(io.out.rdbuf(), nullptr, 0), err_buf(io.err.rdbuf(), &err_text, 4096);
    std::ostream out(&out_buf), err(&err_buf);
    CommandIO watched{out, err};
    const int status = run_guarded(c, args, watched);
    out.flush();
    err.flush();
    if (status != kExitOk && !out_buf.wrote())
      print_failure_json(c.name, status, watched, err_text, io.out);
    return status;
  }
  io.err << "tujit: unknown command '" << sub << "'\n\n";
  print_help(io.err);
  return kExitUsage;
}

} // namespace tujit::cli

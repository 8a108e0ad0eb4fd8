#include "harness/cli/cli_reference.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <cstdint>
#include <sstream>
#include <stdexcept>

namespace tujit::cli {

namespace po = boost::program_options;

namespace {

/// "-h [ --help ]" → {"-h", "--help"}; "--kernel" → {"--kernel"}.
std::vector<std::string> option_names(const po::option_description& o) {
  std::vector<std::string> names;
  std::istringstream words(o.format_name());
  for (std::string w; words >> w;)
    if (w.starts_with("-")) names.push_back(w);
  return names;
}

/// The --help text before the option list, without the list's own heading ("options").
std::string preamble_of(const std::string& help, const po::options_description& table) {
  std::ostringstream rendered;
  rendered << table;
  const std::string list = rendered.str();
  const std::size_t at = help.find(list);
  std::string text = (at == std::string::npos ? std::string() : help.substr(0, at)) +
                     list.substr(0, list.find(":\n"));
  if (const std::size_t nl = text.find_last_of('\n');
      nl != std::string::npos && text.substr(nl + 1) == "options")
    text.resize(nl);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

CommandDoc document(const Command& c) {
  std::ostringstream out, err;
  CommandIO io{out, err};
  CommandDoc doc;
  doc.command = &c;
  bool handed = false;
  io.help_table = [&](const po::options_description& table) {
    handed = true;
    for (const auto& o : table.options())
      doc.options.push_back({option_names(*o), o->format_parameter(), o->description()});
    doc.preamble = preamble_of(out.str(), table);
  };
  const int status = c.run({"--help"}, io);
  if (status != kExitOk || !handed)
    throw std::logic_error("`tujit " + std::string(c.name) +
                           " --help` hands over no option table (note_help_table)");
  return doc;
}

/// Text for roff: backslashes escaped, a leading '.' or '\'' kept as text, and every character
/// outside ASCII (the help texts' §, →, …) as its named code point, which groff reads whatever
/// the locale (groff_char(7)).
std::string roff_line(const std::string& line) {
  std::string s;
  if (line.starts_with(".") || line.starts_with("'")) s = "\\&";
  for (std::size_t i = 0; i < line.size();) {
    const auto lead = static_cast<unsigned char>(line[i]);
    if (lead < 0x80) {
      s += lead == '\\' ? std::string("\\e") : std::string(1, line[i]);
      ++i;
      continue;
    }
    // UTF-8: the lead byte gives the length; the help texts are ours, so well-formed.
    const std::size_t n = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    std::uint32_t cp = lead & (0x7Fu >> n);
    for (std::size_t k = 1; k < n && i + k < line.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(line[i + k]) & 0x3Fu);
    s += fmt::format("\\[u{:04X}]", cp);
    i += n;
  }
  return s;
}

std::string roff_text(const std::string& text) {
  std::string s;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) s += roff_line(line) + "\n";
  return s;
}

/// An option name in bold with its dashes as minus signs.
std::string roff_option(const std::string& name) {
  std::string s = "\\fB";
  for (char ch : name) s += ch == '-' ? std::string("\\-") : std::string(1, ch);
  return s + "\\fR";
}

void man_command(std::ostream& os, const CommandDoc& d) {
  os << ".SS \"tujit " << d.command->name << "\"\n" << roff_text(std::string(d.command->summary));
  os << ".PP\n.nf\n" << roff_text(d.preamble) << ".fi\n";
  for (const auto& o : d.options) {
    os << ".TP\n";
    for (std::size_t i = 0; i < o.names.size(); ++i)
      os << (i ? ", " : "") << roff_option(o.names[i]);
    if (!o.parameter.empty()) os << " \\fI" << roff_line(o.parameter) << "\\fR";
    os << "\n" << roff_text(o.description);
  }
}

} // namespace

std::vector<CommandDoc> command_docs() {
  std::vector<CommandDoc> docs;
  for (const auto& c : commands()) docs.push_back(document(c));
  return docs;
}

std::string man_page(const std::vector<CommandDoc>& docs) {
  std::ostringstream os;
  os << ".TH TUJIT 1 \"\" \"tujit " << TUJIT_VERSION << "\" \"User Commands\"\n"
     << ".SH NAME\ntujit \\- check, compile, simulate and time kernels of the RNGD Tensor Unit\n"
     << ".SH SYNOPSIS\n.B tujit\n.I command\n.RI [ options ]\n"
     << ".SH DESCRIPTION\n"
     << "tujit reads kernels for the Tensor Unit of FuriosaAI's RNGD NPU written in the\n"
     << "furiosa-opt kernel model, checks every stage's hardware rules, lowers them to sequencer\n"
     << "loop nests, runs them bit for bit on a JIT or a reference interpreter and counts the\n"
     << "cycles the hardware would take.\n"
     << "Every reporting command takes \\fB\\-\\-json\\fR (then stdout is one JSON document).\n"
     << "The reference installed with tujit, \\fIshare/doc/tujit/docs/\\fR under its prefix,\n"
     << "describes the kernel language, every rule and every diagnostic code;\n"
     << "there,\n.I docs/cli.md\nis the command line's contract.\n"
     << ".SH COMMANDS\n";
  for (const auto& d : docs)
    os << ".TP\n.B " << d.command->name << "\n" << roff_text(std::string(d.command->summary));
  os << ".SH OPTIONS\n";
  for (const auto& d : docs) man_command(os, d);
  os << ".SH EXIT STATUS\n"
     << ".TP\n.B 0\nsuccess\n"
     << ".TP\n.B 1\nthe kernel or an input is wrong; diagnostics are printed\n"
     << ".TP\n.B 2\na usage error or an I/O error\n"
     << ".TP\n.B 3\nan internal error: a bug in tujit; the message says so\n"
     << ".SH ENVIRONMENT\n"
     << ".TP\n.B TUJIT_CACHE_DIR\nthe JIT's object cache directory\n"
     << ".TP\n.BR XDG_CACHE_HOME \", \" HOME\n"
     << "without \\fBTUJIT_CACHE_DIR\\fR, the cache is \\fI$XDG_CACHE_HOME/tujit\\fR, else "
        "\\fI$HOME/.cache/tujit\\fR\n"
     << ".TP\n.B TUJIT_GNUPLOT\n"
     << "the gnuplot executable that draws \\fB\\-\\-timeline\\fR and \\fB\\-\\-plot\\fR "
        "pictures\n"
     << ".TP\n.B TMPDIR\ntemporary files\n"
     << ".SH SEE ALSO\n.BR gnuplot (1)\n";
  return os.str();
}

std::string bash_completion(const std::vector<CommandDoc>& docs) {
  std::ostringstream os;
  std::string names;
  for (const auto& d : docs) {
    names += d.command->name;
    names += ' ';
  }
  os << "# bash completion for tujit, generated by `tujit help --bash-completion`\n"
     << "_tujit() {\n"
     << "  local cur=${COMP_WORDS[COMP_CWORD]}\n"
     << "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
     << "    COMPREPLY=($(compgen -W \"" << names << "help --help --version\" -- \"$cur\"))\n"
     << "    return\n"
     << "  fi\n"
     << "  local options=\n"
     << "  case ${COMP_WORDS[1]} in\n";
  for (const auto& d : docs) {
    os << "  " << d.command->name << ") options=\"";
    const char* sep = "";
    for (const auto& o : d.options)
      for (const auto& n : o.names) {
        os << sep << n;
        sep = " ";
      }
    os << "\" ;;\n";
  }
  os << "  esac\n"
     << "  # Options complete from the table; anything else falls back to file names.\n"
     << "  if [[ $cur == -* ]]; then\n"
     << "    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n"
     << "  fi\n"
     << "}\n"
     << "complete -o default -F _tujit tujit\n";
  return os.str();
}

} // namespace tujit::cli

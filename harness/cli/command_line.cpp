#include "harness/cli/command_line.h"

#include <boost/program_options.hpp>

#include <ostream>

namespace tujit::cli {

std::optional<int> parse_command_line(std::string_view cmd, const std::vector<std::string>& args,
                                      const boost::program_options::options_description& options,
                                      const char* positional, std::string_view usage, CommandIO& io,
                                      boost::program_options::variables_map& vm) {
  namespace po = boost::program_options;
  po::options_description hidden;
  hidden.add_options()(positional, po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description pos;
  pos.add(positional, -1);
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    io.err << "tujit " << cmd << ": " << e.what() << "\n" << usage;
    return kExitUsage;
  }
  return std::nullopt;
}

void note_help_table(const boost::program_options::options_description& options, CommandIO& io) {
  if (io.help_table) io.help_table(options);
}

} // namespace tujit::cli

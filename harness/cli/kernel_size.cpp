#include "harness/cli/kernel_size.h"

#include "harness/cli/run_limits.h"

#include <boost/program_options.hpp>

#include <ostream>

namespace tujit::cli {

namespace po = boost::program_options;

void add_max_bytes_option(po::options_description& options) {
  options.add_options()("max-bytes", po::value<std::string>()->default_value("4GiB"),
                        "refuse a kernel whose tensors, when run, would exceed this "
                        "many bytes (as `tujit run` does; e.g. 512M)");
}

std::optional<std::uint64_t> max_bytes_option(const po::variables_map& vm, std::string_view cmd,
                                              CommandIO& io) {
  const std::string text = vm.count("max-bytes") ? vm["max-bytes"].as<std::string>() : "4GiB";
  auto bytes = parse_byte_size(text);
  if (!bytes)
    io.err << "tujit " << cmd << ": --max-bytes wants a size such as 4GiB or 512M, got '" << text
           << "'\n";
  return bytes;
}

} // namespace tujit::cli

#include "harness/cli/option_values.h"

#include "harness/cli/diagnostic_json.h"
#include "runtime/io/output_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <ostream>
#include <thread>

namespace tujit::cli {

unsigned max_thread_count() {
  return 4 * std::max(1u, std::thread::hardware_concurrency());
}

std::optional<unsigned> parse_thread_count(std::string_view text) {
  unsigned n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (n > max_thread_count()) return std::nullopt;
  return n;
}

std::string thread_count_error(std::string_view text) {
  return fmt::format("--threads '{}' is not 0 (every hardware thread) or a count from 1 to {} "
                     "(4 × the {} hardware threads)",
                     text, max_thread_count(), max_thread_count() / 4);
}

std::optional<int> check_output_option(const boost::program_options::variables_map& vm,
                                       const char* option, CommandIO& io) {
  if (!vm.count(option)) return std::nullopt;
  if (auto d =
          runtime::io::check_output_path(vm[option].as<std::string>(), vm.count("force") > 0)) {
    report(io, *d);
    return kExitUsage;
  }
  return std::nullopt;
}

std::optional<int> check_output_options(const boost::program_options::variables_map& vm,
                                        std::initializer_list<const char*> options,
                                        std::string_view cmd, CommandIO& io) {
  std::map<std::string, const char*> seen; // path → option
  for (const char* opt : options) {
    if (!vm.count(opt) || vm[opt].as<std::string>() == "-") continue;
    const std::string& path = vm[opt].as<std::string>();
    if (auto [it, fresh] = seen.emplace(path, opt); !fresh) {
      io.err << "tujit " << cmd << ": --" << it->second << " and --" << opt << " both name '"
             << path << "'\n";
      return kExitUsage;
    }
    if (auto rc = check_output_option(vm, opt, io)) return rc;
  }
  return std::nullopt;
}

bool write_output(const std::string& path, const std::string& text, bool force, CommandIO& io) {
  if (path == "-") {
    io.out << text;
    return true;
  }
  if (auto d = runtime::io::write_file(path, text, force)) {
    report(io, *d);
    return false;
  }
  return true;
}

} // namespace tujit::cli

#include "harness/cli/option_values.h"

#include "harness/cli/diagnostic_json.h"
#include "runtime/io/output_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
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

} // namespace tujit::cli

#include "harness/cli/run_limits.h"

#include "harness/cli/command.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <ostream>

namespace tujit::cli {

namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

} // namespace

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t n = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (n > (kSaturated - digit) / 10) return std::nullopt;
    n = n * 10 + digit;
    ++i;
  }
  if (i == 0) return std::nullopt;
  std::string suffix;
  for (char c : text.substr(i))
    suffix += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  unsigned shift = 0;
  if (suffix.empty() || suffix == "B")
    shift = 0;
  else if (suffix == "K" || suffix == "KIB")
    shift = 10;
  else if (suffix == "M" || suffix == "MIB")
    shift = 20;
  else if (suffix == "G" || suffix == "GIB")
    shift = 30;
  else if (suffix == "T" || suffix == "TIB")
    shift = 40;
  else
    return std::nullopt;
  if (n == 0 || n > (kSaturated >> shift)) return std::nullopt;
  return n << shift;
}

std::optional<std::chrono::milliseconds> parse_timeout(std::string_view text) {
  // Digits with at most one '.', nothing else (no sign, exponent, inf or nan).
  if (text.empty() || text.size() > 32) return std::nullopt;
  int dots = 0;
  for (char c : text) {
    if (c == '.')
      ++dots;
    else if (!std::isdigit(static_cast<unsigned char>(c)))
      return std::nullopt;
  }
  if (dots > 1 || text == ".") return std::nullopt;
  const double seconds = std::strtod(std::string(text).c_str(), nullptr);
  constexpr double kYear = 365.0 * 24 * 3600;
  if (!(seconds >= 0) || seconds > kYear) return std::nullopt;
  auto ms = static_cast<std::int64_t>(std::ceil(seconds * 1000.0));
  return std::chrono::milliseconds(ms);
}

Watchdog::Watchdog(std::chrono::milliseconds limit, Action on_expire)
    : on_expire_(std::move(on_expire)) {
  if (limit.count() > 0) thread_ = std::thread([this, limit] { wait(limit); });
}

Watchdog::~Watchdog() {
  disarm();
}

void Watchdog::wait(std::chrono::milliseconds limit) {
  std::unique_lock lock(mu_);
  if (cv_.wait_for(lock, limit, [this] { return disarmed_; })) return;
  expired_.store(true);
  // Run the action under the lock: disarm() then waits for it instead of racing it.
  if (on_expire_) on_expire_();
}

void Watchdog::disarm() {
  {
    std::lock_guard lock(mu_);
    disarmed_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Diagnostic timeout_diagnostic(std::string_view kernel, std::chrono::milliseconds limit) {
  return make_error(
      "E-LIMIT-003",
      fmt::format("tujit run: kernel '{}' did not finish within the --timeout of {:g} s; the run "
                  "was stopped",
                  kernel, static_cast<double>(limit.count()) / 1000.0),
      std::nullopt,
      {"the simulation's cost grows with the simulated MACs (the product of the contracted and "
       "output axes)",
       "raise --timeout, or shrink the axes"});
}

Watchdog::Action exit_on_timeout(std::string kernel, std::chrono::milliseconds limit,
                                 std::ostream& err) {
  return [kernel = std::move(kernel), limit, &err] {
    err << render(timeout_diagnostic(kernel, limit), nullptr);
    err.flush();
    std::_Exit(kExitUserError);
  };
}

} // namespace tujit::cli

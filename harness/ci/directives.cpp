#include "harness/ci/directives.h"

#include "harness/report/error_catalog.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <regex>

namespace tujit::ci {

namespace {

bool space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

/// The words of `text`, split at spaces and commas.
std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (space(text[i]) || text[i] == ',')) ++i;
    const std::size_t b = i;
    while (i < text.size() && !space(text[i]) && text[i] != ',') ++i;
    if (i > b) out.push_back(text.substr(b, i - b));
  }
  return out;
}

Diagnostic directive_error(std::string message, SourceSpan span) {
  Diagnostic d = make_error("E-CHECK-003", std::move(message), span,
                            {"directives: `// tujit: expect CODE[, CODE…]` and "
                             "`// tujit: max-cycles N` (docs/ci.md)"});
  d.stage = "check";
  return d;
}

/// Reads one directive's text (after `tujit:`) into `into`; nullopt or the diagnostic.
std::optional<Diagnostic> apply(std::string_view text, SourceSpan span, const SourceBuffer& src,
                                KernelDirectives& into) {
  const auto w = words(text);
  if (w.empty() || (w[0] != "expect" && w[0] != "max-cycles"))
    return directive_error(
        fmt::format("unknown tujit directive `{}`", w.empty() ? std::string_view() : w[0]), span);
  if (w[0] == "expect") {
    static const std::regex code(R"(E-[A-Z]+-[0-9]{3})");
    std::size_t n = 0;
    for (std::size_t i = 1; i < w.size() && w[i].starts_with("E-"); ++i, ++n) {
      const std::string c(w[i]);
      if (!std::regex_match(c, code) || !report::error_catalog().contains(c))
        return directive_error(
            fmt::format("`{}` is not a diagnostic code listed in docs/errors.md", c), span);
      if (std::find(into.expect.begin(), into.expect.end(), c) == into.expect.end())
        into.expect.push_back(c);
    }
    if (n == 0)
      return directive_error("`tujit: expect` names no diagnostic code (E-FAMILY-NNN)", span);
    if (!into.expect_span) into.expect_span = span;
    return std::nullopt;
  }
  std::uint64_t cycles = 0;
  const std::string_view num = w.size() > 1 ? w[1] : std::string_view();
  const auto [end, ec] = std::from_chars(num.data(), num.data() + num.size(), cycles);
  if (num.empty() || ec != std::errc() || end != num.data() + num.size() || cycles == 0)
    return directive_error(
        fmt::format("`tujit: max-cycles` wants a positive whole number of cycles, got `{}`", num),
        span);
  if (into.max_cycles_span)
    return directive_error(fmt::format("a second `max-cycles` for one kernel (the first is on "
                                       "line {})",
                                       src.line_col(into.max_cycles_span->offset).first),
                           span);
  into.max_cycles = cycles;
  into.max_cycles_span = span;
  return std::nullopt;
}

} // namespace

SpecDirectives read_directives(const SourceBuffer& source, const std::vector<ir::Kernel>& kernels) {
  SpecDirectives out;
  out.kernels.resize(std::max<std::size_t>(kernels.size(), 1));
  // Kernels in source order: a directive belongs to the first kernel ending after it.
  std::vector<std::size_t> order(kernels.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&kernels](std::size_t a, std::size_t b) {
    return kernels[a].span.offset < kernels[b].span.offset;
  });
  const std::string& text = source.text();
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t eol = std::min(text.find('\n', pos), text.size());
    std::size_t i = pos;
    while (i < eol && space(text[i])) ++i;
    const std::size_t start = i;
    pos = eol + 1;
    if (text.compare(start, 2, "//") != 0) continue;
    i = start + 2;
    while (i < eol && space(text[i])) ++i;
    if (text.compare(i, 6, "tujit:") != 0) continue;
    const SourceSpan span{static_cast<std::uint32_t>(start),
                          static_cast<std::uint32_t>(eol - start)};
    KernelDirectives* owner = kernels.empty() ? &out.kernels[0] : nullptr;
    for (std::size_t k : order)
      if (!owner && start < kernels[k].span.end()) owner = &out.kernels[k];
    if (!owner) {
      out.diagnostics.push_back(directive_error(
          "this `// tujit:` comment follows the last kernel of the file and applies to none; "
          "put it above the kernel's `fn`",
          span));
      continue;
    }
    if (auto d = apply(std::string_view(text).substr(i + 6, eol - i - 6), span, source, *owner))
      owner->diagnostics.push_back(std::move(*d));
  }
  return out;
}

} // namespace tujit::ci

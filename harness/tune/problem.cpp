#include "harness/tune/problem.h"

#include "harness/run/run_footprint.h"
#include "ir/verify/operand_types.h"
#include "runtime/tensor/logical_tensor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>

namespace tujit::tune {

namespace {

Diagnostic tune_error(std::string code, std::string message, std::vector<std::string> notes) {
  Diagnostic d = make_error(std::move(code), std::move(message), std::nullopt, std::move(notes));
  d.stage = "tune";
  return d;
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = s.find(sep, start);
    out.push_back(trim(s.substr(start, at == std::string_view::npos ? at : at - start)));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

char upper(char c) {
  return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
}

// One operand's letters (upper case), or the E-TUNE-001 diagnostic.
Result<std::string> operand_letters(const std::string& term, std::string_view what,
                                    std::string_view einsum) {
  if (term.empty())
    return tune_error("E-TUNE-001", fmt::format("--einsum '{}': the {} is empty", einsum, what),
                      {"write each operand as its axis letters, e.g. \"vmk,vnk->vmn\""});
  std::string out;
  for (char c : term) {
    if (!std::isalpha(static_cast<unsigned char>(c)))
      return tune_error(
          "E-TUNE-001",
          fmt::format("--einsum '{}': '{}' in the {} is not an axis letter", einsum, c, what),
          {"axes are single letters a-z (upper or lower case), e.g. \"vmk,vnk->vmn\""});
    out.push_back(upper(c));
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out.find(out[i], i + 1) != std::string::npos)
      return tune_error(
          "E-TUNE-002",
          fmt::format("--einsum '{}': the {} names the axis {} twice", einsum, what, out[i]),
          {"a diagonal (the same axis twice in one tensor) is not a contraction the Tensor Unit "
           "computes (docs/tune.md §1)"});
  return out;
}

struct Parsed {
  std::string stream, trf, output;
};

Result<Parsed> parse_einsum(std::string_view einsum) {
  const std::string text = trim(einsum);
  const std::size_t arrow = text.find("->");
  if (arrow == std::string::npos)
    return tune_error("E-TUNE-001", fmt::format("--einsum '{}' has no '->'", einsum),
                      {"write the output explicitly: \"STREAM,TRF->OUTPUT\", e.g. "
                       "\"vmk,vnk->vmn\""});
  const auto inputs = split(std::string_view(text).substr(0, arrow), ',');
  if (inputs.size() != 2)
    return tune_error(
        "E-TUNE-002",
        fmt::format("--einsum '{}' has {} operand(s); the Contraction Engine multiplies two: the "
                    "stream and the TRF operand",
                    einsum, inputs.size()),
        {"write \"STREAM,TRF->OUTPUT\", e.g. \"vmk,vnk->vmn\""});
  Parsed p;
  auto s = operand_letters(inputs[0], "stream operand", einsum);
  if (!s) return s.diagnostics();
  auto w = operand_letters(inputs[1], "TRF operand", einsum);
  if (!w) return w.diagnostics();
  auto o = operand_letters(trim(std::string_view(text).substr(arrow + 2)), "output", einsum);
  if (!o) return o.diagnostics();
  p.stream = *s;
  p.trf = *w;
  p.output = *o;
  for (char c : p.output)
    if (p.stream.find(c) == std::string::npos && p.trf.find(c) == std::string::npos)
      return tune_error(
          "E-TUNE-002",
          fmt::format("--einsum '{}': the output axis {} is in neither operand", einsum, c),
          {"every output axis comes from the stream or the TRF operand"});
  const auto only_one = [&](const std::string& mine, const std::string& other,
                            std::string_view what) -> std::optional<Diagnostic> {
    for (char c : mine)
      if (other.find(c) == std::string::npos && p.output.find(c) == std::string::npos)
        return tune_error(
            "E-TUNE-002",
            fmt::format("--einsum '{}': the axis {} of the {} is summed, but the other operand "
                        "does not have it",
                        einsum, c, what),
            {"the Packet and Time Reducers sum products of both operands over their common axes "
             "(docs/contraction.md §6, §7); sum a one-operand axis before the contraction (a "
             "Vector "
             "Engine reduction), or keep it in the output"});
    return std::nullopt;
  };
  if (auto d = only_one(p.stream, p.trf, "stream operand")) return *d;
  if (auto d = only_one(p.trf, p.stream, "TRF operand")) return *d;
  return p;
}

Result<std::map<char, std::uint64_t>> parse_sizes(std::string_view sizes) {
  std::map<char, std::uint64_t> out;
  for (const std::string& item : split(sizes, ',')) {
    const std::size_t eq = item.find('=');
    const std::string name = trim(std::string_view(item).substr(0, std::min(eq, item.size())));
    const std::string value =
        eq == std::string::npos ? "" : trim(std::string_view(item).substr(eq + 1));
    std::uint64_t v = 0;
    const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
    if (name.size() != 1 || !std::isalpha(static_cast<unsigned char>(name[0])) || value.empty() ||
        r.ec != std::errc() || r.ptr != value.data() + value.size())
      return tune_error("E-TUNE-003",
                        fmt::format("--sizes '{}': '{}' is not AXIS=SIZE", sizes, item),
                        {"give every axis of the einsum its size, e.g. \"V=32,M=1024,N=8,K=256\""});
    if (v == 0 || v > kMaxAxisSize)
      return tune_error(
          "E-TUNE-003",
          fmt::format("--sizes '{}': {} = {} is outside 1 … {}", sizes, name, v, kMaxAxisSize),
          {"an axis has at least one coordinate"});
    if (!out.emplace(upper(name[0]), v).second)
      return tune_error("E-TUNE-003",
                        fmt::format("--sizes '{}' gives the axis {} twice", sizes, upper(name[0])),
                        {"give each axis one size"});
  }
  return out;
}

Result<std::pair<ir::ScalarType, ir::ScalarType>> parse_dtype(std::string_view dtype) {
  const auto parts = split(dtype, ',');
  if (parts.size() > 2)
    return tune_error("E-TUNE-004", fmt::format("--dtype '{}' names {} types", dtype, parts.size()),
                      {"one type for both operands (\"bf16\") or the stream's and the TRF's "
                       "(\"i9,i8\")"});
  std::vector<ir::ScalarType> types;
  for (const std::string& p : parts) {
    auto t = ir::parse_scalar_type(p);
    if (!t)
      return tune_error("E-TUNE-004",
                        fmt::format("--dtype '{}': '{}' is not a scalar type", dtype, p),
                        {"contraction operands: i4, i5, i8, i9, bf16, f8e4m3, f8e5m2 (i5/i9 are "
                         "the zero-point forms of i4/i8)"});
    types.push_back(*t);
  }
  return std::pair{types.front(), types.back()};
}

} // namespace

std::string_view role_name(AxisRole r) {
  switch (r) {
  case AxisRole::Batch:
    return "batch";
  case AxisRole::Row:
    return "row";
  case AxisRole::Col:
    return "column";
  case AxisRole::Contracted:
    return "contracted";
  }
  return "?";
}

std::string Problem::sizes_text() const {
  std::string s;
  for (const auto& a : axes)
    s += fmt::format("{}{}={}", s.empty() ? "" : ",", a.axis.name, a.axis.size);
  return s;
}

std::string Problem::dtype_text() const {
  if (stream_type == trf_type) return std::string(ir::name(stream_type));
  return fmt::format("{},{}", ir::name(stream_type), ir::name(trf_type));
}

namespace {

std::uint64_t saturated_product(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > ~std::uint64_t{0} / b ? ~std::uint64_t{0} : a * b;
}

} // namespace

std::uint64_t Problem::macs() const {
  std::uint64_t m = 1;
  for (const auto& a : axes) m = saturated_product(m, a.axis.size);
  return m;
}

std::optional<Diagnostic> problem_size_error(const Problem& p, std::uint64_t max_bytes) {
  const auto bytes = [&](const std::vector<std::size_t>& tensor, ir::ScalarType t) {
    std::uint64_t n = runtime::element_bytes(t);
    for (std::size_t a : tensor) n = saturated_product(n, p.axes[a].axis.size);
    return n;
  };
  const std::uint64_t stream = bytes(p.stream, p.stream_type), trf = bytes(p.trf, p.trf_type),
                      output = bytes(p.output, p.accumulator);
  const auto sum = [](std::uint64_t a, std::uint64_t b) {
    return a > ~std::uint64_t{0} - b ? ~std::uint64_t{0} : a + b;
  };
  const std::uint64_t total = sum(sum(stream, trf), output);
  if (total <= max_bytes) return std::nullopt;
  Diagnostic d = make_error(
      "E-LIMIT-002",
      fmt::format("every kernel of `{}` with {} needs at least {} ({} bytes) when run: stream {}, "
                  "TRF operand {}, output {}; more than the --max-bytes limit of {} ({} bytes)",
                  p.einsum, p.sizes_text(), run::human_bytes(total), total,
                  run::human_bytes(stream), run::human_bytes(trf), run::human_bytes(output),
                  run::human_bytes(max_bytes), max_bytes),
      std::nullopt, {"tile the contraction (smaller sizes per kernel), or raise --max-bytes"});
  d.stage = "tune";
  return d;
}

Result<Problem> make_problem(std::string_view einsum, std::string_view sizes,
                             std::string_view dtype) {
  auto parsed = parse_einsum(einsum);
  if (!parsed) return parsed.diagnostics();
  auto given = parse_sizes(sizes);
  if (!given) return given.diagnostics();
  auto types = parse_dtype(dtype);
  if (!types) return types.diagnostics();
  // The Multiplier's operand table is the verifier's (docs/contraction.md §2.1).
  auto pair = ir::verify::verify_operand_types({types->first, types->second});
  if (!pair) return pair.diagnostics();

  Problem p;
  std::string letters;
  for (const std::string* t : {&parsed->stream, &parsed->trf, &parsed->output})
    for (char c : *t)
      if (letters.find(c) == std::string::npos) letters.push_back(c);
  if (letters.size() > kMaxAxes)
    return tune_error("E-TUNE-002",
                      fmt::format("--einsum '{}' has {} axes; tujit tune takes at most {}", einsum,
                                  letters.size(), kMaxAxes),
                      {"merge axes that always move together into one"});
  for (char c : letters) {
    auto it = given->find(c);
    if (it == given->end())
      return tune_error("E-TUNE-003",
                        fmt::format("--sizes '{}' gives no size for the axis {}", sizes, c),
                        {fmt::format("the einsum's axes are {}", letters)});
    const bool s = parsed->stream.find(c) != std::string::npos;
    const bool w = parsed->trf.find(c) != std::string::npos;
    const bool o = parsed->output.find(c) != std::string::npos;
    const AxisRole role =
        s && w ? (o ? AxisRole::Batch : AxisRole::Contracted) : (s ? AxisRole::Row : AxisRole::Col);
    p.axes.push_back({ir::Axis{std::string(1, c), it->second}, role});
  }
  for (const auto& [c, v] : *given)
    if (letters.find(c) == std::string::npos)
      return tune_error(
          "E-TUNE-003",
          fmt::format("--sizes '{}' names the axis {}, which the einsum does not have", sizes, c),
          {fmt::format("the einsum's axes are {}", letters)});
  const auto indices = [&](const std::string& t) {
    std::vector<std::size_t> v;
    for (char c : t) v.push_back(letters.find(c));
    return v;
  };
  p.stream = indices(parsed->stream);
  p.trf = indices(parsed->trf);
  p.output = indices(parsed->output);
  const auto lower = [](std::string t) {
    for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return t;
  };
  p.einsum =
      fmt::format("{},{}->{}", lower(parsed->stream), lower(parsed->trf), lower(parsed->output));
  p.stream_type = types->first;
  p.trf_type = types->second;
  p.accumulator = pair->accumulator;
  return p;
}

} // namespace tujit::tune

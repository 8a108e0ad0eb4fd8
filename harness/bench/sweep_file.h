// Sweep files of `tujit bench --sweep FILE` (docs/cli.md §8): a kernel template (spec text with
// `{placeholder}`s) and, per parameter, the values it takes. The sweep is the cartesian product of
// the parameters; a parameter whose values are tables sets several placeholders at once (e.g. a
// dtype together with its accumulator and packet width, or a Time/Packet/Lane assignment), so
// coupled choices stay coupled. Format (TOML, toml++):
//
//   name = "bmatmul-m-in-time"
//   template = "bmatmul.rs.in"        # a file next to the sweep file, or
//   template_text = """..."""         # the template inline
//   [params]                          # parameters in key order (TOML tables are unordered)
//   M = [8, 32]
//   dtype = [{dtype = "bf16", acc = "f32", fe = 16}, {dtype = "i8", acc = "i32", fe = 32}]
#pragma once

#include "ir/support/diagnostic.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::bench {

/// One choice of one parameter: the placeholder values it sets and its short label.
struct SweepChoice {
  std::string label;                         // shown in point names ("32", "bf16")
  std::map<std::string, std::string> values; // placeholder → text
};

struct SweepParam {
  std::string name;
  std::vector<SweepChoice> choices;
};

struct SweepSpec {
  std::string name;
  std::string path; // the sweep file (diagnostics, relative template paths)
  std::string template_name;
  std::string template_text;
  std::vector<SweepParam> params; // in key order; the first varies slowest
};

/// One point of the cartesian product.
struct SweepPoint {
  std::uint64_t index = 0;                   // position in the full expansion (shards keep it)
  std::string name;                          // "<sweep>[M=32,dtype=bf16]"
  std::map<std::string, std::string> params; // parameter → choice label
  std::string spec_text;                     // the template with every placeholder replaced
};

/// Parses a sweep file's text; `path` names it and anchors a relative `template`.
/// E-BENCH-001 when the TOML does not parse, E-BENCH-002 when its contents are not a sweep
/// (among others: a parameter whose placeholder the template does not use, or a `{NAME}` in the
/// template no parameter sets).
Result<SweepSpec> parse_sweep(std::string_view toml_text, const std::string& path);
/// The largest sweep file tujit reads (the template may be a separate file, see kMaxSpecBytes).
inline constexpr std::uint64_t kMaxSweepFileBytes = std::uint64_t{16} << 20;
/// Reads (ir/support/input_file.h: E-IO-001 unreadable, E-IO-005 not a regular file,
/// E-LIMIT-004 over kMaxSweepFileBytes) and parses the file.
Result<SweepSpec> load_sweep(const std::string& path);

/// Number of points (saturated at 2^64 - 1).
std::uint64_t point_count(const SweepSpec& spec);
/// Point `index` (< point_count) alone: a sweep generates its points one at a time.
SweepPoint point_at(const SweepSpec& spec, std::uint64_t index);
/// Every point in order (the last parameter varies fastest). The caller checks point_count first.
std::vector<SweepPoint> expand_points(const SweepSpec& spec);

/// `--shard I/N`: 0 <= I < N. Point `index` belongs to shard `index % N` (round robin, so every
/// shard gets a mix of small and large points). E-BENCH-003 for anything else.
struct Shard {
  std::uint64_t index = 0, count = 1;
};
Result<Shard> parse_shard(std::string_view text);
bool in_shard(std::uint64_t point_index, const Shard& shard);

/// The largest sweep tujit expands (a typo such as `M = [1, 2, …]` × 12 parameters stays a
/// diagnostic, not an out-of-memory kill).
inline constexpr std::uint64_t kMaxSweepPoints = 100000;

} // namespace tujit::bench

#include "harness/tune/tune_report.h"

#include "ir/support/input_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>

namespace tujit::tune {

namespace {

using ojson = nlohmann::ordered_json;

constexpr const char* kTool = "tujit.tune";
constexpr int kFormat = 1;
// A tune report is a few megabytes at most (its plot points are capped); anything far larger is
// not one.
constexpr std::uint64_t kMaxReportBytes = std::uint64_t{256} << 20;

Diagnostic merge_error(std::string message, std::vector<std::string> notes = {}) {
  Diagnostic d = make_error("E-TUNE-006", std::move(message), std::nullopt, std::move(notes));
  d.stage = "tune";
  return d;
}

std::string thousands(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s.push_back(',');
    s.push_back(digits[i]);
  }
  return s;
}

// The fields of a reported entry, in JSON order: one list for writing and reading them.
struct Fields {
  std::vector<std::pair<const char*, std::uint64_t Entry::*>> counts = {
      {"rank", &Entry::rank},
      {"index", &Entry::index},
      {"cycles", &Entry::cycles},
      {"trace_cycles", &Entry::trace_cycles},
      {"live_slices", &Entry::live_slices},
      {"lanes", &Entry::lanes},
      {"trf_bytes", &Entry::trf_bytes},
      {"trf_misses", &Entry::trf_misses},
      {"pack_size", &Entry::pack_size},
      {"time_broadcast", &Entry::time_broadcast},
      {"read_size", &Entry::read_size},
      {"inner_time", &Entry::inner_time},
      {"slot_capacity", &Entry::slot_capacity}};
  std::vector<std::pair<const char*, std::string Entry::*>> texts = {
      {"bottleneck", &Entry::bottleneck},
      {"read_width", &Entry::read_width},
      {"lane_mode", &Entry::lane_mode},
      {"mapping", &Entry::mapping}};
};
const Fields kFields;

ojson entry_json(const Entry& e) {
  ojson j = ojson::object();
  for (const auto& [name, field] : kFields.counts) j[name] = e.*field;
  j["mac_utilization"] = e.mac_utilization;
  for (const auto& [name, field] : kFields.texts) j[name] = e.*field;
  j["mappings"] = ojson(e.mappings);
  j["spec"] = e.spec;
  return j;
}

Result<Entry> entry_from_json(const nlohmann::json& j, const std::string& path) {
  try {
    Entry e;
    for (const auto& [name, field] : kFields.counts) e.*field = j.at(name).get<std::uint64_t>();
    e.mac_utilization = j.at("mac_utilization").get<double>();
    for (const auto& [name, field] : kFields.texts) e.*field = j.at(name).get<std::string>();
    e.mappings = j.at("mappings").get<std::map<std::string, std::string>>();
    e.spec = j.at("spec").get<std::string>();
    return e;
  } catch (const nlohmann::json::exception& ex) {
    return merge_error(fmt::format("'{}': a ranked kernel is incomplete ({})", path, ex.what()));
  }
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

Result<nlohmann::json> read_json(const std::string& path) {
  auto text = read_input_file(path, kMaxReportBytes, "--merge input");
  if (!text) return text.diagnostics();
  auto doc = nlohmann::json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || doc.value("tool", "") != kTool)
    return merge_error(fmt::format("'{}' is not the JSON of `tujit tune --json`", path));
  return doc;
}

Result<Report> report_from_json(const nlohmann::json& doc, const std::string& path) {
  try {
    Report r;
    r.einsum = doc.at("einsum").get<std::string>();
    r.sizes = doc.at("sizes").get<std::string>();
    r.dtype = doc.at("dtype").get<std::string>();
    r.accumulator = doc.at("accumulator").get<std::string>();
    r.shard_count = doc.at("shard").at("count").get<std::uint64_t>();
    r.shards = doc.at("shard").at("indices").get<std::vector<std::uint64_t>>();
    r.space = doc.at("space").get<std::uint64_t>();
    r.shard_size = doc.at("shard_size").get<std::uint64_t>();
    r.searched = doc.at("searched").get<std::uint64_t>();
    r.valid = doc.at("valid").get<std::uint64_t>();
    r.modelled = doc.at("modelled").get<std::uint64_t>();
    r.seconds = doc.at("seconds").get<double>();
    r.cpu_seconds = doc.at("cpu_seconds").get<double>();
    r.threads = doc.at("threads").get<unsigned>();
    r.complete = doc.at("complete").get<bool>();
    r.top = doc.at("top").get<std::size_t>();
    r.refused = doc.at("refused").get<std::map<std::string, std::uint64_t>>();
    r.pruned = doc.at("pruned").get<std::map<std::string, std::uint64_t>>();
    for (const char* list : {"best", "pareto"})
      for (const auto& e : doc.at(list)) {
        auto entry = entry_from_json(e, path);
        if (!entry) return entry.diagnostics();
        (std::string(list) == "best" ? r.best : r.pareto).push_back(std::move(*entry));
      }
    for (const auto& pt : doc.at("points"))
      r.points.push_back({pt.at(0).get<std::uint64_t>(), pt.at(1).get<std::uint64_t>()});
    return r;
  } catch (const nlohmann::json::exception& ex) {
    return merge_error(fmt::format("'{}' is not a complete tune report ({})", path, ex.what()));
  }
}

std::vector<Entry> front_of(std::vector<Entry> entries) {
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.live_slices != b.live_slices ? a.live_slices < b.live_slices : entry_before(a, b);
  });
  std::vector<Entry> front;
  for (Entry& e : entries)
    if (front.empty() || e.cycles < front.back().cycles) front.push_back(std::move(e));
  return front;
}

} // namespace

Result<Report> make_report(const Problem& p, const TuneResult& t, std::size_t top,
                           std::uint64_t shard_index, std::uint64_t shard_count,
                           std::uint64_t max_bytes) {
  Report r;
  r.einsum = p.einsum;
  r.sizes = p.sizes_text();
  r.dtype = p.dtype_text();
  r.accumulator = std::string(ir::name(p.accumulator));
  r.shard_count = shard_count;
  r.shards = {shard_index};
  r.space = t.space;
  r.shard_size = t.shard_size;
  r.searched = t.searched;
  r.valid = t.valid;
  r.modelled = t.modelled;
  r.seconds = t.seconds;
  r.cpu_seconds = t.cpu_seconds;
  r.threads = t.threads;
  r.complete = t.complete;
  r.top = top;
  r.refused = t.refused;
  r.pruned = t.pruned;
  r.points = t.points;
  for (const Ranked& x : t.best) {
    auto e = ranked_entry(p, x, t.space, max_bytes);
    if (!e) return e.diagnostics();
    e->rank = r.best.size() + 1;
    r.best.push_back(std::move(*e));
  }
  for (const Ranked& x : t.pareto) {
    auto e = ranked_entry(p, x, t.space, max_bytes);
    if (!e) return e.diagnostics();
    r.pareto.push_back(std::move(*e));
  }
  return r;
}

double per_core_rate(const Report& r) {
  return r.cpu_seconds > 0 ? static_cast<double>(r.searched) / r.cpu_seconds : 0.0;
}

ojson report_json(const Report& r) {
  ojson j = {{"tool", kTool},
             {"format", kFormat},
             {"einsum", r.einsum},
             {"sizes", r.sizes},
             {"dtype", r.dtype},
             {"accumulator", r.accumulator},
             {"shard", {{"count", r.shard_count}, {"indices", r.shards}}},
             {"space", r.space},
             {"shard_size", r.shard_size},
             {"searched", r.searched},
             {"valid", r.valid},
             {"modelled", r.modelled},
             {"seconds", r.seconds},
             {"cpu_seconds", r.cpu_seconds},
             {"candidates_per_cpu_second", per_core_rate(r)},
             {"threads", r.threads},
             {"complete", r.complete},
             {"top", r.top}};
  j["refused"] = ojson(r.refused);
  j["pruned"] = ojson(r.pruned);
  j["best"] = ojson::array();
  for (const Entry& e : r.best) j["best"].push_back(entry_json(e));
  j["pareto"] = ojson::array();
  for (const Entry& e : r.pareto) j["pareto"].push_back(entry_json(e));
  j["points"] = ojson::array();
  for (const PlotPoint& pt : r.points) j["points"].push_back({pt.live_slices, pt.cycles});
  if (!r.notes.empty()) j["notes"] = r.notes;
  return j;
}

std::string report_text(const Report& r) {
  std::ostringstream o;
  o << fmt::format("tujit tune {}  {}  {} → {}\n", r.einsum, r.sizes, r.dtype, r.accumulator);
  o << fmt::format(
      "searched {} of {} candidates{} in {:.1f} s on {} thread(s), {} per core-second:"
      " {} valid, {} modelled\n",
      thousands(r.searched), thousands(r.space),
      r.shard_count > 1 ? fmt::format(" ({} of {} shards)", r.shards.size(), r.shard_count) : "",
      r.seconds, r.threads, thousands(static_cast<std::uint64_t>(per_core_rate(r) + 0.5)),
      thousands(r.valid), thousands(r.modelled));
  if (!r.complete) o << "  (the --budget ran out: the ranking covers the candidates searched)\n";
  if (!r.refused.empty()) {
    o << "refused by rule:";
    for (const auto& [code, n] : r.refused) o << fmt::format(" {} {}", code, thousands(n));
    o << "\n";
  }
  if (!r.pruned.empty()) {
    o << "pruned while generating (partial assignments):";
    for (const auto& [code, n] : r.pruned) o << fmt::format(" {} {}", code, thousands(n));
    o << "\n";
  }
  if (r.best.empty()) {
    for (const auto& n : r.notes) o << "note: " << n << "\n";
    return o.str();
  }
  o << "\n"
    << fmt::format(
           "{:>4} {:>8} {:>8} {:>6} {:<14} {:>6} {:>5} {:>7} {:>7} {:>2} {:>10} {:<11} {}\n",
           "rank", "cycles", "trace", "MAC %", "bottleneck", "slices", "lanes", "TRF B", "slots",
           "PS", "ReadSize", "mode", "mapping");
  for (const Entry& e : r.best)
    o << fmt::format(
        "{:>4} {:>8} {:>8} {:>6.1f} {:<14} {:>6} {:>5} {:>7} {:>7} {:>2} {:>10} {:<11} "
        "{}\n",
        e.rank, e.cycles, e.trace_cycles, 100.0 * e.mac_utilization, e.bottleneck, e.live_slices,
        e.lanes, e.trf_bytes, fmt::format("{}/{}", e.inner_time, e.slot_capacity), e.pack_size,
        fmt::format("{} {}", e.read_size, e.read_width), e.lane_mode, e.mapping);
  if (!r.pareto.empty()) {
    o << "\nPareto front (fewest cycles on at most that many live slices):\n";
    for (const Entry& e : r.pareto)
      o << fmt::format("  {:>4} slices  {:>10} cycles  candidate {}\n", e.live_slices, e.cycles,
                       e.index);
  }
  for (const auto& n : r.notes) o << "note: " << n << "\n";
  return o.str();
}

std::string report_csv(const Report& r) {
  std::string s = "status,rank,index,cycles,trace_cycles,mac_utilization,bottleneck,live_slices,"
                  "lanes,trf_bytes,trf_misses,inner_time,slot_capacity,pack_size,read_size,"
                  "read_width,time_broadcast,lane_mode";
  for (const auto& [name, slot] : kChainSlots) s += std::string(",") + name;
  s += "\n";
  const auto row = [&](const char* status, const Entry& e) {
    s += fmt::format("{},{},{},{},{},{:.6f},{},{},{},{},{},{},{},{},{},{},{},{}", status, e.rank,
                     e.index, e.cycles, e.trace_cycles, e.mac_utilization, e.bottleneck,
                     e.live_slices, e.lanes, e.trf_bytes, e.trf_misses, e.inner_time,
                     e.slot_capacity, e.pack_size, e.read_size, e.read_width, e.time_broadcast,
                     e.lane_mode);
    for (const auto& [name, slot] : kChainSlots) {
      auto it = e.mappings.find(name);
      s += ','; // not `"," + std::string`: g++ 12's false -Wrestrict at -O3
      s += csv_field(it == e.mappings.end() ? "" : it->second);
    }
    s += "\n";
  };
  for (const Entry& e : r.best) row("best", e);
  for (const Entry& e : r.pareto) row("pareto", e);
  return s;
}

Result<Report> merge_reports(const std::vector<std::string>& paths) {
  if (paths.empty()) return merge_error("--merge needs the JSON of at least one shard");
  Report out;
  std::set<std::uint64_t> seen;
  std::vector<Entry> best, pareto;
  for (const std::string& path : paths) {
    auto doc = read_json(path);
    if (!doc) return doc.diagnostics();
    auto r = report_from_json(*doc, path);
    if (!r) return r.diagnostics();
    if (&path == &paths.front()) {
      out = *r;
      out.shards.clear();
      out.searched = out.valid = out.modelled = out.shard_size = 0;
      out.seconds = out.cpu_seconds = 0;
      out.threads = 0;
      out.complete = true;
      out.refused.clear();
      out.points.clear();
    } else if (r->einsum != out.einsum || r->sizes != out.sizes || r->dtype != out.dtype ||
               r->space != out.space || r->shard_count != out.shard_count) {
      return merge_error(
          fmt::format("'{}' comes from another search than '{}'", path, paths.front()),
          {fmt::format("{} {} {} ({} candidates, {} shards) vs {} {} {} ({} candidates, {} "
                       "shards)",
                       r->einsum, r->sizes, r->dtype, r->space, r->shard_count, out.einsum,
                       out.sizes, out.dtype, out.space, out.shard_count)});
    }
    for (std::uint64_t s : r->shards)
      if (!seen.insert(s).second)
        return merge_error(fmt::format("'{}' holds shard {}/{} again", path, s, r->shard_count),
                           {"merge each shard of one search once"});
    out.shards.insert(out.shards.end(), r->shards.begin(), r->shards.end());
    out.shard_size += r->shard_size;
    out.searched += r->searched;
    out.valid += r->valid;
    out.modelled += r->modelled;
    out.seconds = std::max(out.seconds, r->seconds);
    out.cpu_seconds += r->cpu_seconds;
    out.threads += r->threads;
    out.complete = out.complete && r->complete;
    out.top = std::max(out.top, r->top);
    for (const auto& [code, n] : r->refused) out.refused[code] += n;
    best.insert(best.end(), r->best.begin(), r->best.end());
    pareto.insert(pareto.end(), r->pareto.begin(), r->pareto.end());
    for (const PlotPoint& pt : r->points)
      if (out.points.size() < kMaxPlotPoints) out.points.push_back(pt);
  }
  std::sort(out.shards.begin(), out.shards.end());
  for (std::uint64_t s = 0; s < out.shard_count; ++s)
    if (!seen.count(s))
      out.notes.push_back(fmt::format("shard {}/{} is in no merged file: its candidates were not "
                                      "searched",
                                      s, out.shard_count));
  if (seen.size() < out.shard_count) out.complete = false;
  std::sort(best.begin(), best.end(), entry_before);
  if (best.size() > out.top) best.resize(out.top);
  for (std::size_t i = 0; i < best.size(); ++i) best[i].rank = i + 1;
  out.best = std::move(best);
  out.pareto = front_of(std::move(pareto));
  std::sort(out.points.begin(), out.points.end(), [](const PlotPoint& a, const PlotPoint& b) {
    return a.live_slices != b.live_slices ? a.live_slices < b.live_slices : a.cycles < b.cycles;
  });
  return out;
}

} // namespace tujit::tune

// `tujit explain FILE [--kernel NAME] [--json]` (docs/cli.md §4): for a person, each stage of each
// kernel with its input and output mappings and its derived parameters as an aligned table.
// Then the kernel's Sequencer IR program (ir/seq/) when it has a contraction chain. `--json`
// prints check's JSON document (check_report.h) with an "ir" object per kernel.
#include "harness/cli/check_report.h"
#include "harness/cli/command.h"
#include "harness/cli/derived_json.h"
#include "harness/cli/diagnostic_json.h"
#include "harness/cli/kernel_size.h"
#include "harness/cycles/cycle_report.h"
#include "harness/run/run_footprint.h"
#include "ir/seq/fetch_program.h"
#include "ir/seq/lower_contraction.h"
#include "ir/seq/vector_program.h"
#include "ir/verify/outer_util.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <ostream>

namespace tujit::cli {

namespace {

/// "Time m![A]  Packet m![K]" for the slots the tensor's kind has; Slice too when `slice`.
std::string mappings_line(const ir::TensorType& t, bool slice = false) {
  std::string s =
      std::string(ir::tensor_type_name(t.kind)) + "<" + std::string(ir::name(t.dtype)) + ">";
  for (std::size_t i = 0; i < ir::kSlotCount; ++i) {
    const auto slot = static_cast<ir::Slot>(i);
    // Chip/Cluster do not change along a chain, nor Slice but at the Switch Engine
    // (docs/switch.md); the stage view shows the rest.
    if (slot == ir::Slot::Chip || slot == ir::Slot::Cluster || (slot == ir::Slot::Slice && !slice))
      continue;
    if (const auto* m = t.get(slot))
      s += "  " + std::string(ir::to_string(slot)) + " " +
           ir::verify::outer_detail::mtext(m->mapping);
  }
  return s;
}

void explain_kernel(const ir::Kernel& k, const ir::verify::KernelCheck& kc, const SourceBuffer& src,
                    std::ostream& os) {
  os << "kernel " << k.name << ": " << (k.ok && kc.ok() ? "ok" : "FAILED") << "\n";
  for (std::size_t i = 0; i < k.stages.size(); ++i) {
    const auto& s = k.stages[i];
    auto [line, col] = src.line_col(s.name_span.offset);
    os << "\n  " << i + 1 << ". " << ir::stage_name(s) << "  (" << src.name() << ":" << line << ":"
       << col << ")  rules: " << ir::descriptor(s.op).rules << "\n";
    const bool switches = s.unit() == ir::StageUnit::SwitchEngine;
    os << "     in:  " << mappings_line(s.input, switches) << "\n";
    if (s.trf) os << "     trf: " << mappings_line(*s.trf) << "  (" << s.trf_name << ")\n";
    os << "     out: " << mappings_line(s.output, switches) << "\n";
    if (i >= kc.stages.size()) continue;
    const auto& sc = kc.stages[i];
    std::size_t width = 0;
    for (const auto& [key, v] : sc.derived) width = std::max(width, key.size());
    for (const auto& [key, v] : sc.derived)
      os << "       " << key << std::string(width - key.size() + 2, ' ') << to_text(v) << "\n";
    for (const auto& n : sc.notes) os << "     note: " << n << "\n";
    for (const auto& d : sc.diagnostics)
      os << "     error[" << d.code << "]: " << d.message << "\n";
  }
}

/// The kernel's Sequencer IR program, or nothing when it has errors or no contraction chain.
std::optional<ir::seq::ContractionProgram> program_of(const ir::Kernel& k,
                                                      const ir::verify::KernelCheck& kc) {
  if (!k.ok || !kc.ok()) return std::nullopt;
  auto p = ir::seq::lower_contraction(ir::verify::CheckedKernel(k, kc));
  if (!p) return std::nullopt;
  return std::move(*p);
}

/// The kernel's DM data-path programs (empty when it has errors or fetches nothing).
std::vector<ir::seq::FetchProgram> fetches_of(const ir::Kernel& k,
                                              const ir::verify::KernelCheck& kc) {
  if (!k.ok || !kc.ok()) return {};
  auto f = ir::seq::lower_fetches(ir::verify::CheckedKernel(k, kc));
  return f ? std::move(*f) : std::vector<ir::seq::FetchProgram>{};
}

/// The kernel's Vector Engine passes, one per vector_final (empty when it has errors or runs
/// none).
std::vector<ir::seq::VectorProgram> vectors_of(const ir::Kernel& k,
                                               const ir::verify::KernelCheck& kc) {
  std::vector<ir::seq::VectorProgram> out;
  if (!k.ok || !kc.ok()) return out;
  for (std::size_t i = 0; i < k.stages.size(); ++i)
    if (k.stages[i].vector && k.stages[i].vector->kind == ir::VectorCallKind::Final)
      if (auto v = ir::seq::lower_vector(k, i)) out.push_back(std::move(v->program));
  return out;
}

nlohmann::json fetch_json(const ir::seq::FetchProgram& p) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& e : p.sequencer.entries)
    entries.push_back({{"size", e.size}, {"stride", e.stride}});
  nlohmann::json j;
  j["source"] = p.source;
  j["context"] = p.context == ir::datapath::FetchContext::Main ? "main" : "sub";
  j["sequencer"] = p.sequencer.to_string();
  j["entries"] = entries;
  j["read_size"] = p.read_size;
  j["reads_per_packet"] = p.reads_per_packet;
  j["fetch_cycles"] = p.fetch_cycles;
  j["table_lookup"] =
      p.lookup_to ? nlohmann::json(std::string(ir::name(*p.lookup_to))) : nlohmann::json();
  j["cast"] = p.cast_to ? nlohmann::json(std::string(ir::name(*p.cast_to))) : nlohmann::json();
  j["zero_point"] = p.zero_point ? nlohmann::json(*p.zero_point) : nlohmann::json();
  j["flits_per_packet"] = p.flits_per_packet;
  j["consumer"] = p.consumer == ir::seq::FetchConsumer::Stream  ? "contract_outer"
                  : p.consumer == ir::seq::FetchConsumer::ToTrf ? "to_trf"
                                                                : "to_vrf";
  j["short_command"] = p.short_command ? nlohmann::json(*p.short_command) : nlohmann::json();
  if (!p.short_command_refusal.empty()) j["short_command_refusal"] = p.short_command_refusal;
  j["text"] = ir::seq::to_text(p);
  return j;
}

/// `text` with every line indented by four spaces.
void print_indented(const std::string& text, std::ostream& os) {
  for (std::size_t b = 0, e; b < text.size(); b = e + 1) {
    e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    os << "    " << text.substr(b, e - b) << "\n";
  }
}

nlohmann::json ir_json(const ir::seq::ContractionProgram& p) {
  nlohmann::json nest = nlohmann::json::array();
  for (const auto& l : p.cycle_nest)
    nest.push_back({{"size", l.size},
                    {"flit_stride", l.flit_stride},
                    {"trf_stride", l.trf_stride},
                    {"slot_stride", l.slot_stride}});
  nlohmann::json j;
  j["fingerprint"] = fmt::format("{:016x}", ir::seq::fingerprint(p));
  j["cycle_nest"] = nest;
  j["packet"] = {{"cells", p.op},
                 {"columns", p.columns},
                 {"group", p.group},
                 {"depth", p.depth},
                 {"read_size", p.read_size}};
  j["text"] = ir::seq::to_text(p);
  return j;
}

} // namespace

int run_explain(const std::vector<std::string>& args, CommandIO& io) {
  boost::program_options::options_description extra;
  add_max_bytes_option(extra);
  FileCommandOptions opt;
  boost::program_options::variables_map vm;
  if (auto rc = parse_file_command("explain", "Shows each stage's mappings and derived parameters.",
                                   args, io, opt, &extra, " [--max-bytes SIZE]", &vm))
    return *rc;
  const auto max_bytes = max_bytes_option(vm, "explain", io);
  if (!max_bytes) return kExitUsage;
  CheckedSpec c;
  if (auto rc = load_checked("explain", opt.file, opt.kernel, io, c)) return *rc;
  const ir::SpecFile& file = c.analysis->file;
  // The size limit before lowering (run_footprint.h): a kernel too large to run shows its stages,
  // not its Sequencer IR or cycles.
  std::vector<bool> sized(c.selected.size(), true);
  for (std::size_t n = 0; n < c.selected.size(); ++n) {
    const ir::Kernel& k = file.kernels[c.selected[n]];
    if (!k.ok || !c.checks[n].ok()) continue;
    if (auto d = run::kernel_size_error(file, c.checked(n), *max_bytes)) {
      c.shown.push_back(*d);
      sized[n] = false;
    }
  }
  const auto lowered = [&](std::size_t n) {
    const ir::Kernel& k = file.kernels[c.selected[n]];
    return sized[n] ? program_of(k, c.checks[n]) : std::nullopt;
  };
  const auto fetches = [&](std::size_t n) {
    const ir::Kernel& k = file.kernels[c.selected[n]];
    return sized[n] ? fetches_of(k, c.checks[n]) : std::vector<ir::seq::FetchProgram>{};
  };
  if (opt.json) {
    nlohmann::json j = check_json(c);
    for (std::size_t n = 0; n < c.selected.size(); ++n) {
      const auto program = lowered(n);
      const ir::Kernel& k = file.kernels[c.selected[n]];
      j["kernels"][n]["ir"] = program ? ir_json(*program) : nlohmann::json(nullptr);
      nlohmann::json fetch_list = nlohmann::json::array();
      for (const auto& f : fetches(n)) fetch_list.push_back(fetch_json(f));
      j["kernels"][n]["fetches"] = fetch_list;
      nlohmann::json vectors = nlohmann::json::array();
      for (const auto& v : vectors_of(k, c.checks[n]))
        vectors.push_back({{"text", ir::seq::to_text(v)}});
      j["kernels"][n]["vector_passes"] = vectors;
      j["kernels"][n]["cycles"] = program ? nlohmann::json(cycles::cycle_summary_json(
                                                *program, cycles::cycle_options_for(c.checked(n))))
                                          : nlohmann::json(nullptr);
    }
    io.out << j.dump(2) << "\n";
    return c.status();
  }
  const SourceBuffer& src = file.source;
  report_all(io, c.shown, &src, kExitOk);
  for (std::size_t n = 0; n < c.selected.size(); ++n) {
    if (n) io.out << "\n";
    const ir::Kernel& k = file.kernels[c.selected[n]];
    explain_kernel(k, c.checks[n], src, io.out);
    if (!sized[n]) io.out << "\n  (too large to lower within --max-bytes: no Sequencer IR)\n";
    const auto fetch_list = fetches(n);
    if (!fetch_list.empty()) {
      io.out << "\n  Data path from DM (Fetch sequencer → Fetch Adapter → Collect):\n";
      for (const auto& f : fetch_list) print_indented(ir::seq::to_text(f), io.out);
    }
    for (const auto& v : vectors_of(k, c.checks[n])) {
      io.out << "\n  Vector Engine pass (docs/vector-engine.md §4):\n";
      print_indented(ir::seq::to_text(v), io.out);
    }
    if (const auto program = lowered(n)) {
      io.out << "\n  Sequencer IR (tujit compile --emit seq):\n";
      print_indented(ir::seq::to_text(*program), io.out);
      io.out << "\n  Cycles (tujit cycles):\n";
      print_indented(cycles::cycle_summary_text(*program, cycles::cycle_options_for(c.checked(n))),
                     io.out);
    }
  }
  return c.status();
}

} // namespace tujit::cli

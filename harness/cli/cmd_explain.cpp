// `tujit explain FILE [--kernel NAME] [--json]` (spec/cli.md): for a person, each stage of each
// kernel with its input and output mappings and its derived parameters as an aligned table.
// Then the kernel's Sequencer IR program (ir/seq/) when it has a contraction chain. `--json`
// prints check's JSON document (check_report.h) with an "ir" object per kernel.
#include "harness/cli/check_report.h"
#include "harness/cli/command.h"
#include "harness/cli/derived_json.h"
#include "harness/cycles/cycle_report.h"
#include "ir/seq/lower_contraction.h"
#include "ir/verify/outer_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <ostream>

namespace tujit::cli {

namespace {

/// "Time m![A]  Packet m![K]" for the slots the tensor's kind has.
std::string mappings_line(const ir::TensorType& t) {
  std::string s =
      std::string(ir::tensor_type_name(t.kind)) + "<" + std::string(ir::name(t.dtype)) + ">";
  for (std::size_t i = 0; i < ir::kSlotCount; ++i) {
    const auto slot = static_cast<ir::Slot>(i);
    // Chip/Cluster/Slice do not change along a chain; the stage view shows the rest.
    if (slot == ir::Slot::Chip || slot == ir::Slot::Cluster || slot == ir::Slot::Slice) continue;
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
    os << "\n  " << i + 1 << ". " << ir::to_string(s.op) << "  (" << src.name() << ":" << line
       << ":" << col << ")\n";
    os << "     in:  " << mappings_line(s.input) << "\n";
    if (s.trf) os << "     trf: " << mappings_line(*s.trf) << "  (" << s.trf_name << ")\n";
    os << "     out: " << mappings_line(s.output) << "\n";
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
  auto p = ir::seq::lower_contraction(k);
  if (!p) return std::nullopt;
  return std::move(*p);
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
  FileCommandOptions opt;
  if (auto rc = parse_file_command("explain", "Shows each stage's mappings and derived parameters.",
                                   args, io, opt))
    return *rc;
  CheckedSpec c;
  if (auto rc = load_checked("explain", opt.file, opt.kernel, io, c)) return *rc;
  if (opt.json) {
    nlohmann::json j = check_json(c);
    for (std::size_t n = 0; n < c.selected.size(); ++n) {
      const auto program = program_of(c.analysis->file.kernels[c.selected[n]], c.checks[n]);
      const ir::Kernel& k = c.analysis->file.kernels[c.selected[n]];
      j["kernels"][n]["ir"] = program ? ir_json(*program) : nlohmann::json(nullptr);
      j["kernels"][n]["cycles"] =
          program
              ? nlohmann::json(cycles::cycle_summary_json(*program, cycles::cycle_options_for(k)))
              : nlohmann::json(nullptr);
    }
    io.out << j.dump(2) << "\n";
    return c.status();
  }
  const SourceBuffer& src = c.analysis->file.source;
  for (const auto& d : c.shown) io.err << render(d, &src);
  for (std::size_t n = 0; n < c.selected.size(); ++n) {
    if (n) io.out << "\n";
    const ir::Kernel& k = c.analysis->file.kernels[c.selected[n]];
    explain_kernel(k, c.checks[n], src, io.out);
    if (const auto program = program_of(k, c.checks[n])) {
      io.out << "\n  Sequencer IR (tujit compile --emit seq):\n";
      const std::string text = ir::seq::to_text(*program);
      for (std::size_t b = 0, e; b < text.size(); b = e + 1) {
        e = text.find('\n', b);
        if (e == std::string::npos) e = text.size();
        io.out << "    " << text.substr(b, e - b) << "\n";
      }
      io.out << "\n  Cycles (tujit cycles):\n";
      const std::string summary =
          cycles::cycle_summary_text(*program, cycles::cycle_options_for(k));
      for (std::size_t b = 0, e; b < summary.size(); b = e + 1) {
        e = summary.find('\n', b);
        if (e == std::string::npos) e = summary.size();
        io.out << "    " << summary.substr(b, e - b) << "\n";
      }
    }
  }
  return c.status();
}

} // namespace tujit::cli

// `tujit explain FILE [--kernel NAME] [--json]` (spec/cli.md): for a person, each stage of each
// kernel with its input and output mappings and its derived parameters as an aligned table.
// `--json` prints check's JSON document (check_report.h). The Sequencer IR loop nest and the
// cycle summary belong to later issues and are not printed.
#include "harness/cli/check_report.h"
#include "harness/cli/command.h"
#include "harness/cli/derived_json.h"
#include "ir/verify/outer_util.h"

#include <algorithm>
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

} // namespace

int run_explain(const std::vector<std::string>& args, CommandIO& io) {
  FileCommandOptions opt;
  if (auto rc = parse_file_command("explain", "Shows each stage's mappings and derived parameters.",
                                   args, io, opt))
    return *rc;
  CheckedSpec c;
  if (auto rc = load_checked("explain", opt.file, opt.kernel, io, c)) return *rc;
  if (opt.json) {
    io.out << check_json(c).dump(2) << "\n";
    return c.status();
  }
  const SourceBuffer& src = c.analysis->file.source;
  for (const auto& d : c.shown) io.err << render(d, &src);
  for (std::size_t n = 0; n < c.selected.size(); ++n) {
    if (n) io.out << "\n";
    explain_kernel(c.analysis->file.kernels[c.selected[n]], c.checks[n], src, io.out);
  }
  return c.status();
}

} // namespace tujit::cli

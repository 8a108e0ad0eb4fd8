// `tujit compile FILE [--kernel NAME] --emit seq|llvm|asm [-o PATH] [--force] [--checked]`
// (docs/cli.md): the Sequencer IR program `tujit run` executes for the kernel (its chain and the
// address streams of its operands and output, with random inputs over their tiles), the LLVM IR
// the JIT generates for it after optimisation, or the host assembly. Output goes to stdout, or
// atomically to PATH (an existing file is kept unless --force).
#include "codegen/contraction_jit.h"
#include "harness/cli/check_report.h"
#include "harness/cli/command.h"
#include "harness/cli/diagnostic_json.h"
#include "harness/cli/kernel_size.h"
#include "harness/cli/option_values.h"
#include "harness/run/run_footprint.h"
#include "harness/run/run_plan.h"
#include "ir/lang/stage_descriptor.h"
#include "ir/seq/commit_program.h"
#include "ir/seq/fetch_program.h"
#include "ir/seq/lower_contraction.h"
#include "ir/seq/run_program.h"
#include "ir/verify/dma.h"
#include "runtime/io/output_file.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <ostream>

namespace tujit::cli {

namespace po = boost::program_options;

namespace {

/// The DMA transfers around the run (relayouts the run reads through as aliases of their HBM
/// source, docs/dma.md) and its writes into DM (the Commit Engine's write sequencer,
/// docs/output-path.md §3), listed with what the cycle models count.
Result<std::string> memory_text(const ir::verify::CheckedKernel& checked, const SourceBuffer& src) {
  const ir::Kernel& kernel = checked;
  std::string text;
  for (std::size_t i = 0; i < kernel.stages.size(); ++i) {
    const ir::Stage& s = kernel.stages[i];
    if (s.unit() == ir::StageUnit::CommitEngine) {
      auto w = ir::seq::lower_commit(checked, i);
      if (!w) return std::move(w).take_diagnostics();
      text += ir::seq::to_text(*w);
      continue;
    }
    if (!ir::is_dma(s.op)) continue;
    const auto* d = checked.derived<ir::verify::DmaDerived>(s);
    if (d == nullptr)
      return make_error(
          "E-RUN-102", fmt::format("internal: `{}` has no verified transfer", ir::to_string(s.op)));
    text += fmt::format("dma {} ({}:{}): {}, {} B in {} packets of {} B, {} requests of 256 B, "
                        "{} DMNs, {} engines{}\n",
                        ir::to_string(s.op), src.name(), src.line_col(s.span.offset).first,
                        ir::verify::to_string(d->route), d->bytes, d->packets, d->packet_bytes,
                        d->requests, d->dmns, d->engines,
                        d->broadcast.empty() ? "" : ", broadcast over " + d->broadcast);
  }
  if (!text.empty()) text += "\n";
  return text;
}

} // namespace

int run_compile(const std::vector<std::string>& args, CommandIO& io) {
  po::options_description extra;
  extra.add_options()("emit", po::value<std::string>()->default_value("seq"),
                      "seq (Sequencer IR) | llvm (optimised LLVM IR) | asm (host assembly)")(
      "output,o", po::value<std::string>(), "write to PATH instead of stdout")(
      "force", "overwrite an existing -o file")("checked",
                                                "generate bounds checks on every load and store");
  add_max_bytes_option(extra);
  FileCommandOptions opt;
  po::variables_map vm;
  if (auto rc = parse_file_command(
          "compile", "Shows what a kernel compiles to: its Sequencer IR, LLVM IR or assembly.",
          args, io, opt, &extra,
          " --emit seq|llvm|asm [-o PATH] [--force] [--checked] [--max-bytes SIZE]", &vm))
    return *rc;
  const auto max_bytes = max_bytes_option(vm, "compile", io);
  if (!max_bytes) return kExitUsage;
  const std::string emit = vm["emit"].as<std::string>();
  if (emit != "seq" && emit != "llvm" && emit != "asm") {
    io.err << "tujit compile: --emit wants seq, llvm or asm, got '" << emit << "'\n";
    return kExitUsage;
  }
  // The output path before the work (runtime/io/output_file.h).
  if (auto rc = check_output_option(vm, "output", io)) return *rc;
  CheckedSpec c;
  const ir::Kernel* kernel = nullptr;
  if (auto rc = load_one_kernel("compile", opt, io, c, &kernel)) return *rc;
  const SourceBuffer& src = c.analysis->file.source;
  const auto show = [&](const Diagnostics& ds, int status) {
    return report_all(io, ds, &src, status);
  };
  if (auto d = run::kernel_size_error(c.analysis->file, c.checked(), *max_bytes))
    return show({*d}, kExitUserError);
  auto plan = run::plan_run(c.checked());
  if (!plan) return show(plan.diagnostics(), kExitUserError);
  const bool checked = vm.count("checked") > 0;
  std::string text;
  if (emit == "seq") {
    auto dma = memory_text(c.checked(), src);
    if (!dma) return show(dma.diagnostics(), kExitUserError);
    text = std::move(*dma);
  }
  // A kernel run command by command (docs/kernels.md §3): each command's program in order.
  for (const run::CommandRun& command : plan->commands) {
    auto tiles = ir::seq::input_tiles(c.analysis->file, *command.kernel, command.ops);
    if (!tiles) return show(tiles.diagnostics(), kExitUserError);
    auto program =
        ir::seq::lower_run(c.analysis->file, command.checked(), command.ops, *tiles, false);
    if (!program) return show(program.diagnostics(), kExitUserError);
    if (plan->commands.size() > 1)
      text += fmt::format("{}command `{}`\n", emit == "asm" ? "# " : "; ",
                          command.value.empty() ? "the result" : command.value);
    if (emit == "seq") {
      text += ir::seq::to_text(*program);
      continue;
    }
    auto generated = emit == "llvm" ? codegen::emit_llvm_ir(*program, checked)
                                    : codegen::emit_assembly(*program, checked);
    if (!generated) return show(generated.diagnostics(), kExitInternal);
    text += *generated;
  }
  if (!vm.count("output")) {
    io.out << text;
    return kExitOk;
  }
  if (auto d =
          runtime::io::write_file(vm["output"].as<std::string>(), text, vm.count("force") > 0)) {
    report(io, *d);
    return kExitUsage;
  }
  return kExitOk;
}

} // namespace tujit::cli

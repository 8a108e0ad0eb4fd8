// `tujit compile FILE [--kernel NAME] --emit seq|llvm|asm [-o PATH] [--force] [--checked]`
// (spec/cli.md): the kernel's Sequencer IR program, the LLVM IR the JIT generates for it after
// optimisation, or the host assembly. Output goes to stdout, or atomically to PATH (an existing
// file is kept unless --force).
#include "codegen/contraction_jit.h"
#include "codegen/fetch_jit.h"
#include "codegen/vector_jit.h"
#include "harness/cli/check_report.h"
#include "harness/cli/command.h"
#include "ir/seq/fetch_program.h"
#include "ir/seq/lower_contraction.h"
#include "ir/seq/vector_program.h"
#include "ir/seq/write_program.h"
#include "runtime/npy/npy.h"

#include <boost/program_options.hpp>

#include <ostream>
#include <span>

namespace tujit::cli {

namespace po = boost::program_options;

int run_compile(const std::vector<std::string>& args, CommandIO& io) {
  po::options_description extra;
  extra.add_options()("emit", po::value<std::string>()->default_value("seq"),
                      "seq (Sequencer IR) | llvm (optimised LLVM IR) | asm (host assembly)")(
      "output,o", po::value<std::string>(), "write to PATH instead of stdout")(
      "force", "overwrite an existing -o file")("checked",
                                                "generate bounds checks on every load and store");
  FileCommandOptions opt;
  po::variables_map vm;
  if (auto rc = parse_file_command(
          "compile", "Shows what a kernel compiles to: its Sequencer IR, LLVM IR or assembly.",
          args, io, opt, &extra, " --emit seq|llvm|asm [-o PATH] [--force] [--checked]", &vm))
    return *rc;
  const std::string emit = vm["emit"].as<std::string>();
  if (emit != "seq" && emit != "llvm" && emit != "asm") {
    io.err << "tujit compile: --emit wants seq, llvm or asm, got '" << emit << "'\n";
    return kExitUsage;
  }
  CheckedSpec c;
  const ir::Kernel* kernel = nullptr;
  if (auto rc = load_one_kernel("compile", opt, io, c, &kernel)) return *rc;
  const SourceBuffer& src = c.analysis->file.source;
  const auto show = [&](const Diagnostics& ds, int status) {
    for (const auto& d : ds) io.err << render(d, &src);
    return status;
  };
  auto fetches = ir::seq::lower_fetches(*kernel);
  if (!fetches) return show(fetches.diagnostics(), kExitUserError);
  auto vectors = ir::seq::lower_vectors(*kernel);
  if (!vectors) return show(vectors.diagnostics(), kExitUserError);
  // The book's sequencer pseudo types: a MemTensor read runs as a fetch, a write on its own.
  std::vector<ir::seq::WriteProgram> writes;
  for (std::size_t i = 0; i < kernel->stages.size(); ++i) {
    if (kernel->stages[i].op == ir::StageOp::MemRead) {
      auto r = ir::seq::lower_mem_read(*kernel, i);
      if (!r) return show(r.diagnostics(), kExitUserError);
      fetches->push_back(std::move(*r));
    } else if (kernel->stages[i].op == ir::StageOp::MemWrite) {
      auto w = ir::seq::lower_mem_write(*kernel, i);
      if (!w) return show(w.diagnostics(), kExitUserError);
      writes.push_back(std::move(*w));
    }
  }
  auto program = ir::seq::lower_contraction(*kernel);
  // A kernel that only moves data from DM (or runs a Vector Engine pass) has no contraction
  // program; its other programs are the IR.
  if (!program && fetches->empty() && vectors->empty() && writes.empty())
    return show(program.diagnostics(), kExitUserError);
  const bool checked = vm.count("checked") > 0;
  std::string text;
  if (emit == "seq") {
    for (const auto& f : *fetches) text += ir::seq::to_text(f) + "\n";
    for (const auto& v : *vectors) text += ir::seq::to_text(v) + "\n";
    for (const auto& w : writes) text += ir::seq::to_text(w) + "\n";
    if (program) text += ir::seq::to_text(*program);
  } else {
    // One module per program: the fetch chains first, then the contraction.
    const bool llvm = emit == "llvm";
    for (const auto& f : *fetches) {
      auto generated =
          llvm ? codegen::emit_llvm_ir(f, checked) : codegen::emit_assembly(f, checked);
      if (!generated) return show(generated.diagnostics(), kExitInternal);
      text += *generated;
    }
    for (const auto& v : *vectors) {
      auto generated =
          llvm ? codegen::emit_llvm_ir(v, checked) : codegen::emit_assembly(v, checked);
      if (!generated) return show(generated.diagnostics(), kExitInternal);
      text += *generated;
    }
    if (program) {
      auto generated = llvm ? codegen::emit_llvm_ir(*program, checked)
                            : codegen::emit_assembly(*program, checked);
      if (!generated) return show(generated.diagnostics(), kExitInternal);
      text += *generated;
    }
  }
  if (!vm.count("output")) {
    io.out << text;
    return kExitOk;
  }
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  if (auto d = runtime::write_file_atomically(
          vm["output"].as<std::string>(), std::span(bytes, text.size()), vm.count("force") > 0)) {
    io.err << render(*d, nullptr);
    if (!vm.count("force")) io.err << "(use --force to overwrite it)\n";
    return kExitUsage;
  }
  return kExitOk;
}

} // namespace tujit::cli

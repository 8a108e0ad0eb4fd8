#include "harness/cli/run_save_inputs.h"

#include "harness/run/run_inputs.h"
#include "runtime/io/output_file.h"
#include "runtime/npy/npy.h"
#include "runtime/npy/npy_convert.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace tujit::cli {

Result<std::vector<SavedInput>> save_run_inputs(const ir::SpecFile& file, const run::RunPlan& plan,
                                                run::RunRequest& req, const std::string& dir,
                                                bool overwrite) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir))
    return make_error("E-IO-002", fmt::format("--save-inputs: cannot use '{}' as a directory{}",
                                              dir, ec ? ": " + ec.message() : std::string()));
  const std::vector<const ir::KernelParam*> wanted = plan.inputs();
  std::vector<SavedInput> saved;
  for (const run::CommandRun& c : plan.commands) {
    // The parameters this command reads that no earlier command saved (the values commands hand
    // on are not inputs).
    std::vector<const ir::KernelParam*> fresh;
    for (const ir::KernelParam* p : c.ops.inputs())
      if (p != nullptr && p->tensor && std::count(wanted.begin(), wanted.end(), p) != 0)
        fresh.push_back(p);
    if (fresh.empty()) continue;
    auto tiles = ir::seq::input_tiles(file, *c.kernel, c.ops);
    if (!tiles) return std::move(tiles).take_diagnostics();
    auto inputs = run::make_inputs(file, c.ops, req, *tiles);
    if (!inputs) return std::move(inputs).take_diagnostics();
    for (const ir::KernelParam* p : fresh) {
      const runtime::LogicalTensor& contents = *inputs->tensors.at(p->name);
      SavedInput s{p->name, (fs::path(dir) / (p->name + ".npy")).string(), contents.shape()};
      // Raw codes (bf16 <u2, f8 |u1; f32 <f4 and integers as values): read back with --input,
      // every element gets the same bits, NaN payloads included (docs/cli.md §6.1).
      runtime::NpyConvertOptions raw;
      raw.raw_bits = true;
      const auto bytes = runtime::serialize_npy(runtime::npy_from_tensor(contents, raw));
      if (auto d = runtime::io::write_file(s.path, bytes, overwrite)) return *d;
      saved.push_back(std::move(s));
    }
    // The run reads exactly what was saved: the generated inputs become given ones.
    for (const ir::KernelParam* p : fresh)
      if (auto node = inputs->generated.extract(p->name)) req.given.insert(std::move(node));
  }
  return saved;
}

} // namespace tujit::cli

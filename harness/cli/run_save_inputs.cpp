#include "harness/cli/run_save_inputs.h"

#include "harness/run/run_inputs.h"
#include "runtime/io/output_file.h"
#include "runtime/npy/npy.h"
#include "runtime/npy/npy_convert.h"

#include <fmt/format.h>

#include <filesystem>

namespace tujit::cli {

Result<std::vector<SavedInput>> save_run_inputs(const ir::SpecFile& file, const ir::Kernel& kernel,
                                                const run::RunOperands& ops, run::RunRequest& req,
                                                const std::string& dir, bool overwrite) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir))
    return make_error("E-IO-002", fmt::format("--save-inputs: cannot use '{}' as a directory{}",
                                              dir, ec ? ": " + ec.message() : std::string()));
  auto tiles = ir::seq::input_tiles(file, kernel, ops);
  if (!tiles) return std::move(tiles).take_diagnostics();
  auto inputs = run::make_inputs(file, ops, req, *tiles);
  if (!inputs) return std::move(inputs).take_diagnostics();
  std::vector<SavedInput> saved;
  for (const ir::KernelParam* p : ops.inputs()) {
    if (p == nullptr || !p->tensor) continue;
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
  for (auto& [name, t] : inputs->generated) req.given[name] = std::move(t);
  return saved;
}

} // namespace tujit::cli

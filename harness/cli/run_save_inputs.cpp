#include "harness/cli/run_save_inputs.h"

#include "harness/cli/run_input_axes.h"
#include "runtime/io/output_file.h"
#include "runtime/npy/npy.h"
#include "runtime/npy/npy_convert.h"

#include <fmt/format.h>

#include <filesystem>

namespace tujit::cli {

Result<std::vector<SavedInput>> save_run_inputs(const ir::SpecFile& file, const ir::Kernel& kernel,
                                                const RunOperands& ops, RunRequest& req,
                                                const std::string& dir, bool overwrite) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir))
    return make_error("E-IO-002", fmt::format("--save-inputs: cannot use '{}' as a directory{}",
                                              dir, ec ? ": " + ec.message() : std::string()));
  const auto axes = run_input_axes(file, kernel, ops);
  std::vector<SavedInput> saved;
  for (const ir::KernelParam* p : ops.inputs()) {
    auto contents = run_input(*p, axes, req);
    if (!contents) return std::move(contents).take_diagnostics();
    SavedInput s{p->name, (fs::path(dir) / (p->name + ".npy")).string(), contents->shape()};
    const auto bytes = runtime::serialize_npy(runtime::npy_from_tensor(*contents));
    if (auto d = runtime::io::write_file(s.path, bytes, overwrite)) return *d;
    req.given[p->name] = std::move(*contents);
    saved.push_back(std::move(s));
  }
  return saved;
}

} // namespace tujit::cli

#include "harness/run/run_partial.h"

#include "runtime/interp/fetch_exec.h"
#include "runtime/interp/register_store.h"
#include "runtime/interp/stage_exec.h"
#include "runtime/layout/held_readback.h"
#include "runtime/layout/layout.h"

namespace tujit::run {
namespace {

/// One operand as its consumer reads it: the parameter laid out by its own type, or — when the
/// kernel fetches it — the DM image run through the fetch chain `collect`.
Result<runtime::DeviceImage> operand_image(const ir::SpecFile& file, const ir::Kernel& kernel,
                                           const ir::KernelParam& param,
                                           std::optional<std::size_t> collect,
                                           const runtime::LogicalTensor& contents,
                                           std::vector<ir::seq::FetchProgram>& fetches) {
  auto image = runtime::to_device(contents, *param.tensor);
  if (!image || !collect) return image;
  auto program = ir::seq::lower_fetch(kernel, *collect);
  if (!program) return std::move(program).take_diagnostics();
  auto collected = runtime::run_fetch(*program, *image, file.axes);
  fetches.push_back(std::move(*program));
  return collected;
}

} // namespace

Result<PartialRun> run_partial(const ir::SpecFile& file, const ir::Kernel& kernel,
                               const RunOperands& ops, const RunInputTensors& inputs,
                               bool ftz_results) {
  PartialRun run;
  auto stream = operand_image(file, kernel, *ops.stream, ops.stream_collect,
                              *inputs.tensors.at(ops.stream->name), run.fetches);
  if (!stream) return std::move(stream).take_diagnostics();
  std::optional<runtime::DeviceImage> trf;
  if (ops.trf != nullptr) {
    auto t = operand_image(file, kernel, *ops.trf, ops.trf_collect,
                           *inputs.tensors.at(ops.trf->name), run.fetches);
    // An in-kernel `.to_trf()`: the TRF operand is the store of its source's stream image.
    if (t && ops.trf_store) t = runtime::run_store(*ops.trf_store, *t);
    if (!t) return std::move(t).take_diagnostics();
    trf = std::move(*t);
  }
  auto r = runtime::exec_contraction_stages(kernel, ops.partial_first, ops.partial_last,
                                            std::move(*stream), trf ? &*trf : nullptr,
                                            {ftz_results});
  if (!r) return std::move(r).take_diagnostics();
  run.poisoned_outputs = runtime::poisoned_cells(*r);
  auto logical = runtime::from_device_held(r->image, ops.output_type(kernel), file.axes);
  if (!logical) return std::move(logical).take_diagnostics();
  run.output = std::move(*logical);
  return run;
}

} // namespace tujit::run

#include "harness/run/run_inputs.h"

#include "ir/seq/operand_streams.h"
#include "runtime/tensor/interleave.h"

#include <fmt/format.h>

#include <algorithm>

namespace tujit::run {
namespace {

Diagnostic input_error(const char* code, std::string message) {
  Diagnostic d = make_error(code, std::move(message));
  d.stage = "run";
  return d;
}

} // namespace

ir::seq::InputShapes input_shapes(const RunOperands& ops, const RunRequest& req,
                                  const ir::seq::InputShapes& tiles) {
  ir::seq::InputShapes shapes;
  for (const ir::KernelParam* p : ops.inputs()) {
    if (p == nullptr || !p->tensor) continue;
    const auto given = req.given.find(p->name);
    shapes[p->name] = given != req.given.end() ? given->second.axes : tiles.at(p->name);
  }
  // An interleaved pair is made over its tile (interleave_inputs).
  for (const RunOperands::Interleaved& i : ops.interleaved)
    shapes[i.param->name] = tiles.at(i.param->name);
  return shapes;
}

Result<RunInputTensors> allocate_inputs(const ir::SpecFile& file, const RunOperands& ops,
                                        const RunRequest& req, const ir::seq::InputShapes& tiles,
                                        runtime::FillJob& fill, std::string_view unfilled) {
  RunInputTensors in;
  for (const ir::KernelParam* p : ops.inputs()) {
    if (p == nullptr || !p->tensor || in.tensors.count(p->name) != 0) continue;
    const std::vector<ir::Axis>& tile = tiles.at(p->name);
    if (auto it = req.given.find(p->name); it != req.given.end()) {
      const runtime::LogicalTensor& given = it->second;
      if (given.dtype != p->tensor->dtype)
        return input_error("E-RUN-004",
                           fmt::format("the contents given for '{}' are {}, the "
                                       "parameter is {}",
                                       p->name, ir::name(given.dtype), ir::name(p->tensor->dtype)));
      const bool covers = given.axes.size() == tile.size() &&
                          std::equal(tile.begin(), tile.end(), given.axes.begin(),
                                     [](const ir::Axis& a, const ir::Axis& g) {
                                       return a.name == g.name && a.size <= g.size;
                                     });
      if (!covers)
        return input_error("E-RUN-007",
                           fmt::format("the contents given for '{}' have shape {}, which does not "
                                       "cover the tile {} the kernel reads",
                                       p->name, runtime::shape_text(given.shape()),
                                       runtime::axes_text(tile)));
      in.tensors[p->name] = &given;
      continue;
    }
    auto t = runtime::make_logical_tensor(p->tensor->dtype, tile, runtime::kDefaultMaxElements,
                                          runtime::TensorInit::Uninitialised);
    if (!t) return std::move(t).take_diagnostics();
    // A map node does not move when the map does: the job's pointer stays valid.
    auto& slot = in.generated[p->name] = std::move(*t);
    in.tensors[p->name] = &slot;
    const runtime::SeededContents& contents =
        in.seeded[p->name] = {runtime::parameter_seed(req.seed, p->name),
                              runtime::tile_index(tile, ir::seq::type_axes(*p->tensor, file.axes))};
    if (p->name != unfilled) fill.add(slot, contents);
  }
  for (const RunOperands::Interleaved& i : ops.interleaved) {
    const ir::KernelParam& p = *i.param;
    if (in.tensors.count(p.name) != 0) continue;
    auto t = runtime::make_logical_tensor(p.tensor->dtype, tiles.at(p.name),
                                          runtime::kDefaultMaxElements,
                                          runtime::TensorInit::Uninitialised);
    if (!t) return std::move(t).take_diagnostics();
    auto& slot = in.generated[p.name] = std::move(*t);
    in.tensors[p.name] = &slot;
  }
  in.shapes = input_shapes(ops, req, tiles);
  return in;
}

Result<runtime::LogicalTensor> seeded_input(const ir::SpecFile& file, const ir::KernelParam& p,
                                            const RunRequest& req) {
  const std::vector<ir::Axis> whole = ir::seq::type_axes(*p.tensor, file.axes);
  auto t = runtime::make_logical_tensor(p.tensor->dtype, whole, runtime::kDefaultMaxElements,
                                        runtime::TensorInit::Uninitialised);
  if (!t) return t;
  runtime::fill_random(*t, runtime::parameter_seed(req.seed, p.name),
                       runtime::tile_index(whole, whole));
  return t;
}

void interleave_inputs(const RunOperands& ops, RunInputTensors& in) {
  for (const RunOperands::Interleaved& i : ops.interleaved)
    runtime::interleave_into(in.generated.at(i.param->name), i.axis,
                             *in.tensors.at(i.sides[0]->name), *in.tensors.at(i.sides[1]->name));
}

Result<RunInputTensors> make_inputs(const ir::SpecFile& file, const RunOperands& ops,
                                    const RunRequest& req, const ir::seq::InputShapes& tiles) {
  runtime::FillJob fill;
  auto in = allocate_inputs(file, ops, req, tiles, fill);
  if (!in) return in;
  fill.run(req.threads);
  interleave_inputs(ops, *in);
  return in;
}

} // namespace tujit::run

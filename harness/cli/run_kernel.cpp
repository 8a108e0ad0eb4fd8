#include "harness/cli/run_kernel.h"

#include "harness/cli/run_fetch.h"
#include "harness/cli/run_input_axes.h"
#include "harness/cli/run_sequencer.h"
#include "harness/cli/run_vector.h"
#include "ir/seq/lower_contraction.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/register_store.h"
#include "runtime/interp/result_diff.h"
#include "runtime/interp/stage_exec.h"
#include "runtime/layout/held_readback.h"
#include "runtime/layout/layout.h"
#include "runtime/oracle/oracle.h"
#include "runtime/scalar/fetch_adapter.h"
#include "runtime/tensor/sha256.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace tujit::cli {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// A parameter's contents over `axes` (run_input_axes): as given — a whole logical tensor is cut
/// to the tile, whose elements are all the kernel reads — or seeded random.
Result<runtime::LogicalTensor>
input_tensor(const ir::KernelParam& p, const std::map<std::string, std::vector<ir::Axis>>& axes,
             const RunRequest& req) {
  const std::vector<ir::Axis>& tile = axes.at(p.name);
  if (auto it = req.given.find(p.name); it != req.given.end()) {
    const runtime::LogicalTensor& given = it->second;
    if (given.axes == tile) return given;
    const bool covers = given.axes.size() == tile.size() &&
                        std::equal(tile.begin(), tile.end(), given.axes.begin(),
                                   [](const ir::Axis& a, const ir::Axis& g) {
                                     return a.name == g.name && a.size <= g.size;
                                   });
    if (!covers)
      return make_error("E-RUN-007",
                        fmt::format("the contents given for '{}' have shape {}, which does not "
                                    "cover the tile {} the kernel reads",
                                    p.name, runtime::shape_text(given.shape()),
                                    runtime::axes_text(tile)));
    return runtime::leading_block(given, tile);
  }
  auto t = runtime::make_logical_tensor(p.tensor->dtype, tile);
  if (!t) return t;
  runtime::fill_random(*t, runtime::parameter_seed(req.seed, p.name));
  return t;
}

/// One operand as its consumer reads it: the parameter laid out by its own type, or — when the
/// kernel fetches it — the DM image run through the fetch chain `collect` by `engine`.
Result<runtime::DeviceImage>
operand_image(const ir::SpecFile& file, const ir::Kernel& kernel, const ir::KernelParam& param,
              std::optional<std::size_t> collect, const runtime::LogicalTensor& contents,
              Engine engine, const RunRequest& req, std::vector<ir::seq::FetchProgram>& fetches) {
  auto image = runtime::to_device(contents, *param.tensor);
  if (!image || !collect) return image;
  auto program = kernel.stages[*collect].op == ir::StageOp::MemRead
                     ? ir::seq::lower_mem_read(kernel, *collect)
                     : ir::seq::lower_fetch(kernel, *collect);
  if (!program) return std::move(program).take_diagnostics();
  auto collected = run_fetch_on(engine, *program, *image, file.axes, req);
  fetches.push_back(std::move(*program));
  return collected;
}

struct EngineRun {
  runtime::ContractionResult result;
  unsigned threads = 1;
  double compile_ms = 0;
  bool cache_hit = false;
};

Result<EngineRun> run_engine(Engine engine, const ir::seq::ContractionProgram& program,
                             const runtime::DeviceImage& stream, const runtime::DeviceImage& trf,
                             const RunRequest& req) {
  EngineRun run;
  if (engine == Engine::Interp) {
    auto r = runtime::run_contraction(program, stream, trf);
    if (!r) return std::move(r).take_diagnostics();
    run.result = std::move(*r);
    return run;
  }
  auto jit = codegen::ContractionJit::create(req.jit);
  if (!jit) return std::move(jit).take_diagnostics();
  auto compiled = (*jit)->compile(program);
  if (!compiled) return std::move(compiled).take_diagnostics();
  run.compile_ms = (*compiled)->stats().native_ms;
  run.cache_hit = (*compiled)->stats().cache_hit;
  codegen::JitRunOptions options;
  options.threads = req.threads;
  run.threads = req.threads != 0 ? req.threads : std::max(1u, std::thread::hardware_concurrency());
  auto r = codegen::run_contraction_jit(**compiled, program, stream, trf, options);
  if (!r) return std::move(r).take_diagnostics();
  run.result = std::move(*r);
  return run;
}

/// A Store / Collect run's output image, from the collected stream (through the kernel's Vector
/// Engine pass, if any).
Result<runtime::DeviceImage> data_output(const ir::SpecFile& file, const ir::Kernel& kernel,
                                         const RunOperands& ops, const RunImages& images,
                                         Engine engine, const RunRequest& req) {
  const runtime::DeviceImage& stream = images.stream;
  if (ops.shape == RunShape::Write)
    return run_write_on(engine, kernel, ops, stream, images.buffer, file.axes, req);
  auto passed = vector_pass(kernel, ops, stream, engine, req);
  if (!passed) return passed;
  if (ops.shape == RunShape::Store) return runtime::run_store(*ops.store, *passed);
  return passed;
}

/// Live output cells holding Top content (a Store / Collect run's poison).
Result<runtime::PoisonReport> data_poison(const runtime::DeviceImage& image,
                                          const ir::TensorType& type,
                                          const std::vector<ir::Axis>& axes) {
  auto cells = runtime::layout_cells(type, axes);
  if (!cells) return std::move(cells).take_diagnostics();
  runtime::PoisonReport report;
  for (std::uint64_t i = 0; i < image.cells() && i < cells->state.size(); ++i) {
    if (cells->state[i] != runtime::CellState::Live || image.state[i] != runtime::CellState::Top)
      continue;
    ++report.poisoned_outputs;
    const std::uint64_t per_slice = image.outer * image.inner;
    if (report.first_poisoned.size() < runtime::kMaxPoisonReported)
      report.first_poisoned.push_back(
          {i / per_slice, (i % per_slice) / image.inner, i % image.inner});
  }
  return report;
}

/// The fetch program that made the operand collected by `collect`, if any.
const ir::seq::FetchProgram* fetch_of(const std::vector<ir::seq::FetchProgram>& fetches,
                                      const ir::Kernel& kernel,
                                      std::optional<std::size_t> collect) {
  if (!collect) return nullptr;
  for (const auto& f : fetches)
    if (ir::compare_types(f.collected, kernel.stages[*collect].output).empty()) return &f;
  return nullptr;
}

/// The parameter's contents as the consumer sees them: the Fetch Adapter applied elementwise
/// (the zero point too when `with_zero_point`, else the dtype stays the source's).
runtime::LogicalTensor adapted(runtime::LogicalTensor t, const ir::seq::FetchProgram* f,
                               bool with_zero_point) {
  if (f == nullptr) return t;
  if (f->zero_point && with_zero_point) {
    const std::int64_t zp = *f->zero_point;
    for (auto& b : t.bits) b = runtime::zero_point_sub_bits(f->dm_type, b, zp);
    t.dtype = f->stream_type;
  } else if (f->cast_to) {
    for (auto& b : t.bits) b = runtime::fetch_cast_bits(f->dm_type, *f->cast_to, b);
    t.dtype = *f->cast_to;
  }
  return t;
}

/// A Store / Collect run moves data: every output element must be the input element with the
/// same coordinates, after the Fetch Adapter, bit for bit.
void check_data_movement(const runtime::LogicalTensor& expected,
                         const runtime::LogicalTensor& actual, RunVerification& v) {
  if (expected.axes != actual.axes) {
    v.oracle_not_applicable = "the output's axes are not the input's";
    return;
  }
  v.oracle_ok = true;
  for (std::uint64_t i = 0; i < actual.bits.size(); ++i) {
    if (actual.bits[i] == expected.bits[i]) continue;
    if (v.mismatches++ == 0) v.worst = actual.coordinate_text(i);
    v.oracle_ok = false;
  }
}

/// Which parts of two runs' images differ first (the collected streams, the TRF).
std::optional<std::string> images_difference(const RunImages& a, const RunImages& b) {
  if (auto d =
          runtime::first_image_difference(a.stream, b.stream, "collected stream", "Time", "Packet"))
    return d;
  if (auto d = runtime::first_image_difference(a.trf, b.trf, "TRF", "Lane", "Element")) return d;
  return runtime::first_image_difference(a.buffer, b.buffer, "buffer", "1", "Element");
}

} // namespace

Result<runtime::LogicalTensor> run_input(const ir::KernelParam& p,
                                         const std::map<std::string, std::vector<ir::Axis>>& axes,
                                         const RunRequest& req) {
  return input_tensor(p, axes, req);
}

std::string_view engine_name(Engine e) {
  return e == Engine::Jit ? "jit" : "interp";
}

Result<RunImages> make_run_images(const ir::SpecFile& file, const ir::Kernel& kernel,
                                  const RunOperands& ops, const RunRequest& req, Engine engine,
                                  const RunImages* inputs) {
  RunImages im;
  // Every input over its tile (the operands of one run agree on their axes, as the oracle needs).
  const auto axes =
      inputs ? std::map<std::string, std::vector<ir::Axis>>{} : run_input_axes(file, kernel, ops);
  if (!inputs) {
    auto stream_t = input_tensor(*ops.stream, axes, req);
    if (!stream_t) return std::move(stream_t).take_diagnostics();
    im.stream_input = std::move(*stream_t);
  }
  const RunImages& in = inputs ? *inputs : im;
  auto stream = operand_image(file, kernel, *ops.stream, ops.stream_collect, in.stream_input,
                              engine, req, im.fetches);
  if (!stream) return std::move(stream).take_diagnostics();
  im.stream = std::move(*stream);
  if (ops.buffer) {
    if (!inputs) {
      auto buffer_t = input_tensor(*ops.buffer, axes, req);
      if (!buffer_t) return std::move(buffer_t).take_diagnostics();
      im.buffer_input = std::move(*buffer_t);
    }
    auto buffer = runtime::to_device(in.buffer_input, *ops.buffer->tensor);
    if (!buffer) return std::move(buffer).take_diagnostics();
    im.buffer = std::move(*buffer);
  }
  if (ops.trf == nullptr) return im;

  if (!inputs) {
    auto trf_t = input_tensor(*ops.trf, axes, req);
    if (!trf_t) return std::move(trf_t).take_diagnostics();
    im.trf_input = std::move(*trf_t);
  }
  auto trf =
      operand_image(file, kernel, *ops.trf, ops.trf_collect, in.trf_input, engine, req, im.fetches);
  if (!trf) return std::move(trf).take_diagnostics();
  // An in-kernel `.to_trf()`: the TRF operand is the store of its source's stream image.
  if (ops.trf_store) trf = runtime::run_store(*ops.trf_store, *trf);
  if (!trf) return std::move(trf).take_diagnostics();
  im.trf = std::move(*trf);
  return im;
}

Result<RunOutcome> run_kernel(const ir::SpecFile& file, const ir::Kernel& kernel,
                              const RunOperands& ops, const RunRequest& req) {
  RunOutcome out;
  out.shape = ops.shape;
  out.engine = engine_name(req.engine);
  auto t0 = std::chrono::steady_clock::now();
  const bool contraction = ops.shape == RunShape::Contraction;
  if (contraction) {
    auto program = ir::seq::lower_contraction(kernel);
    if (!program) return std::move(program).take_diagnostics();
    out.program = std::move(*program);
    out.program.ftz_results = req.ftz_results;
  }
  out.lower_ms = ms_since(t0);

  t0 = std::chrono::steady_clock::now();
  auto images = make_run_images(file, kernel, ops, req, req.engine);
  if (!images) return std::move(images).take_diagnostics();
  out.fetches = images->fetches;
  const ir::TensorType& out_type = ops.output_type(kernel);
  runtime::DeviceImage output;
  if (contraction) {
    auto res = run_engine(req.engine, out.program, images->stream, images->trf, req);
    if (!res) return std::move(res).take_diagnostics();
    out.threads = res->threads;
    out.compile_ms = res->compile_ms;
    out.cache_hit = res->cache_hit;
    out.poisoned_outputs = res->result.poison.poisoned_outputs;
    out.simulated_macs = res->result.simulated_macs;
    output = std::move(res->result.output);
  } else if (ops.shape == RunShape::Partial) {
    // Only the stage-by-stage interpreter runs part of a chain (whatever engine was asked for).
    out.engine = engine_name(Engine::Interp);
    auto r = runtime::exec_contraction_stages(kernel, ops.partial_first, ops.partial_last,
                                              images->stream, ops.trf ? &images->trf : nullptr,
                                              {req.ftz_results});
    if (!r) return std::move(r).take_diagnostics();
    out.poisoned_outputs = runtime::poisoned_cells(*r);
    output = std::move(r->image);
  } else {
    auto image = data_output(file, kernel, ops, *images, req.engine, req);
    if (!image) return std::move(image).take_diagnostics();
    auto poison = data_poison(*image, out_type, runtime::tensor_axes(out_type, file.axes));
    if (!poison) return std::move(poison).take_diagnostics();
    out.poisoned_outputs = poison->poisoned_outputs;
    output = std::move(*image);
  }
  auto logical = runtime::from_device_held(output, out_type, file.axes);
  if (!logical) return std::move(logical).take_diagnostics();
  out.run_ms = ms_since(t0) - out.compile_ms;
  out.output = std::move(*logical);
  for (const auto& a : out.output.axes) out.output_axes.push_back(a.name);
  out.sha256 = runtime::sha256_hex(runtime::tensor_bytes(out.output));
  if (!req.verify) return out;

  t0 = std::chrono::steady_clock::now();
  RunVerification v;
  if (ops.shape == RunShape::Partial) {
    v.other_engine = "none";
    v.engines_not_compared = "only the stage-by-stage interpreter runs part of a contraction "
                             "chain (no second engine)";
    v.oracle_not_applicable = "oracle not applicable: the kernel runs part of a contraction "
                              "chain, whose output is no einsum of its inputs";
    out.verify = std::move(v);
    out.verify_ms = ms_since(t0);
    return out;
  }
  // The other engine from the same inputs: the two must agree bit for bit (DESIGN.md), on the
  // collected streams and TRF as well as on the output.
  const Engine other = req.engine == Engine::Jit ? Engine::Interp : Engine::Jit;
  v.other_engine = engine_name(other);
  auto images2 = make_run_images(file, kernel, ops, req, other, &*images);
  if (!images2) return std::move(images2).take_diagnostics();
  std::optional<std::string> diff = images_difference(*images, *images2);
  if (!diff && contraction) {
    auto second = run_engine(other, out.program, images2->stream, images2->trf, req);
    if (!second) return std::move(second).take_diagnostics();
    diff = runtime::first_image_difference(output, second->result.output);
    if (!diff && (second->result.poison.poisoned_outputs != out.poisoned_outputs ||
                  second->result.simulated_macs != out.simulated_macs))
      diff = fmt::format("poison / MAC counts differ: {} / {} vs {} / {}", out.poisoned_outputs,
                         out.simulated_macs, second->result.poison.poisoned_outputs,
                         second->result.simulated_macs);
  } else if (!diff) {
    auto second = data_output(file, kernel, ops, *images2, other, req);
    if (!second) return std::move(second).take_diagnostics();
    diff = runtime::first_image_difference(output, *second);
  }
  v.engines_bit_exact = !diff.has_value();
  if (diff) v.engine_difference = *diff;

  const ir::seq::FetchProgram* stream_fetch = fetch_of(out.fetches, kernel, ops.stream_collect);
  if (!contraction && ops.vector_final) {
    auto ok = check_vector_oracle(kernel, ops, adapted(images->stream_input, stream_fetch, true),
                                  out.output, v);
    if (!ok) return ok.diagnostics();
    out.verify = std::move(v);
    out.verify_ms = ms_since(t0);
    return out;
  }
  if (!contraction) {
    check_data_movement(adapted(images->stream_input, stream_fetch, true), out.output, v);
    out.verify = std::move(v);
    out.verify_ms = ms_since(t0);
    return out;
  }
  const ir::seq::FetchProgram* trf_fetch = fetch_of(out.fetches, kernel, ops.trf_collect);
  // The oracle reads each operand as the device holds it: a DM-fed operand through its DM
  // tensor's layout (digits the fetch broadcasts are not data), else through the type the
  // Contraction Engine reads (the TRF type when the TRF is stored in the kernel).
  const ir::TensorType trf_type = trf_fetch       ? trf_fetch->dm
                                  : ops.trf_store ? ops.trf_store->output
                                                  : *ops.trf->tensor;
  const ir::TensorType& stream_type = stream_fetch ? stream_fetch->dm : ops.stream_type(kernel);
  v.oracle_not_applicable =
      runtime::oracle_not_applicable(out_type, {&stream_type, &trf_type}, file.axes);
  if (!v.oracle_not_applicable) {
    // The oracle subtracts the zero points itself (contraction.md §2.2).
    auto weight = runtime::device_view(adapted(images->trf_input, trf_fetch, false), trf_type);
    if (!weight) return std::move(weight).take_diagnostics();
    auto stream_view =
        runtime::device_view(adapted(images->stream_input, stream_fetch, false), stream_type);
    if (!stream_view) return std::move(stream_view).take_diagnostics();
    const std::int64_t stream_zp = stream_fetch ? stream_fetch->zero_point.value_or(0) : 0;
    const std::int64_t trf_zp = trf_fetch ? trf_fetch->zero_point.value_or(0) : 0;
    auto held = runtime::held_reductions(out_type, {&stream_type, &trf_type}, file.axes);
    if (!held) return std::move(held).take_diagnostics();
    auto ref = runtime::einsum_oracle({&*stream_view, stream_zp}, {&*weight, trf_zp},
                                      out.output.axes, runtime::kDefaultMaxElements, *held);
    if (!ref) return std::move(ref).take_diagnostics();
    auto model = runtime::tolerance_model_for_kernel(kernel);
    if (!model) return std::move(model).take_diagnostics();
    auto cmp = runtime::compare_with_oracle(*ref, out.output, *model);
    if (!cmp) return std::move(cmp).take_diagnostics();
    v.oracle_max_abs_err = cmp->max_abs_err;
    v.oracle_ok = cmp->ok;
    v.mismatches = cmp->mismatches;
    v.worst = cmp->worst;
  }
  out.verify = std::move(v);
  out.verify_ms = ms_since(t0);
  return out;
}

} // namespace tujit::cli

#include "harness/cli/run_kernel.h"

#include "ir/seq/lower_contraction.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/register_store.h"
#include "runtime/interp/result_diff.h"
#include "runtime/layout/layout.h"
#include "runtime/oracle/oracle.h"
#include "runtime/tensor/sha256.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace tujit::cli {

namespace {

bool first_of_chain(const ir::Kernel& k, const ir::Stage& s) {
  for (const auto& o : k.stages) {
    if (&o == &s) return true;
    if (o.chain == s.chain) return false;
  }
  return true;
}

/// The CollectTensor parameter whose type equals `t`; unsupported when none or several match.
Result<const ir::KernelParam*> collect_param_of(const ir::Kernel& k, const ir::TensorType& t,
                                                const std::string& role, SourceSpan span) {
  std::vector<const ir::KernelParam*> hits;
  for (const auto& p : k.params)
    if (p.tensor && p.tensor->kind == ir::TensorKind::Collect &&
        ir::compare_types(*p.tensor, t).empty())
      hits.push_back(&p);
  if (hits.size() == 1) return hits[0];
  Diagnostic d = make_error(
      "E-RUN-110",
      hits.empty()
          ? fmt::format("tujit run: a {} that is not a CollectTensor parameter is not supported "
                        "yet: no parameter has the type {}",
                        role, ir::to_string(t))
          : fmt::format("tujit run: an ambiguous {} is not supported yet: {} CollectTensor "
                        "parameters have the type {}",
                        role, hits.size(), ir::to_string(t)),
      span);
  return d;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

Result<runtime::LogicalTensor> input_tensor(const ir::SpecFile& file, const ir::KernelParam& p,
                                            const RunRequest& req) {
  if (auto it = req.given.find(p.name); it != req.given.end()) return it->second;
  auto t =
      runtime::make_logical_tensor(p.tensor->dtype, runtime::tensor_axes(*p.tensor, file.axes));
  if (!t) return t;
  runtime::fill_random(*t, runtime::parameter_seed(req.seed, p.name));
  return t;
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

} // namespace

std::string_view engine_name(Engine e) {
  return e == Engine::Jit ? "jit" : "interp";
}

Result<RunOperands> find_run_operands(const ir::Kernel& kernel) {
  RunOperands ops;
  // The first contract_outer whose chain reaches contract_lane: the chain lower_contraction lowers.
  for (const auto& s : kernel.stages) {
    if (ops.lane) break;
    if (s.op != ir::StageOp::ContractOuter) continue;
    for (const auto& l : kernel.stages)
      if (l.op == ir::StageOp::ContractLane && l.chain == s.chain && !ops.lane) {
        ops.outer = &s;
        ops.lane = &l;
      }
  }
  if (!ops.outer || !ops.lane)
    return make_error("E-RUN-101",
                      fmt::format("tujit run: kernel '{}' has no contract_outer … contract_lane "
                                  "chain; only contraction kernels can be run yet",
                                  kernel.name),
                      kernel.name_span);
  if (!first_of_chain(kernel, *ops.outer))
    return make_error("E-RUN-110",
                      "tujit run: the DmTensor fetch path is not supported yet (issue 8): the "
                      "stream is fetched in the kernel (begin/fetch/collect before "
                      "contract_outer); pass it as a CollectTensor parameter",
                      ops.outer->name_span);
  auto stream = collect_param_of(kernel, ops.outer->input, "stream", ops.outer->name_span);
  if (!stream) return std::move(stream).take_diagnostics();
  ops.stream = *stream;

  const std::string& trf_name = ops.outer->trf_name;
  for (const auto& p : kernel.params)
    if (p.name == trf_name && p.tensor && p.tensor->kind == ir::TensorKind::Trf) ops.trf = &p;
  if (ops.trf) return ops;
  for (const auto& s : kernel.stages)
    if (s.op == ir::StageOp::ToTrf && s.bound_to == trf_name) ops.trf_store = &s;
  if (!ops.trf_store)
    return make_error("E-RUN-110",
                      fmt::format("tujit run: a TRF operand '{}' that is neither a TrfTensor "
                                  "parameter nor made by `.to_trf()` is not supported yet",
                                  trf_name),
                      ops.outer->trf_span);
  if (!first_of_chain(kernel, *ops.trf_store))
    return make_error("E-RUN-110",
                      fmt::format("tujit run: a TRF operand '{}' that the kernel fetches itself "
                                  "(begin/fetch/collect before to_trf) is not supported yet "
                                  "(issue 8)",
                                  trf_name),
                      ops.trf_store->name_span);
  auto src = collect_param_of(kernel, ops.trf_store->input, "TRF source", ops.trf_store->name_span);
  if (!src) return std::move(src).take_diagnostics();
  ops.trf = *src;
  if (ops.trf == ops.stream)
    return make_error("E-RUN-110",
                      "tujit run: an ambiguous stream is not supported yet: the stream and the "
                      "TRF source have the same CollectTensor type",
                      ops.outer->name_span);
  return ops;
}

Result<RunOutcome> run_kernel(const ir::SpecFile& file, const ir::Kernel& kernel,
                              const RunOperands& ops, const RunRequest& req) {
  RunOutcome out;
  out.engine = engine_name(req.engine);
  auto t0 = std::chrono::steady_clock::now();
  auto program = ir::seq::lower_contraction(kernel);
  if (!program) return std::move(program).take_diagnostics();
  program->ftz_results = req.ftz_results;
  out.lower_ms = ms_since(t0);

  t0 = std::chrono::steady_clock::now();
  auto stream_t = input_tensor(file, *ops.stream, req);
  if (!stream_t) return std::move(stream_t).take_diagnostics();
  auto trf_t = input_tensor(file, *ops.trf, req);
  if (!trf_t) return std::move(trf_t).take_diagnostics();
  auto stream_img = runtime::to_device(*stream_t, *ops.stream->tensor);
  if (!stream_img) return std::move(stream_img).take_diagnostics();
  auto trf_img = runtime::to_device(*trf_t, *ops.trf->tensor);
  if (!trf_img) return std::move(trf_img).take_diagnostics();
  // An in-kernel `.to_trf()`: the TRF operand is the store of the source's stream image.
  if (ops.trf_store) {
    trf_img = runtime::run_store(*ops.trf_store, *trf_img);
    if (!trf_img) return std::move(trf_img).take_diagnostics();
  }
  auto res = run_engine(req.engine, *program, *stream_img, *trf_img, req);
  if (!res) return std::move(res).take_diagnostics();
  out.threads = res->threads;
  out.compile_ms = res->compile_ms;
  out.cache_hit = res->cache_hit;
  const ir::TensorType& out_type = ops.lane->output;
  auto logical = runtime::from_device(res->result.output, out_type, file.axes);
  if (!logical) return std::move(logical).take_diagnostics();
  out.run_ms = ms_since(t0) - res->compile_ms;
  out.output = std::move(*logical);
  for (const auto& a : out.output.axes) out.output_axes.push_back(a.name);
  out.sha256 = runtime::sha256_hex(runtime::tensor_bytes(out.output));
  out.poisoned_outputs = res->result.poison.poisoned_outputs;
  out.simulated_macs = res->result.simulated_macs;
  out.program = *program;
  if (!req.verify) return out;

  t0 = std::chrono::steady_clock::now();
  RunVerification v;
  // The other engine on the same images: the two must agree bit for bit (DESIGN.md).
  const Engine other = req.engine == Engine::Jit ? Engine::Interp : Engine::Jit;
  auto second = run_engine(other, *program, *stream_img, *trf_img, req);
  if (!second) return std::move(second).take_diagnostics();
  v.other_engine = engine_name(other);
  const auto diff = runtime::first_difference(res->result, second->result);
  v.engines_bit_exact = !diff.has_value();
  if (diff) v.engine_difference = *diff;
  // The TRF's logical contents are its source's when it is stored in the kernel; the oracle
  // reads the type the Contraction Engine reads (the TRF type).
  const ir::TensorType trf_type = ops.trf_store ? ops.trf_store->output : *ops.trf->tensor;
  v.oracle_not_applicable =
      runtime::oracle_not_applicable(out_type, {&ops.stream->tensor.value(), &trf_type}, file.axes);
  if (!v.oracle_not_applicable) {
    auto weight = runtime::device_view(*trf_t, trf_type);
    if (!weight) return std::move(weight).take_diagnostics();
    auto stream_view = runtime::device_view(*stream_t, *ops.stream->tensor);
    if (!stream_view) return std::move(stream_view).take_diagnostics();
    auto ref = runtime::einsum_oracle({&*stream_view, 0}, {&*weight, 0}, out.output.axes);
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

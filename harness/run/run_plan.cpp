#include "harness/run/run_plan.h"

#include "harness/run/run_inputs.h"
#include "harness/run/run_pipeline.h"
#include "ir/seq/kernel_commands.h"
#include "runtime/device/device_image.h"
#include "runtime/layout/dm_reshape.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace tujit::run {
namespace {

/// A reshape's refusal (runtime/layout/dm_reshape.h), pointed at the reshape.
Diagnostics at_reshape(Diagnostics ds, const ir::seq::KernelCommand::Reshape& rs) {
  for (Diagnostic& d : ds)
    if (!d.span) d.span = rs.span;
  return ds;
}

/// Whether `name` is a DmTensor parameter of `c` holding an earlier command's value.
bool holds_value(const CommandRun& c, const std::string& name) {
  return std::any_of(c.reads.begin(), c.reads.end(),
                     [&](const ir::seq::KernelCommand::Read& r) { return r.param == name; });
}

/// Folds command `value`'s verification into `into` (the result command's at first): the
/// engines agree and the oracle passes only when they do for every command; a failure is named
/// after its command. Folded later commands first, the earliest failure is the one reported.
void fold_verdict(RunVerification& into, const RunVerification& v, const std::string& value) {
  const std::string at = fmt::format("command `{}`: ", value);
  if (!v.engines_not_compared && !v.engines_bit_exact) {
    into.engines_not_compared.reset();
    into.engines_bit_exact = false;
    into.engine_difference = at + v.engine_difference;
  }
  if (v.oracle_not_applicable) return;
  if (into.oracle_not_applicable) { // the result's is not checked: this command's judges
    into.oracle_not_applicable.reset();
    into.oracle_ok = true;
    into.oracle_max_abs_err = v.oracle_max_abs_err;
  }
  into.mismatches += v.mismatches;
  if (v.oracle_ok) return;
  into.oracle_ok = false;
  into.oracle_max_abs_err = v.oracle_max_abs_err;
  into.worst = at + (v.worst.empty() ? "no coordinate" : v.worst);
}

CommandOutcome command_outcome(const std::string& value, const RunOutcome& r) {
  CommandOutcome c;
  c.value = value;
  c.summary = fmt::format("{} {}", runtime::axes_text(r.output.axes), ir::name(r.output.dtype));
  c.sha256 = r.sha256;
  c.simulated_macs = r.simulated_macs;
  c.poisoned_outputs = r.poisoned_outputs;
  c.run_ms = r.run_ms;
  c.verify = r.verify;
  return c;
}

/// What the commands before the result's cost, added to the result's outcome.
struct EarlierCosts {
  double lower_ms = 0, inputs_ms = 0, compile_ms = 0, run_ms = 0, verify_ms = 0;
  bool cache_hit = true;
  std::uint64_t simulated_macs = 0;

  void add(const RunOutcome& r) {
    lower_ms += r.lower_ms;
    inputs_ms += r.inputs_ms;
    compile_ms += r.compile_ms;
    run_ms += r.run_ms;
    verify_ms += r.verify_ms;
    cache_hit = cache_hit && r.cache_hit;
    simulated_macs += r.simulated_macs;
  }
};

/// The result command's outcome with the earlier commands' costs and verdicts added.
RunOutcome combine(RunOutcome result, std::vector<CommandOutcome> earlier, const EarlierCosts& c) {
  result.lower_ms += c.lower_ms;
  result.inputs_ms += c.inputs_ms;
  result.compile_ms += c.compile_ms;
  result.run_ms += c.run_ms;
  result.verify_ms += c.verify_ms;
  result.cache_hit = result.cache_hit && c.cache_hit;
  result.simulated_macs += c.simulated_macs;
  if (result.verify)
    for (auto it = earlier.rbegin(); it != earlier.rend(); ++it)
      if (it->verify) fold_verdict(*result.verify, *it->verify, it->value);
  result.earlier = std::move(earlier);
  return result;
}

/// The logical tensor read `r` starts from: an earlier command's value, or a parameter a DMA
/// moved into DM (given, else generated from the run's seed over the whole tensor, as
/// run_inputs.h generates any input).
Result<runtime::LogicalTensor> read_value(const ir::SpecFile& file, const CommandRun& c,
                                          const ir::seq::KernelCommand::Read& r,
                                          const std::map<std::string, runtime::LogicalTensor>& held,
                                          const RunRequest& req) {
  if (auto it = held.find(r.value); it != held.end()) return it->second;
  if (r.parameter)
    for (const ir::KernelParam& p : c.kernel->params)
      if (p.name == r.value && p.tensor) return seeded_input(file, p, req);
  return run_error("E-RUN-102", fmt::format("internal: no value `{}` to hand on", r.value));
}

/// A value other than the poison pattern (runtime/device/device_image.h): 1.0 for the float
/// formats, the pattern's complement otherwise.
std::uint32_t alternate_bits(ir::ScalarType t) {
  switch (ir::encoding(t)) {
  case ir::Encoding::F32:
    return 0x3F800000u;
  case ir::Encoding::Bf16:
    return 0x3F80u;
  case ir::Encoding::F8E4M3:
    return 0x38u;
  case ir::Encoding::F8E5M2:
    return 0x3Cu;
  default:
    return ~runtime::poison_bits(t);
  }
}

/// A padded DM cell holds something other than the poison pattern the run gives it on hardware,
/// so an element that depends on one is found by running the command again with those elements
/// set to another value (alternate_bits) and comparing: the output elements
/// that differ depend on them. This is a test, not a proof: an op that maps the poison NaN and
/// 1.0 to one value hides the dependence (docs/kernel-language.md §6.2).
Result<std::vector<bool>>
undefined_outputs(const ir::SpecFile& file, const CommandRun& c, const RunRequest& step,
                  const std::map<std::string, std::vector<bool>>& unwritten,
                  const runtime::LogicalTensor& output) {
  RunRequest again = step;
  again.verify = false;
  again.on_lowered = nullptr;
  for (const auto& [name, mask] : unwritten) {
    runtime::LogicalTensor& t = again.given.at(name);
    const std::uint32_t other = alternate_bits(t.dtype);
    for (std::uint64_t i = 0; i < t.elements(); ++i)
      if (mask[i]) t.set(i, other);
  }
  auto second = run_kernel(file, c.checked(), c.ops, again);
  if (!second) return std::move(second).take_diagnostics();
  std::vector<bool> u(output.elements(), false);
  bool any = false;
  for (std::uint64_t i = 0; i < output.elements(); ++i) {
    u[i] = output.get(i) != second->output.get(i);
    any = any || u[i];
  }
  if (!any) u.clear();
  return u;
}

/// E-RUN-110 when the kernel's result holds elements that depend on DM cells no command wrote.
Status defined_result(const CommandRun& c, const std::vector<bool>& undefined,
                      const runtime::LogicalTensor& output) {
  const auto first = std::find(undefined.begin(), undefined.end(), true);
  if (first == undefined.end()) return {};
  const auto n = std::count(undefined.begin(), undefined.end(), true);
  return run_error(
      "E-RUN-110",
      fmt::format("tujit run: {} elements of the result of `{}` depend on DM cells "
                  "that no command wrote (made live by a reshape), first at {}; "
                  "their contents are whatever DM held (docs/kernel-language.md "
                  "§6.2)",
                  n, c.kernel->name,
                  output.coordinate_text(static_cast<std::uint64_t>(first - undefined.begin()))));
}

} // namespace

std::vector<const ir::KernelParam*> RunPlan::inputs() const {
  std::vector<const ir::KernelParam*> v;
  const auto add = [&](const ir::KernelParam* p) {
    if (std::none_of(v.begin(), v.end(),
                     [&](const ir::KernelParam* q) { return q->name == p->name; }))
      v.push_back(p);
  };
  for (const CommandRun& c : commands) {
    for (const ir::KernelParam* p : c.ops.inputs())
      if (p != nullptr && !holds_value(c, p->name)) add(p);
    // A parameter a DMA moved and a reshape restates: read whole (read_value).
    for (const ir::seq::KernelCommand::Read& r : c.reads)
      if (r.parameter)
        for (const ir::KernelParam& p : c.kernel->params)
          if (p.name == r.value) add(&p);
  }
  return v;
}

Result<ir::seq::InputShapes> RunPlan::input_tiles(const ir::SpecFile& file) const {
  ir::seq::InputShapes tiles;
  for (const ir::KernelParam* p : inputs()) {
    if (tiles.count(p->name)) continue;
    for (const CommandRun& c : commands) {
      const auto read = c.ops.inputs();
      if (std::find(read.begin(), read.end(), p) == read.end()) continue;
      auto found = ir::seq::input_tiles(file, *c.kernel, c.ops);
      if (!found) return std::move(found).take_diagnostics();
      for (auto& [name, axes] : *found) tiles.emplace(name, std::move(axes));
      break;
    }
    // A parameter no command's engines read (a Read's): whole.
    if (!tiles.count(p->name)) tiles.emplace(p->name, ir::seq::type_axes(*p->tensor, file.axes));
  }
  return tiles;
}

Result<RunPlan> plan_run(const ir::verify::CheckedKernel& checked) {
  const ir::Kernel& kernel = checked;
  RunPlan plan;
  auto split = ir::seq::split_commands(checked);
  if (!split) return std::move(split).take_diagnostics();
  if (!*split) {
    // The kernel and its check themselves, not owned: the caller keeps them alive.
    std::shared_ptr<const ir::Kernel> whole(std::shared_ptr<const ir::Kernel>(), &kernel);
    std::shared_ptr<const ir::verify::KernelCheck> check(
        std::shared_ptr<const ir::verify::KernelCheck>(), &checked.check());
    auto ops = ir::seq::find_run_operands(kernel);
    if (!ops) return std::move(ops).take_diagnostics();
    plan.commands.push_back({std::move(whole), std::move(check), std::move(*ops), {}, {}});
    return plan;
  }
  for (ir::seq::KernelCommand& c : **split) {
    auto local = std::make_shared<const ir::Kernel>(std::move(c.kernel));
    auto check = std::make_shared<const ir::verify::KernelCheck>(std::move(c.check));
    auto ops = ir::seq::find_run_operands(*local);
    if (!ops) return std::move(ops).take_diagnostics();
    plan.commands.push_back({std::move(local), std::move(check), std::move(*ops),
                             std::move(c.value), std::move(c.reads)});
  }
  return plan;
}

Result<RunOutcome> run_plan(const ir::SpecFile& file, const RunPlan& plan, RunRequest req) {
  if (plan.commands.size() == 1 && plan.result().reads.empty())
    return run_kernel(file, plan.result().checked(), plan.result().ops, req);
  // A reshape the run cannot hand on is refused before any command runs.
  for (const CommandRun& c : plan.commands)
    for (const ir::seq::KernelCommand::Read& r : c.reads)
      for (const auto& rs : r.reshapes)
        if (auto ok = runtime::check_dm_reshape(rs.from, rs.to, file.axes); !ok)
          return at_reshape(ok.diagnostics(), rs);
  // What the commands read by name: the given inputs, then each command's output.
  std::map<std::string, runtime::LogicalTensor> held = std::move(req.given);
  req.given.clear();
  req.tiles.reset(); // found per command
  auto on_lowered = std::move(req.on_lowered);
  req.on_lowered = nullptr;
  std::vector<CommandOutcome> earlier;
  EarlierCosts costs;
  std::map<std::string, std::vector<bool>> undefined; // by value: its elements no command wrote
  for (const CommandRun& c : plan.commands) {
    const bool last = &c == &plan.result();
    RunRequest step = req;
    for (const ir::KernelParam* p : c.ops.inputs())
      if (!holds_value(c, p->name))
        if (auto node = held.extract(p->name)) step.given.insert(std::move(node));
    // A DM tensor holding an earlier value: that value's logical tensor (a relayout keeps it),
    // relabelled cell by cell by each reshape on the way (runtime/layout/dm_reshape.h); the
    // elements no command wrote are marked in `unwritten`.
    std::map<std::string, std::vector<bool>> unwritten;
    for (const ir::seq::KernelCommand::Read& r : c.reads) {
      auto value = read_value(file, c, r, held, req);
      if (!value) return std::move(value).take_diagnostics();
      runtime::LogicalTensor v = std::move(*value);
      std::vector<bool> u = undefined.count(r.value) ? undefined.at(r.value) : std::vector<bool>();
      for (const auto& rs : r.reshapes) {
        auto relabelled = runtime::reshape_dm_value(v, rs.from, rs.to, file.axes, u);
        if (!relabelled) return at_reshape(std::move(relabelled).take_diagnostics(), rs);
        v = std::move(*relabelled);
      }
      if (!u.empty()) unwritten[r.param] = std::move(u);
      step.given.emplace(r.param, std::move(v));
    }
    if (last) step.on_lowered = on_lowered;
    auto out = run_kernel(file, c.checked(), c.ops, step);
    std::vector<bool> out_undefined;
    if (out && !unwritten.empty()) {
      auto u = undefined_outputs(file, c, step, unwritten, out->output);
      if (!u) return std::move(u).take_diagnostics();
      out_undefined = std::move(*u);
    }
    for (auto& [name, t] : step.given)
      if (!holds_value(c, name)) held.insert_or_assign(name, std::move(t));
    if (!out) return std::move(out).take_diagnostics();
    if (last) {
      if (auto ok = defined_result(c, out_undefined, out->output); !ok) return ok.diagnostics();
      return combine(std::move(*out), std::move(earlier), costs);
    }
    earlier.push_back(command_outcome(c.value, *out));
    costs.add(*out);
    if (!out_undefined.empty()) undefined[c.value] = std::move(out_undefined);
    held.insert_or_assign(c.value, std::move(out->output));
  }
  return run_error("E-RUN-101", "tujit run: the run plan has no command", {});
}

} // namespace tujit::run

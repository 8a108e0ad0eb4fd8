#include "ir/seq/kernel_commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace tujit::ir::seq {
namespace {

using Index = std::size_t;

/// A stage that hands a DM or HBM value on without a Tensor Unit command: a DMA transfer, or a
/// reshape restating the same DM cells (docs/kernel-language.md §6.2).
bool moves_value(StageOp op) {
  return is_dma(op) || op == StageOp::DmReshape;
}

/// Where the value a chain fetches from the DM tensor `memory_producer` wrote comes from: the
/// commit of an earlier command (through any DMA transfers and reshapes), or, after at least one
/// reshape, the HbmTensor parameter the first of a run of DMA transfers moved there (the DM tensor
/// holds its logical tensor, docs/dma.md §1). Nullopt when the data comes from a parameter
/// otherwise (the run reads it through the DM layout, ir/seq/run_operands.h `moved`).
struct ValueSource {
  Index writer;           // the commit, or the first DMA transfer of the parameter
  bool parameter = false; // the value is the parameter k.stages[writer].source
};
std::optional<ValueSource> value_source(const Kernel& k, std::optional<Index> memory_producer) {
  if (!memory_producer) return std::nullopt;
  Index w = *memory_producer;
  bool reshaped = false;
  while (moves_value(k.stages[w].op) && k.stages[w].producer) {
    reshaped = reshaped || k.stages[w].op == StageOp::DmReshape;
    w = *k.stages[w].producer;
  }
  const Stage& s = k.stages[w];
  if (s.op == StageOp::Commit) return ValueSource{w, false};
  if (!reshaped || !is_dma(s.op) || s.input.kind != TensorKind::Hbm) return std::nullopt;
  for (const KernelParam& p : k.params)
    if (p.name == s.source && p.tensor && p.tensor->kind == TensorKind::Hbm)
      return ValueSource{w, true};
  return std::nullopt;
}

/// The DM tensors a chain's first stage reads, each as its data's name and writer: the one of a
/// `begin`, or the two of a `begin_interleaved` (docs/vector-engine.md §3.5).
std::vector<Stage::InterleavedSide> memory_reads(const Stage& s) {
  if (!s.interleaved.empty()) return s.interleaved;
  return {{s.source, s.memory_producer}};
}

Diagnostic refused(std::string message, SourceSpan span) {
  Diagnostic d = make_error("E-RUN-110", std::move(message), span);
  d.stage = "run";
  return d;
}

std::set<std::string> axis_names(const TensorType& t) {
  std::set<std::string> names;
  for (const auto& slot : t.slots)
    if (slot)
      for (const Axis& a : slot->mapping.axes()) names.insert(a.name);
  return names;
}

/// The reshapes from the commit `commit` to the DM tensor `holder` that a fetch reads, in order;
/// E-RUN-110 when a DMA transfer between them changes the value's axes (the value is handed on as
/// the same logical tensor, docs/kernels.md §3).
Result<std::vector<KernelCommand::Reshape>> reshapes_between(const Kernel& k, Index commit,
                                                             Index holder, const std::string& value,
                                                             const Stage& reader) {
  std::vector<KernelCommand::Reshape> out;
  // Walk back from the DM tensor read to the commit; each stretch of DMA transfers between two
  // reshapes (or the ends) must keep the value's axes.
  const TensorType* end = &k.stages[holder].output;
  for (Index w = holder;; w = *k.stages[w].producer) {
    const Stage& s = k.stages[w];
    if (s.op != StageOp::DmReshape && w != commit) continue;
    // s.output starts the stretch of DMA transfers that ends at *end.
    if (axis_names(s.output) != axis_names(*end))
      return refused(fmt::format("tujit run: `{}` reads the value `{}` through a DMA transfer "
                                 "that changes its axes; tujit hands a committed value to a later "
                                 "command as the same logical tensor (docs/kernels.md §3)",
                                 to_string(reader.op), value),
                     reader.name_span);
    if (w == commit) break;
    out.push_back({s.input, s.output, s.span});
    end = &s.input;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

/// The stages the command ending at `root` needs, ascending: everything its result reads through
/// producers, register-file stores and DMA, up to the DmTensors earlier commands committed (the
/// commits of the values its fetches read go to `reads`).
std::vector<Index> command_stages(const Kernel& k, Index root, std::vector<Index>& reads) {
  std::vector<char> in(k.stages.size(), 0);
  std::vector<Index> todo{root};
  while (!todo.empty()) {
    const Index i = todo.back();
    todo.pop_back();
    if (in[i]) continue;
    in[i] = 1;
    const Stage& s = k.stages[i];
    for (const std::optional<Index>& link : {s.producer, s.trf_producer, s.vrf_producer})
      if (link) todo.push_back(*link);
    for (const Stage::InterleavedSide& m : memory_reads(s))
      if (const auto from = value_source(k, m.memory_producer)) {
        if (!from->parameter) reads.push_back(from->writer);
      } else if (m.memory_producer) {
        todo.push_back(*m.memory_producer);
      }
  }
  std::vector<Index> stages;
  for (Index i = 0; i < in.size(); ++i)
    if (in[i]) stages.push_back(i);
  return stages;
}

/// Unique names for the values and the DM tensors holding them (by writer stage: a commit, or
/// the last DMA transfer before a fetch): their `let` names, made unique among the kernel's
/// parameters and each other.
class Names {
public:
  explicit Names(const Kernel& k) : k_(k) {
    for (const KernelParam& p : k.params) taken_.insert(p.name);
  }
  const std::string& operator()(Index writer) {
    if (auto it = names_.find(writer); it != names_.end()) return it->second;
    const std::string base =
        k_.stages[writer].bound_to.empty() ? "value" : k_.stages[writer].bound_to;
    std::string name = base;
    for (int n = 2; taken_.count(name); ++n) name = fmt::format("{}#{}", base, n);
    taken_.insert(name);
    return names_[writer] = name;
  }

private:
  const Kernel& k_;
  std::set<std::string> taken_;
  std::map<Index, std::string> names_;
};

/// The DmTensor parameter of command `cmd` that holds the value `from` names, as the DM tensor
/// `holder` holds it for the fetch `reader`: added to the command's parameters and reads the
/// first time, by its unique name.
Result<std::string> read_param(const Kernel& k, ValueSource from, Index holder, const Stage& reader,
                               KernelCommand& cmd, Names& names) {
  const std::string value = from.parameter ? k.stages[from.writer].source : names(from.writer);
  auto reshapes = reshapes_between(k, from.writer, holder, value, reader);
  if (!reshapes) return std::move(reshapes).take_diagnostics();
  const std::string param = names(holder);
  const bool known = std::any_of(cmd.reads.begin(), cmd.reads.end(),
                                 [&](const KernelCommand::Read& r) { return r.param == param; });
  if (!known) {
    cmd.reads.push_back({param, value, std::move(*reshapes), from.parameter});
    KernelParam p;
    p.name = param;
    p.span = k.stages[holder].span;
    p.by_ref = true;
    p.tensor = k.stages[holder].output;
    cmd.kernel.params.push_back(std::move(p));
  }
  return param;
}

/// The command ending at `root` as a kernel of its own: `stages` of `k` reindexed; each fetch of
/// an earlier command's value reads a DmTensor parameter of the DM tensor it fetches, the `source`
/// of the stages after it renamed with it. `value` names the root's commit for later commands
/// (empty for the result command).
Result<KernelCommand> command_kernel(const verify::CheckedKernel& checked, Index root,
                                     const std::vector<Index>& stages, std::string value,
                                     Names& names) {
  const Kernel& k = checked;
  KernelCommand cmd;
  cmd.value = std::move(value);
  cmd.check.kernel = k.name;
  Kernel& local = cmd.kernel;
  local.span = k.span;
  local.name_span = k.name_span;
  local.params = k.params;
  local.ok = k.ok;
  std::map<Index, Index> at; // whole-kernel index → local index
  for (Index i : stages) at[i] = at.size();
  for (Index i : stages) {
    const Stage& orig = k.stages[i];
    Stage s = orig;
    std::vector<Stage::InterleavedSide> sides = memory_reads(orig);
    bool renamed = false;
    for (Stage::InterleavedSide& m : sides) {
      const std::optional<ValueSource> from = value_source(k, m.memory_producer);
      if (!from) continue;
      auto param = read_param(k, *from, *m.memory_producer, orig, cmd, names);
      if (!param) return std::move(param).take_diagnostics();
      m.source = *param;
      m.memory_producer.reset();
      renamed = true;
    }
    if (!orig.interleaved.empty()) {
      s.interleaved = sides;
      s.source = fmt::format("{}+{}", sides[0].source, sides[1].source);
      s.memory_producer.reset();
    } else if (renamed) {
      s.source = sides[0].source;
      s.memory_producer.reset();
    } else if (orig.producer && k.stages[*orig.producer].source == orig.source) {
      s.source = local.stages[at.at(*orig.producer)].source; // the chain's data, renamed with it
    }
    if (orig.trf_producer && k.stages[*orig.trf_producer].source == orig.trf_source)
      s.trf_source = local.stages[at.at(*orig.trf_producer)].source;
    if (orig.vrf_producer && k.stages[*orig.vrf_producer].source == orig.vrf_source)
      s.vrf_source = local.stages[at.at(*orig.vrf_producer)].source;
    for (std::optional<Index>* link :
         {&s.producer, &s.trf_producer, &s.vrf_producer, &s.memory_producer})
      if (*link) *link = at.at(**link);
    for (Stage::InterleavedSide& m : s.interleaved)
      if (m.memory_producer) m.memory_producer = at.at(*m.memory_producer);
    local.stages.push_back(std::move(s));
    if (i < checked.check().stages.size()) cmd.check.stages.push_back(checked.check().stages[i]);
  }
  if (cmd.value.empty()) {
    local.name = k.name;
    local.declared_return = k.declared_return;
    local.returned = k.returned;
  } else {
    local.name = fmt::format("{}.{}", k.name, cmd.value);
    local.declared_return = k.stages[root].output;
    local.returned = k.stages[root].output;
  }
  return cmd;
}

/// E-RUN-110 when the kernel's result is reshaped after its commit: tujit hands a reshaped DM
/// tensor on to a later command's fetch only.
Status result_not_reshaped(const Kernel& k) {
  for (std::optional<Index> at = k.stages.size() - 1; at && moves_value(k.stages[*at].op);
       at = k.stages[*at].producer)
    if (k.stages[*at].op == StageOp::DmReshape)
      return refused("tujit run: the kernel's result is reshaped after its commit; tujit runs a "
                     "reshape of a committed value that a later command fetches "
                     "(docs/kernel-language.md §6.2)",
                     k.stages[*at].name_span);
  return {};
}

} // namespace

Result<std::optional<std::vector<KernelCommand>>>
split_commands(const verify::CheckedKernel& checked) {
  const Kernel& kernel = checked;
  const auto& stages = kernel.stages;
  if (stages.empty() || !kernel.returned || kernel.returned->kind != TensorKind::Hbm)
    return std::optional<std::vector<KernelCommand>>();
  if (auto r = result_not_reshaped(kernel); !r) return r.diagnostics();
  // Every command the result needs: the result's, then each value's, transitively.
  std::map<Index, std::vector<Index>> needs; // command root → its stages
  std::set<Index> todo{stages.size() - 1};
  while (!todo.empty()) {
    const Index root = *todo.begin();
    todo.erase(todo.begin());
    if (needs.count(root)) continue;
    std::vector<Index> reads;
    needs[root] = command_stages(kernel, root, reads);
    for (Index commit : reads) todo.insert(commit);
  }
  Names names(kernel);
  // Ascending roots: a command's values were committed by statements before it.
  std::vector<KernelCommand> commands;
  for (const auto& [root, own] : needs) {
    const bool result = root + 1 == stages.size();
    auto cmd = command_kernel(checked, root, own, result ? std::string() : names(root), names);
    if (!cmd) return std::move(cmd).take_diagnostics();
    commands.push_back(std::move(*cmd));
  }
  return std::optional<std::vector<KernelCommand>>(std::move(commands));
}

} // namespace tujit::ir::seq

#include "ir/verify/kernel_checker.h"

#include "ir/verify/hardware_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>

namespace tujit::ir::verify {

namespace {

void check_params(const Kernel& k, KernelCheck& out) {
  for (const auto& p : k.params) {
    if (!p.tensor) continue;
    const TensorType& t = *p.tensor;
    auto at = [&](Slot s) { return t.get(s) ? t.get(s)->span : p.span; };
    if (t.has(Slot::Cluster) && t.has(Slot::Slice)) {
      if (auto d = check_spatial(spatial_of(t))) {
        d->span = at(d->code == "E-HW-001" ? Slot::Cluster : Slot::Slice);
        d->notes.push_back(fmt::format("in the type of the parameter `{}`", p.name));
        out.param_diagnostics.push_back(std::move(*d));
      }
    }
    // A CollectTensor carries exactly one 32 B flit per packet (docs/contraction.md §3); a
    // ContractOuterTensor one or two flits of its storage type (§5.1).
    std::optional<Diagnostic> packet;
    if (t.kind == TensorKind::Collect && t.has(Slot::Packet))
      packet = check_packet_one_flit(t.dtype, t.mapping(Slot::Packet));
    else if (t.kind == TensorKind::ContractOuter && t.has(Slot::Packet))
      packet = check_packet_one_or_two_flits(t.storage.value_or(t.dtype), t.mapping(Slot::Packet));
    if (packet) {
      packet->span = at(Slot::Packet);
      packet->notes.push_back(fmt::format("in the type of the parameter `{}`", p.name));
      out.param_diagnostics.push_back(std::move(*packet));
    }
    // A TrfTensor parameter is a register-file image like the one to_trf stores
    // (docs/contraction.md §4.2 rule 2).
    if (t.kind == TensorKind::Trf && t.has(Slot::Lane) && t.has(Slot::Element)) {
      if (auto d = check_trf_capacity(t.dtype, t.mapping(Slot::Lane), t.mapping(Slot::Element))) {
        d->span = at(Slot::Element);
        d->notes.push_back(fmt::format("in the type of the parameter `{}`", p.name));
        out.param_diagnostics.push_back(std::move(*d));
      }
    }
    if (t.kind == TensorKind::Dm && t.has(Slot::Element)) {
      if (auto d = check_dm_capacity(t.dtype, t.mapping(Slot::Element))) {
        d->span = at(Slot::Element);
        d->notes.push_back(fmt::format("in the type of the parameter `{}`", p.name));
        out.param_diagnostics.push_back(std::move(*d));
      }
    }
  }
}

/// A whole kernel (docs/kernels.md §1) reads DM tensors that its commands write; one built with
/// `DmTensor::new()` and read by a `begin` before any command wrote it would read whatever DM held
/// (E-KERNEL-001). A kernel without HBM parameters keeps the older meaning of such a tensor: an
/// input whose contents the run supplies (docs/kernel-language.md §6).
void check_memory_values(const Kernel& k, KernelCheck& out) {
  bool whole = false;
  for (const auto& p : k.params) whole = whole || (p.tensor && p.tensor->kind == TensorKind::Hbm);
  if (!whole) return;
  for (const Stage& s : k.stages) {
    if (s.unit() != StageUnit::FetchSequencer || s.producer) continue;
    // A `begin_interleaved` reads two DM tensors (docs/vector-engine.md §3.5): each side is read.
    std::vector<Stage::InterleavedSide> reads = s.interleaved;
    if (reads.empty()) reads.push_back({s.source, s.memory_producer});
    for (const auto& p : k.params) {
      const bool unwritten = std::any_of(reads.begin(), reads.end(), [&](const auto& side) {
        return !side.memory_producer && side.source == p.name;
      });
      if (!p.built_inside || !unwritten) continue;
      Diagnostic d = make_error(
          "E-KERNEL-001", fmt::format("`{}` is read before any command writes it", p.name), s.span,
          {fmt::format("`{}` is built with `DmTensor::new()` and nothing writes it before this "
                       "fetch: the fetch would read whatever DM holds there",
                       p.name),
           "in a whole kernel a DM tensor is written by a DMA transfer (`to_dm`) or a commit "
           "before a command reads it (docs/kernels.md §2)"});
      d.stage = "kernel";
      out.param_diagnostics.push_back(std::move(d));
    }
  }
}

} // namespace

Diagnostics KernelCheck::all_diagnostics() const {
  Diagnostics all = param_diagnostics;
  for (const auto* list : {&stages, &driver_stages})
    for (const auto& s : *list) all.insert(all.end(), s.diagnostics.begin(), s.diagnostics.end());
  return all;
}

namespace {

// Verifies `stages` (a kernel body's or its driver's) in order. Skipping: a stage depends on the
// earlier stages of its chain, and contract_outer also on the chain that produced its TRF operand
// (`let trf = ….to_trf();`).
std::vector<StageCheck> check_stages(const std::vector<Stage>& stages) {
  std::vector<StageCheck> out;
  std::map<std::size_t, std::string> failed_chain; // chain → op that failed first
  std::map<std::string, std::size_t> chain_of;     // let name → chain
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const Stage& s = stages[i];
    StageCheck sc;
    sc.op = s.op;
    std::string blocked;
    if (auto it = failed_chain.find(s.chain); it != failed_chain.end()) {
      blocked =
          fmt::format("skipped: the earlier stage `{}` of this chain did not verify", it->second);
    } else if (s.unit() == StageUnit::ContractOuter && !s.trf_name.empty()) {
      if (auto c = chain_of.find(s.trf_name); c != chain_of.end())
        if (auto f = failed_chain.find(c->second); f != failed_chain.end())
          blocked =
              fmt::format("skipped: the TRF operand `{}` failed at `{}`", s.trf_name, f->second);
    }
    if (!blocked.empty()) {
      sc.skipped = true;
      sc.notes.push_back(std::move(blocked));
    } else {
      stage_verifier(s.op).check(StageSite{stages, i}, sc);
    }
    if (!sc.ok() && !failed_chain.count(s.chain))
      failed_chain[s.chain] = std::string(to_string(s.op));
    if (!s.bound_to.empty()) chain_of[s.bound_to] = s.chain;
    out.push_back(std::move(sc));
  }
  return out;
}

} // namespace

KernelCheck check_kernel(const SpecFile& file, const Kernel& kernel) {
  (void)file; // mappings are already resolved; the file is the diagnostics' source
  return check_kernel(kernel);
}

KernelCheck check_kernel(const Kernel& kernel) {
  KernelCheck out;
  out.kernel = kernel.name;
  check_params(kernel, out);
  check_memory_values(kernel, out);
  out.stages = check_stages(kernel.stages);
  out.driver_stages = check_stages(kernel.driver);
  return out;
}

} // namespace tujit::ir::verify

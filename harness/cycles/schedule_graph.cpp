// The schedule's constraints (docs/cycle-model.md §14): which values each command reads and
// writes, where DM, TRF and VRF values are placed, and the hazards that placement creates.
#include "harness/cycles/kernel_cycles.h"
#include "harness/cycles/schedule.h"
#include "ir/lang/stage_descriptor.h"
#include "ir/target/rngd.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace tujit::cycles {

namespace {

using ir::Slot;
using ir::Stage;

Track track_of(ir::ContextKind k) {
  return k == ir::ContextKind::Sub    ? Track::Sub
         : k == ir::ContextKind::Tdma ? Track::Tdma
                                      : Track::Main;
}

/// Bytes of a memory tensor in one slice (the whole tensor for HBM): its Lane × Element cells.
std::uint64_t value_bytes(const ir::TensorType& t) {
  std::uint64_t cells = t.mapping(Slot::Element).size();
  if (t.has(Slot::Lane)) cells *= t.mapping(Slot::Lane).size();
  const std::uint64_t b = target::kRngd.bits_per_byte;
  return (cells * ir::wire_bits(t.dtype) + b - 1) / b;
}

std::optional<MemoryKind> memory_of(ir::TensorKind k) {
  switch (k) {
  case ir::TensorKind::Hbm:
    return MemoryKind::Hbm;
  case ir::TensorKind::Dm:
  case ir::TensorKind::Mem: // the book's MemTensor is a DM buffer (docs/datapath.md §4.2)
    return MemoryKind::Dm;
  case ir::TensorKind::Trf:
    return MemoryKind::Trf;
  case ir::TensorKind::Vrf:
    return MemoryKind::Vrf;
  default:
    return std::nullopt;
  }
}

/// The memory a stage writes a value into, if it writes one.
std::optional<MemoryKind> written_memory(const Stage& s) {
  switch (s.unit()) {
  case ir::StageUnit::TrfStore:
    return MemoryKind::Trf;
  case ir::StageUnit::VrfStore:
    return MemoryKind::Vrf;
  case ir::StageUnit::CommitEngine:
    return MemoryKind::Dm;
  case ir::StageUnit::Dma:
    return memory_of(s.output.kind);
  default:
    return std::nullopt;
  }
}

/// A producer link, followed through DM reshapes (views: they move nothing).
std::optional<std::size_t> resolve(const ir::Kernel& k, std::optional<std::size_t> at) {
  while (at && k.stages[*at].op == ir::StageOp::DmReshape) at = k.stages[*at].producer;
  return at;
}

std::string stage_value_name(const ir::Kernel& k, std::size_t at) {
  const Stage& s = k.stages[at];
  return s.bound_to.empty() ? fmt::format("{} of statement {}", ir::stage_name(s), s.chain + 1)
                            : s.bound_to;
}

class GraphBuilder {
public:
  GraphBuilder(const ir::Kernel& k, std::span<const CommandCycles> cmds) : k_(k), cmds_(cmds) {
    for (std::size_t i = 0; i < cmds.size(); ++i)
      for (std::size_t s : cmds[i].stages) command_of_[s] = i;
  }

  ScheduleGraph build() {
    g_.nodes.resize(cmds_.size());
    add_parameters();
    for (std::size_t i = 0; i < cmds_.size(); ++i) add_command(i);
    mark_returned();
    for (MemoryKind m : {MemoryKind::Dm, MemoryKind::Trf, MemoryKind::Vrf}) place(m);
    add_order();
    return std::move(g_);
  }

private:
  std::size_t value(const std::string& key, MemoryValue v) {
    auto [it, fresh] = keys_.emplace(key, g_.values.size());
    if (fresh) g_.values.push_back(std::move(v));
    return it->second;
  }

  void add_parameters() {
    for (const ir::KernelParam& p : k_.params) {
      if (!p.tensor) continue;
      const auto m = memory_of(p.tensor->kind);
      if (!m) continue;
      value("param:" + p.name, {*m, p.name, std::nullopt, {}, value_bytes(*p.tensor), {}, false});
    }
  }

  /// The value a link reads: a stage's result, or a parameter when the link is empty.
  std::optional<std::size_t> read_value(std::optional<std::size_t> producer,
                                        const std::string& param) {
    if (producer) {
      const auto it = keys_.find(fmt::format("stage:{}", *producer));
      return it == keys_.end() ? std::nullopt : std::optional(it->second);
    }
    const auto it = keys_.find("param:" + param);
    return it == keys_.end() ? std::nullopt : std::optional(it->second);
  }

  void read(std::size_t command, std::optional<std::size_t> v) {
    if (!v) return;
    auto& readers = g_.values[*v].readers;
    if (std::find(readers.begin(), readers.end(), command) == readers.end())
      readers.push_back(command);
  }

  void add_edge(std::size_t command, Dependency d) {
    if (d.command == command) return;
    auto& after = g_.nodes[command].after;
    for (const Dependency& e : after)
      if (e.command == d.command && e.why == d.why) return;
    after.push_back(std::move(d));
  }

  // The links each stage reads through (the four producer links the kernel records), as read
  // after write edges to the command that made them, and the values they read.
  void add_command(std::size_t i) {
    const CommandCycles& c = cmds_[i];
    ScheduleNode& n = g_.nodes[i];
    n.context = track_of(c.context);
    for (std::size_t at : c.stages) {
      const Stage& s = k_.stages[at];
      if (s.unit() == ir::StageUnit::VectorEngine) hold(n, Track::VectorEngine);
      if (s.unit() == ir::StageUnit::VrfStore && n.context == Track::Main) hold(n, Track::Sub);
      std::vector<std::optional<std::size_t>> links{s.producer, s.trf_producer, s.vrf_producer,
                                                    s.memory_producer};
      for (const Stage::InterleavedSide& side : s.interleaved)
        links.push_back(side.memory_producer);
      for (auto link : links) {
        const auto p = resolve(k_, link);
        if (!p) continue;
        const auto it = command_of_.find(*p);
        if (it == command_of_.end() || it->second == i) continue;
        add_edge(i, {it->second, WaitKind::ReadAfterWrite, stage_value_name(k_, *p)});
      }
      add_reads(i, s);
      if (const auto m = written_memory(s))
        value(fmt::format("stage:{}", at),
              {*m, stage_value_name(k_, at), i, {}, value_bytes(s.output), {}, false});
      else if (s.unit() == ir::StageUnit::MemWriter)
        if (const auto v = read_value(std::nullopt, s.target)) mem_writes_.push_back({i, *v});
    }
  }

  void add_reads(std::size_t i, const Stage& s) {
    const auto unit = s.unit();
    if (unit == ir::StageUnit::ContractOuter)
      read(i, read_value(resolve(k_, s.trf_producer), s.trf_source));
    if (s.vrf) read(i, read_value(resolve(k_, s.vrf_producer), s.vrf_source));
    if (s.memory_producer) read(i, read_value(resolve(k_, s.memory_producer), {}));
    // An interleaved fetch reads its two DM tensors (docs/vector-engine.md §3.5).
    for (const Stage::InterleavedSide& side : s.interleaved)
      read(i, side.memory_producer ? read_value(resolve(k_, side.memory_producer), {})
                                   : read_value(std::nullopt, side.source));
    const bool first_fetch = unit == ir::StageUnit::FetchSequencer && !s.producer &&
                             !s.memory_producer && s.interleaved.empty();
    if (first_fetch || unit == ir::StageUnit::MemReader)
      read(i, read_value(std::nullopt, s.source));
    if (unit == ir::StageUnit::Dma) read(i, read_value(resolve(k_, s.producer), s.source));
  }

  // A value nothing reads, written by the kernel's last statement, is its result.
  void mark_returned() {
    std::size_t last = 0;
    for (const Stage& s : k_.stages) last = std::max(last, s.chain);
    for (MemoryValue& v : g_.values)
      if (v.writer && v.readers.empty() && cmds_[*v.writer].statement == last) v.returned = true;
  }

  // Whether `u` still holds data when command `w` (nullopt: before the first command) writes.
  static bool live(const MemoryValue& u, std::optional<std::size_t> w) {
    if (!w || u.returned) return true;
    if (u.writer && *u.writer >= *w) return true;
    return std::any_of(u.readers.begin(), u.readers.end(), [&](std::size_t r) { return r >= *w; });
  }

  // Next fit in program order (docs/cycle-model.md §14.2): the first address at or after the
  // previous value's end (else from the start) where the value overlaps nothing live. A dead
  // value it lands on hands over its bytes: a write after its readers and after its writer.
  void place(MemoryKind m) {
    std::vector<std::size_t> order, placed;
    for (std::size_t v = 0; v < g_.values.size(); ++v)
      if (g_.values[v].memory == m) order.push_back(v);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const auto& wa = g_.values[a].writer;
      const auto& wb = g_.values[b].writer;
      return wa.has_value() != wb.has_value() ? !wa.has_value() : wa.has_value() && *wa < *wb;
    });
    const std::uint64_t cap = memory_capacity(m);
    std::uint64_t cursor = 0;
    for (std::size_t v : order) {
      MemoryValue& val = g_.values[v];
      const std::uint64_t at = fit(m, placed, val, cursor, cap);
      val.address = at;
      cursor = at + val.bytes;
      for (std::size_t u : placed) hand_over(g_.values[u], val);
      placed.push_back(v);
    }
  }

  std::uint64_t fit(MemoryKind m, const std::vector<std::size_t>& placed, const MemoryValue& v,
                    std::uint64_t cursor, std::uint64_t cap) {
    std::vector<std::uint64_t> candidates{cursor, 0};
    std::uint64_t live_bytes = v.bytes;
    for (std::size_t u : placed)
      if (live(g_.values[u], v.writer)) {
        candidates.push_back(*g_.values[u].address + g_.values[u].bytes);
        live_bytes += g_.values[u].bytes;
      }
    std::sort(candidates.begin(), candidates.end());
    std::optional<std::uint64_t> wrapped;
    for (std::uint64_t a : candidates) {
      if (a + v.bytes > cap || overlaps_live(placed, v, a)) continue;
      if (a >= cursor) return a;
      if (!wrapped) wrapped = a;
    }
    if (wrapped) return *wrapped;
    g_.notes.push_back(fmt::format("{}: {} B live when `{}` is written exceed the {} B of a slice; "
                                   "placed at 0",
                                   memory_name(m), live_bytes, v.name, cap));
    return 0;
  }

  bool overlaps_live(const std::vector<std::size_t>& placed, const MemoryValue& v,
                     std::uint64_t a) const {
    for (std::size_t u : placed) {
      const MemoryValue& o = g_.values[u];
      if (live(o, v.writer) && a < *o.address + o.bytes && *o.address < a + v.bytes) return true;
    }
    return false;
  }

  void hand_over(const MemoryValue& u, const MemoryValue& v) {
    if (!v.writer || *u.address >= *v.address + v.bytes || *v.address >= *u.address + u.bytes)
      return;
    const std::size_t w = *v.writer;
    if (u.writer && *u.writer < w) add_edge(w, {*u.writer, WaitKind::WriteAfterWrite, u.name});
    for (std::size_t r : u.readers)
      if (r < w) add_edge(w, {r, WaitKind::WriteAfterRead, u.name});
  }

  static void hold(ScheduleNode& n, Track t) {
    if (!n.holds_track(t)) n.holds.push_back(t);
  }

  // A MemTensor write into a parameter's buffer (docs/datapath.md §4.2) keeps program order with
  // every other read and write of that buffer.
  void add_mem_writes() {
    for (const auto& [w, v] : mem_writes_) {
      const MemoryValue& u = g_.values[v];
      for (std::size_t r : u.readers) {
        if (r < w) add_edge(w, {r, WaitKind::WriteAfterRead, u.name});
        if (r > w) add_edge(r, {w, WaitKind::ReadAfterWrite, u.name});
      }
      for (const auto& [other, ov] : mem_writes_)
        if (ov == v && other < w) add_edge(w, {other, WaitKind::WriteAfterWrite, u.name});
    }
  }

  // Program order per context, and the Vector Engine shared by main and sub (furiosa-opt
  // docs/src/scheduling/schedule.md "Different contexts still serialize when they require the same
  // scheduling resource").
  void add_order() {
    add_mem_writes();
    // The previous holder of each track: a context waits for it (program order), the Vector
    // Engine for its previous user in another context.
    std::array<std::optional<std::size_t>, kTrackCount> last{};
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      ScheduleNode& n = g_.nodes[i];
      std::vector<Track> tracks{n.context};
      tracks.insert(tracks.end(), n.holds.begin(), n.holds.end());
      for (Track t : tracks) {
        auto& prev = last[static_cast<std::size_t>(t)];
        const std::string what(track_name(t));
        if (prev && t != Track::VectorEngine) add_edge(i, {*prev, WaitKind::Context, what});
        if (prev && t == Track::VectorEngine && g_.nodes[*prev].context != n.context)
          add_edge(i, {*prev, WaitKind::Engine, what});
        prev = i;
      }
    }
  }

  const ir::Kernel& k_;
  std::span<const CommandCycles> cmds_;
  std::map<std::size_t, std::size_t> command_of_; // stage → command
  std::map<std::string, std::size_t> keys_;       // "stage:N" / "param:NAME" → value
  std::vector<std::pair<std::size_t, std::size_t>> mem_writes_; // MemTensor writes: command, value
  ScheduleGraph g_;
};

} // namespace

ScheduleGraph schedule_graph(const ir::Kernel& kernel, std::span<const CommandCycles> commands) {
  return GraphBuilder(kernel, commands).build();
}

} // namespace tujit::cycles

// A whole kernel's schedule (docs/cycle-model.md §9, §14): the commands of a kernel on the
// contexts that run them (main, sub, tdma), the engine the main and sub contexts share (the Vector
// Engine), and the memory hazards between them — read after write, write after read, write after
// write — on the values the kernel keeps in HBM, DM, the TRF and the VRF (furiosa-opt
// docs/src/scheduling/schedule.md). The graph is the same for both cycle models; each model's
// cycles give it its own times, critical path and busy time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::ir {
struct Kernel;
}

namespace tujit::cycles {

struct CommandCycles;

/// What a command occupies while it runs: its context, or an engine shared across contexts.
enum class Track : std::uint8_t { Main, Sub, Tdma, VectorEngine };
inline constexpr std::size_t kTrackCount = 4;
std::string_view track_name(Track t);

/// Where a value lives. DM, TRF and VRF are per slice and placed (docs/cycle-model.md §14.2); HBM
/// is never reused.
enum class MemoryKind : std::uint8_t { Hbm, Dm, Trf, Vrf };
std::string_view memory_name(MemoryKind m);
/// Bytes of one slice's DM, TRF or VRF (ir/target/rngd.h); HBM is not placed.
std::uint64_t memory_capacity(MemoryKind m);

/// A tensor the kernel keeps in memory: a parameter (present before the first command) or the
/// result of one command's stage (a to_dm, a commit, a to_trf, a to_vrf, a to_hbm, a write).
struct MemoryValue {
  MemoryKind memory = MemoryKind::Dm;
  std::string name;                     // the binding, the parameter, or the stage that wrote it
  std::optional<std::size_t> writer;    // the command; nullopt for a parameter
  std::vector<std::size_t> readers;     // the commands that read it, in program order
  std::uint64_t bytes = 0;              // per slice (HBM: the whole tensor)
  std::optional<std::uint64_t> address; // DM / TRF / VRF: its first byte in the slice's memory
  bool returned = false;                // the kernel's result: live until the kernel ends
};

/// Why a command cannot start before another has ended.
enum class WaitKind : std::uint8_t {
  Context,         // the previous command of its context ("operations in one context are ordered")
  Engine,          // the previous user of a shared engine, in another context
  ReadAfterWrite,  // it reads what the other wrote
  WriteAfterRead,  // it writes where the other still reads
  WriteAfterWrite, // it writes where the other wrote
};
std::string_view wait_name(WaitKind w);

struct Dependency {
  std::size_t command = 0; // must end before this command starts
  WaitKind why = WaitKind::Context;
  std::string what; // the context or engine, or the value (a memory hazard)
};

struct ScheduleNode {
  Track context = Track::Main;
  /// What it holds besides its context: the Vector Engine; the sub context for a main-context
  /// `to_vrf`, whose write runs through it (docs/vector-engine.md §7).
  std::vector<Track> holds;
  std::vector<Dependency> after; // every constraint on its start
  bool holds_track(Track t) const;
};

struct ScheduleGraph {
  std::vector<ScheduleNode> nodes; // one per command, in program order
  std::vector<MemoryValue> values;
  /// What the placement could not honour, e.g. "TRF: 70000 B live at command 3 exceed 65536 B".
  std::vector<std::string> notes;
};

/// The commands' constraints: program order per context, the Vector Engine shared by main and
/// sub, and the hazards of the values' placement (§14.2). `commands` are the kernel's, in program
/// order, each with its stages and context.
ScheduleGraph schedule_graph(const ir::Kernel& kernel, std::span<const CommandCycles> commands);

struct ScheduledCommand {
  std::uint64_t start = 0; // its set-up begins
  std::uint64_t end = 0;
  /// The constraint that set its start (index into its node's `after`); nullopt when nothing
  /// held it back (it starts at 0).
  std::optional<std::size_t> binding;
};

struct Schedule {
  std::vector<ScheduledCommand> commands;
  std::uint64_t makespan = 0;
  /// The chain of binding constraints that ends at the last command to finish, first to last.
  std::vector<std::size_t> critical_path;
  std::array<std::uint64_t, kTrackCount> busy{}; // cycles each track is occupied
};

/// When a value holds its bytes in one model's schedule: from its writer's start (0 for a
/// parameter) to the end of its last reader (its writer's end when nothing reads it; the makespan
/// for the kernel's result).
struct Lifetime {
  std::uint64_t start = 0, end = 0;
};
Lifetime lifetime(const MemoryValue& v, const Schedule& s);

/// Each command starts as soon as every constraint of its node allows and runs for `durations`
/// (set-up + pipeline cycles of one model), in program order.
Schedule schedule(const ScheduleGraph& graph, std::span<const std::uint64_t> durations);

} // namespace tujit::cycles
